import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// An EDF/BDF whose signals have two rates (three at 100 Hz, one at 12.8 Hz, 1.25 s records), written here byte by
/// byte: Axon keeps every signal, one stream per rate (issue 36), with MNE-Python's values where MNE has them (it
/// resamples the slow signal to 100 Hz, so that one is compared where both have a sample, and whole against the
/// file's own digital values), and a conversion to EDF, BDF or XDF and back keeps every signal at its rate.
struct MixedRateTests {
    private static let signals = [
        EDFTestFiles.Signal(label: "Fp1", samplesPerRecord: 125, digital: -32768...32767, physical: -500...500),
        EDFTestFiles.Signal(label: "Fp2", samplesPerRecord: 125, digital: -32768...32767, physical: -500...500),
        EDFTestFiles.Signal(label: "Resp", samplesPerRecord: 16, digital: -2048...2047, physical: -1000...1000),
        EDFTestFiles.Signal(label: "Cz", samplesPerRecord: 125, digital: -32768...32767, physical: -500...500),
    ]
    private static let records = 8

    /// A deterministic digital sample: a different slow wave per signal, never at a limit.
    private static func digital(_ signal: Int, _ record: Int, _ sample: Int) -> Int {
        let n = record * signals[signal].samplesPerRecord + sample
        let amplitude = signal == 2 ? 1500.0 : 20000.0
        return Int((amplitude * sin(Double(n) * 0.05 * Double(signal + 1))).rounded())
    }

    private static func physical(_ digital: Int, _ signal: EDFTestFiles.Signal) -> Double {
        let scale = (signal.physical.upperBound - signal.physical.lowerBound)
            / Double(signal.digital.upperBound - signal.digital.lowerBound)
        return (Double(digital) - Double(signal.digital.lowerBound)) * scale + signal.physical.lowerBound
    }

    private static func step(_ signal: EDFTestFiles.Signal) -> Double {
        (signal.physical.upperBound - signal.physical.lowerBound)
            / Double(signal.digital.upperBound - signal.digital.lowerBound)
    }

    /// The values written, per signal, in the physical unit.
    private static func written(_ signal: Int) -> [Double] {
        let info = signals[signal]
        return (0..<(records * info.samplesPerRecord)).map { n in
            physical(digital(signal, n / info.samplesPerRecord, n % info.samplesPerRecord), info)
        }
    }

    private static func file(bdf: Bool) throws -> String {
        let bytes = EDFTestFiles.make(
            bdf: bdf, signals: signals, records: records, recordDuration: "1.25", digital: digital)
        let path = try EDFPeers.temporaryFolder().appendingPathComponent(bdf ? "two-rates.bdf" : "two-rates.edf").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every signal of `recording` (any stream) within `tolerance(signal)` of the values written.
    private func expectWritten(_ recording: Recording, tolerance: (Int) -> Double) throws {
        #expect(recording.streams.count == 2)
        for (index, signal) in Self.signals.enumerated() {
            guard let stream = recording.streams.first(where: { $0.channelLabels.contains(signal.label) }) else {
                Issue.record("\(signal.label) is missing")
                continue
            }
            #expect(stream.sampleRate == Double(signal.samplesPerRecord) / 1.25)
            let ours = try stream.channel(signal.label)
            let expected = Self.written(index)
            #expect(ours.count == expected.count, "\(signal.label): \(ours.count) samples of \(expected.count)")
            let worst = zip(ours, expected).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= tolerance(index), "\(signal.label): off by \(worst)")
        }
    }

    @Test("every signal is kept, one stream per rate, with MNE's values", arguments: [false, true])
    func readsEveryRate(bdf: Bool) throws {
        let path = try Self.file(bdf: bdf)
        let recording = try EDFFileReader().read(path: path)
        #expect(recording.channelLabels == ["Fp1", "Fp2", "Cz"])
        #expect(recording.sampleRate == 100 && recording.frameCount == 1000)
        #expect(recording.companions.count == 1)
        let resp = try #require(recording.companions.first)
        #expect(resp.channelLabels == ["Resp"] && resp.sampleRate == 12.8 && resp.frameCount == 128)
        #expect(resp.startTime == recording.startTime)
        #expect(recording.descriptor.metadata["edf.streams"]?.hasPrefix("3 at 100 Hz, 1 at 12.8 Hz") == true)
        #expect(!recording.warnings.contains { $0.contains("skipped") })
        try expectWritten(recording) { _ in 1e-9 }

        guard EDFPeers.available else { return }
        let mne = try EDFPeers.mneRead(file: path)
        #expect(mne.labels == ["Fp1", "Fp2", "Resp", "Cz"] && mne.rate == 100 && mne.samples == 1000)
        guard mne.labels.count == 4, mne.samples == 1000 else { return }
        for (slot, label) in recording.channelLabels.enumerated() {
            let theirs = mne.values[mne.labels.firstIndex(of: label)!]
            let worst = zip(recording.channel(at: slot), theirs).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= Self.step(Self.signals[0]), "\(label): off MNE's by \(worst)")
        }
        // MNE resamples Resp to 100 Hz; both have a sample every 1.25 s (every 16th of 12.8 Hz, 125th of 100 Hz).
        let theirs = mne.values[2]
        let ours = resp.channel(at: 0)
        for k in stride(from: 0, to: 128, by: 16) {
            #expect(abs(ours[k] - theirs[k * 125 / 16]) <= Self.step(Self.signals[2]), "Resp at \(k)")
        }
    }

    @Test("EDF, BDF and XDF conversions keep every signal at its rate", arguments: ["edf", "bdf", "xdf"])
    func conversionsKeepEveryRate(format: String) throws {
        let source = try EDFFileReader().read(path: try Self.file(bdf: false))
        let marked = Recording(
            descriptor: source.descriptor, values: source.values, timestamps: source.timestamps,
            markers: [RecordingMarker(frame: 200, value: 0, text: "stim")], companions: source.companions)
        let out = try EDFPeers.temporaryFolder().appendingPathComponent("out.\(format)").path
        switch format {
        case "xdf": _ = try XDFConversion.write(marked, to: out)
        default:
            let result = try EDFConversion.write(marked, to: out, format: format == "bdf" ? .bdfPlus : .edfPlus)
            #expect(result.recordDuration == 1.25 && result.records == 8 && result.padded == 0)
        }
        let back = try RecordingReader.read(path: out)
        #expect(back.channelLabels == ["Fp1", "Fp2", "Cz"])
        #expect(back.companions.map(\.channelLabels) == [["Resp"]])
        #expect(back.markers.map(\.frame) == [200] && back.markers.first?.text == "stim")
        // XDF keeps every value; EDF+ and BDF+ within one step of the ranges the conversion chose.
        try expectWritten(back) { signal in
            guard format != "xdf" else { return 1e-9 }
            let span = format == "edf" ? 65534.0 : 16_777_214.0
            return (Self.signals[signal].physical.upperBound - Self.signals[signal].physical.lowerBound) / span
        }
        if format != "xdf" {
            let header = EDFTestFiles.SimpleHeader(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
            #expect(header.samplesPerRecord.prefix(4) == [125, 125, 125, 16])
        }
    }

    @Test("channels are chosen across streams; a slow stream alone becomes the main one and takes the markers")
    func selectingAcrossStreams() throws {
        let source = try EDFFileReader().read(path: try Self.file(bdf: false))
        let marked = Recording(
            descriptor: source.descriptor, values: source.values, timestamps: source.timestamps,
            markers: [RecordingMarker(frame: 200, value: 0, text: "stim")], companions: source.companions)
        let both = try marked.selecting(channels: ["resp", "Cz"])
        #expect(both.channelLabels == ["Cz"] && both.companions.map(\.channelLabels) == [["Resp"]])
        let slow = try marked.selecting(channels: ["Resp"])
        #expect(slow.channelLabels == ["Resp"] && slow.sampleRate == 12.8 && slow.companions.isEmpty)
        #expect(slow.markers.map(\.frame) == [26])  // 2 s at 12.8 Hz (25.6, rounded)
        #expect(throws: RecordingError.self) { try marked.selecting(channels: ["Pz"]) }
        // A time segment keeps the same span of each stream.
        let segment = try marked.segment(from: 2.5, to: 5)
        #expect(segment.frameCount == 250 && segment.companions.first?.frameCount == 32)
        #expect(segment.companions.first?.value(frame: 0, channel: 0) == resp(source)[32])
    }

    private func resp(_ recording: Recording) -> [Double] { recording.companions[0].channel(at: 0) }

    @Test("a label written twice finds nothing on its own, and its one copy once the other is left out")
    func writtenLabelLookup() throws {
        let descriptor = StreamDescriptor(
            name: "dup", contentType: .eeg,
            channels: ["EEG", "EEG", "ECG"].map { ChannelInfo(label: $0, unit: "uV") }, nominalRate: 10,
            format: .float64, sourceID: "test")
        let recording = Recording(descriptor: descriptor, values: Array(repeating: 0, count: 30))
        #expect(recording.channelLabels == ["EEG-0", "EEG-1", "ECG"])
        #expect(throws: RecordingError.ambiguousChannel(label: "EEG", matches: ["EEG-0", "EEG-1"])) {
            try recording.channelIndex(of: "EEG")
        }
        let one = try recording.selecting(channels: ["EEG-1", "ECG"])
        #expect(try one.channelIndex(of: "EEG") == 0)
    }
}
