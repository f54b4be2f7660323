import AxonMuse
import AxonRecording
import AxonStreams
import Foundation

/// `axon record muse:NAME`: the headset's telemetry, accelerometer, gyroscope (and PPG) streams beside its EEG.
///
/// - XDF: each is a stream of its own in the same file (`MuseAuxiliaryStream`'s descriptor; telemetry irregular),
///   every frame stamped on the host clock the EEG uses: a notification's frames end at its arrival, spaced at the
///   stream's rate.
/// - EDF+/BDF+: the motion and PPG streams each go to a file of their own beside OUT (`OUT-STEM.accelerometer.edf`,
///   …: EDF signals share one start and rate per file), a lost notification filled with the last values and
///   annotated, as the EEG file does; telemetry is irregular, so each new battery level is an annotation of the EEG
///   file instead.
///
/// Threading: `start` on the command's thread; the samples are consumed by one detached task, whose end ``finish()``
/// waits for (the source's `auxiliary` stream finishes when its run returns).
final class MuseAuxiliaryRecording: Sendable {
    private let consumer = AuxiliaryStreamConsumer<MuseAuxiliaryStream>()
    private let files: [MuseAuxiliaryStream: String]

    /// Starts consuming `source.auxiliary` into `xdf`, or into files beside `out` (EDF+/BDF+ by its extension) with
    /// telemetry annotated through `annotate`. An existing file beside `out` is refused unless `replace`.
    init(
        source: MuseSource, out: String, xdf: XDFRecordSession?, options: EDFWriter.Options, replace: Bool,
        annotate: @escaping @Sendable (String) -> Void
    ) throws {
        let streams: [MuseAuxiliaryStream] =
            [.telemetry, .accelerometer, .gyroscope] + (source.includesPPG ? [.ppg] : [])
        if let xdf {
            var added: [MuseAuxiliaryStream: UInt32] = [:]
            for stream in streams { added[stream] = try xdf.writer.addStream(source.auxiliaryDescriptor(stream)) }
            files = [:]
            let writer = xdf.writer
            let ids = added
            start(source) { sample, times, values in
                var scratch: [UInt8] = []
                try times.withUnsafeBufferPointer { times in
                    try values.withUnsafeBufferPointer { values in
                        try writer.appendSamples(
                            stream: ids[sample.stream]!, timestamps: times, values: values, scratch: &scratch)
                    }
                }
            }
            return
        }
        let url = URL(fileURLWithPath: out)
        let stem = url.deletingPathExtension().path
        let fileExtension = url.pathExtension
        var named: [MuseAuxiliaryStream: String] = [:]
        for stream in streams where stream != .telemetry { named[stream] = "\(stem).\(stream.rawValue).\(fileExtension)" }
        for path in named.values { try OutputFile.claim(path, replace: replace) }
        files = named
        let paths = named
        let writers = ThreadLocked<[MuseAuxiliaryStream: AuxiliaryEDF]>([:])
        let lastBattery = ThreadLocked<Double?>(nil)
        start(source) { sample, times, values in
            if sample.stream == .telemetry {
                guard let level = sample.frames.first?.first else { return }
                let changed = lastBattery.withLock { last -> Bool in
                    defer { last = level }
                    return last != level
                }
                if changed { annotate("battery: \(Int(level.rounded()))%") }
                return
            }
            let descriptor = source.auxiliaryDescriptor(sample.stream)
            try writers.withLock { writers in
                if writers[sample.stream] == nil {
                    writers[sample.stream] = try AuxiliaryEDF(
                        path: paths[sample.stream]!, descriptor: descriptor, options: options,
                        startUnixTime: times[0] + HostClock.wallClockOffset())
                }
                try writers[sample.stream]!.append(sample, values: values)
            }
        } finished: {
            try writers.withLock { writers in
                for writer in writers.values { try writer.close() }
            }
        }
    }

    /// Consumes the samples: `write` gets each one with its frames' host times (a notification's frames end at its
    /// arrival, spaced at the stream's rate) and values (frame-major); `finished` runs after the last.
    private func start(
        _ source: MuseSource,
        write: @escaping @Sendable (MuseAuxiliarySample, [Double], [Double]) throws -> Void,
        finished: @escaping @Sendable () throws -> Void = {}
    ) {
        consumer.start(source.auxiliary, stream: \.stream, count: \.frames.count, write: { sample in
            let rate = source.auxiliaryDescriptor(sample.stream).nominalRate
            let n = sample.frames.count
            let times = (0..<n).map { sample.arrivalTime - (rate > 0 ? Double(n - 1 - $0) / rate : 0) }
            try write(sample, times, sample.frames.flatMap { $0 })
        }, finished: finished)
    }

    /// Waits until the source's run has ended and everything is written; returns the closing line, and the first
    /// failure if any.
    func finish() -> (summary: String, failure: String?) { consumer.finish(label: "muse", files: files) }
}

/// One motion or PPG stream in an EDF+/BDF+ file of its own: frames in order, a lost notification (a jump in the
/// packet index) filled with the last values and annotated.
private final class AuxiliaryEDF: @unchecked Sendable {
    // Sendable invariant: used under the owner's lock only.
    private let writer: EDFWriter
    private var nextPacket: UInt16?
    private let rate: Double
    /// Lost notifications filled at most (about 10 s of motion data); a longer jump is annotated, not filled.
    private static let longestFill = 170

    init(path: String, descriptor: StreamDescriptor, options: EDFWriter.Options, startUnixTime: Double) throws {
        var options = options
        options.ranges = descriptor.channels.map(\.range)
        // 52 Hz and 64 Hz are whole numbers of samples in 1 s records.
        writer = try EDFWriter(path: path, descriptor: descriptor, startUnixTime: startUnixTime, options: options)
        rate = descriptor.nominalRate
    }

    func append(_ sample: MuseAuxiliarySample, values: [Double]) throws {
        if let expected = nextPacket, sample.packetIndex != expected {
            let lost = Int(sample.packetIndex &- expected)
            let onset = Double(writer.frameCount) / rate
            if lost <= Self.longestFill {
                let missing = lost * sample.frames.count
                writer.annotate(onset: onset, text: "gap: \(missing) samples (deviceCounter)")
                try writer.appendFill(count: missing)
            } else {
                // More than a few seconds of notifications: a restarted counter, not a loss to fill.
                writer.annotate(
                    onset: onset, text: "packet index jumped from \(expected &- 1) to \(sample.packetIndex): not filled")
            }
        }
        nextPacket = sample.packetIndex &+ 1
        let width = writer.descriptor.channelCount
        let appended: Result<Void, EDFWriterError> = values.withUnsafeBufferPointer { rows in
            Result { () throws(EDFWriterError) in
                try writer.append(rows: rows, stride: width, valueOffset: 0, frameCount: sample.frames.count)
            }
        }
        try appended.get()
    }

    func close() throws { try writer.close() }
}
