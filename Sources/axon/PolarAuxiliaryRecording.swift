import AxonPolar
import AxonRecording
import AxonStreams
import Foundation

/// `axon record polar:NAME`: the strap's accelerometer, heart rate and RR intervals beside its ECG.
///
/// - XDF: each is a stream of its own in the same file (`PolarAuxiliaryStream`'s descriptors: the accelerometer at
///   its rate, heart rate and RR intervals irregular), stamped on the host clock the ECG uses: an accelerometer
///   notification's samples end at its arrival, spaced at the rate; an RR interval at its beat (the arrival minus the
///   intervals after it in the same notification).
/// - EDF+/BDF+: the accelerometer goes to a file of its own beside OUT (`OUT-STEM.accelerometer.edf`: EDF signals
///   share one start and rate per file), a lost notification (a jump in the strap's sample index) filled with the last
///   values and annotated `gap: N samples (deviceCounter)`; RR intervals are irregular, so they go to
///   `OUT-STEM.rr.csv`, one line per beat: `unix_time,rr_ms,bpm` (the beat's wall-clock time, the interval that ended
///   there in ms, the heart rate of the notification that carried it) — what HRV tools import.
///
/// Threading: `init` on the command's thread; the samples are consumed by one detached task, whose end ``finish()``
/// waits for (the source's `auxiliary` stream finishes when its run returns).
final class PolarAuxiliaryRecording: Sendable {
    private let consumer = AuxiliaryStreamConsumer<PolarAuxiliaryStream>()
    private let files: [PolarAuxiliaryStream: String]

    /// Starts consuming `source.auxiliary` into `xdf`, or into files beside `out` (EDF+/BDF+ by its extension). An
    /// existing file beside `out` is refused unless `replace`.
    init(source: PolarSource, out: String, xdf: XDFRecordSession?, options: EDFWriter.Options, replace: Bool) throws {
        var streams: [PolarAuxiliaryStream] = source.includesHeartRate ? [.heartRate, .rrInterval] : []
        if source.accelerometer != nil { streams.insert(.accelerometer, at: 0) }
        if let xdf {
            var added: [PolarAuxiliaryStream: UInt32] = [:]
            for stream in streams { added[stream] = try xdf.writer.addStream(source.auxiliaryDescriptor(stream)) }
            files = [:]
            let writer = xdf.writer
            let ids = added
            start(source) { sample in
                var scratch: [UInt8] = []
                let values = sample.frames.flatMap { $0 }
                try sample.hostTimes.withUnsafeBufferPointer { times in
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
        var named: [PolarAuxiliaryStream: String] = [:]
        if streams.contains(.accelerometer) { named[.accelerometer] = "\(stem).accelerometer.\(url.pathExtension)" }
        if streams.contains(.rrInterval) { named[.rrInterval] = "\(stem).rr.csv" }
        for path in named.values { try OutputFile.claim(path, replace: replace) }
        files = named
        let paths = named
        let accelerometer = ThreadLocked<AccelerometerEDF?>(nil)
        let rrFile = try paths[.rrInterval].map { path -> FileHandle in
            guard FileManager.default.createFile(atPath: path, contents: Data("unix_time,rr_ms,bpm\n".utf8)) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        if let rrFile { try rrFile.seekToEnd() }
        let lastBPM = ThreadLocked<Double?>(nil)
        start(source) { sample in
            switch sample.stream {
            case .accelerometer:
                let descriptor = source.auxiliaryDescriptor(.accelerometer)
                try accelerometer.withLock { writer in
                    if writer == nil {
                        writer = try AccelerometerEDF(
                            path: paths[.accelerometer]!, descriptor: descriptor, options: options,
                            startUnixTime: sample.hostTimes[0] + HostClock.wallClockOffset())
                    }
                    try writer!.append(sample)
                }
            case .heartRate:
                lastBPM.withLock { $0 = sample.frames.first?.first }
            case .rrInterval:
                guard let rrFile else { return }
                let bpm = lastBPM.withLock { $0 }.map { String(Int($0)) } ?? ""
                let offset = HostClock.wallClockOffset()
                var text = ""
                for (frame, time) in zip(sample.frames, sample.hostTimes) {
                    text += String(format: "%.3f,%.3f,", time + offset, frame[0]) + bpm + "\n"
                }
                try rrFile.write(contentsOf: Data(text.utf8))
            }
        } finished: {
            try accelerometer.withLock { try $0?.close() }
            try rrFile?.close()
        }
    }

    /// Consumes the samples: `write` gets each one; `finished` runs after the last.
    private func start(
        _ source: PolarSource, write: @escaping @Sendable (PolarAuxiliarySample) throws -> Void,
        finished: @escaping @Sendable () throws -> Void = {}
    ) {
        consumer.start(source.auxiliary, stream: \.stream, count: \.frames.count, write: write, finished: finished)
    }

    /// Waits until the source's run has ended and everything is written; returns the closing line, and the first
    /// failure if any.
    func finish() -> (summary: String, failure: String?) { consumer.finish(label: "polar", files: files) }
}

/// The accelerometer in an EDF+/BDF+ file of its own: samples in order, a jump in the strap's sample index filled
/// with the last values and annotated.
private final class AccelerometerEDF: @unchecked Sendable {
    // Sendable invariant: used under the owner's lock only.
    private let writer: EDFWriter
    private var nextIndex: Int64?
    private let rate: Double
    /// Samples filled at most (10 s); a longer jump (a restarted clock, a long outage) is annotated, not filled.
    private let longestFill: Int64

    init(path: String, descriptor: StreamDescriptor, options: EDFWriter.Options, startUnixTime: Double) throws {
        var options = options
        options.ranges = descriptor.channels.map(\.range)
        writer = try EDFWriter(path: path, descriptor: descriptor, startUnixTime: startUnixTime, options: options)
        rate = descriptor.nominalRate
        longestFill = Int64(rate * 10)
    }

    func append(_ sample: PolarAuxiliarySample) throws {
        let first = sample.firstSampleIndex ?? nextIndex ?? 0
        if let expected = nextIndex, first != expected {
            let lost = first - expected
            let onset = Double(writer.frameCount) / rate
            if lost > 0, lost <= longestFill {
                writer.annotate(onset: onset, text: "gap: \(lost) samples (deviceCounter)")
                try writer.appendFill(count: Int(lost))
            } else {
                writer.annotate(
                    onset: onset, text: "accelerometer sample index jumped from \(expected) to \(first): not filled")
            }
        }
        nextIndex = first + Int64(sample.frames.count)
        let values = sample.frames.flatMap { $0 }
        let appended: Result<Void, EDFWriterError> = values.withUnsafeBufferPointer { rows in
            Result { () throws(EDFWriterError) in
                try writer.append(rows: rows, stride: 3, valueOffset: 0, frameCount: sample.frames.count)
            }
        }
        try appended.get()
    }

    func close() throws { try writer.close() }
}
