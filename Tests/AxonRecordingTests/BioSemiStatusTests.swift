import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// A BioSemi ActiveTwo BDF's `Status` channel (issue 36), in a file written here byte by byte: its triggers become
/// markers with MNE-Python's `find_events` frames and codes, its device bits status events, the EEG is read as MNE
/// reads it, and `convert` to BDF, EDF and XDF keeps every trigger and event. Without `.venv-peers` the comparisons
/// with MNE are left out; the checks against what was written still run.
struct BioSemiStatusTests {
    static let cms = 1 << 20
    static let battery = 1 << 22
    static let epoch = 1 << 16
    /// What an ActiveTwo Mk2 in speed mode 4 writes with nothing happening: Mk2 (bit 23, so the BDF sample is
    /// negative), CMS in range (bit 20), speed bit 2 (bit 19).
    static let idle = 1 << 23 | cms | 1 << 19

    /// Trigger codes on the inputs, `(first frame, frames, code)`: repeated codes, a change without a return to 0
    /// (up and down), all 16 bits, bit 8, and one across a data record's end (128 samples per record).
    static let pulses = [
        (20, 10, 12), (50, 10, 12), (80, 10, 3), (90, 10, 7), (120, 6, 255), (126, 10, 9), (160, 10, 65535),
        (200, 10, 256), (260, 10, 5), (400, 10, 1),
    ]
    /// The markers Axon must give: every change of bits 0–15 to a non-zero code.
    static let triggers = [
        (20, 12), (50, 12), (80, 3), (90, 7), (120, 255), (126, 9), (160, 65535), (200, 256), (260, 5), (400, 1),
    ]
    /// The device status events: CMS out of range for frames 250…279 (a trigger in it), a new epoch at 300 (bit 16
    /// is also high on frames 0–1, the recording's first epoch, which is no event), the battery low from 350 on.
    static let events = [(250, "CMS out of range"), (280, "CMS in range"), (300, "new epoch"), (350, "battery low")]

    static let frames = 4 * 128

    /// The 24-bit Status word at `frame`.
    static func word(_ frame: Int) -> Int {
        var word = idle
        for (start, count, code) in pulses where (start..<(start + count)).contains(frame) { word |= code }
        if (250..<280).contains(frame) { word &= ~cms }
        if frame < 2 || (300..<305).contains(frame) { word |= epoch }
        if frame >= 350 { word |= battery }
        return word
    }

    static let eeg = ["Fp1", "Fz", "Cz"].map {
        EDFTestFiles.Signal(
            label: $0, samplesPerRecord: 128, digital: -8_388_608...8_388_607, physical: -262144...262143)
    }
    /// BioSemi's Status signal header: the word's range on both sides, unit `Boolean`.
    static let status = EDFTestFiles.Signal(
        label: "Status", samplesPerRecord: 128, digital: -8_388_608...8_388_607, physical: -8_388_608...8_388_607,
        unit: "Boolean")

    /// EEG sample values: distinct per signal and frame, both signs.
    static func digital(_ signal: Int, _ frame: Int) -> Int { (signal + 1) * (frame * 997 - 200_000) }

    /// The BDF: three EEG signals and Status (as the third of four, where ActiView puts it last, to check the
    /// others keep their places), 4 records of 1 s at 128 Hz.
    /// `padded`: the record count written `  4` as BioSemi's writer pads numbers (issue 36's 73-channel file).
    static func bdf(padded: Bool = false) throws -> String {
        let signals = [eeg[0], eeg[1], status, eeg[2]]
        var bytes = EDFTestFiles.make(bdf: true, signals: signals, records: 4) { signal, record, sample in
            let frame = record * 128 + sample
            // A 24-bit word with bit 23 set is a negative BDF sample; the writer takes the low 24 bits.
            return signal == 2 ? word(frame) : digital(signal < 2 ? signal : 2, frame)
        }
        if padded { bytes = EDFTestFiles.patch(bytes, at: 236, width: 8, with: "  4") }
        return try EDFTestFiles.temporaryFile(bytes, suffix: ".bdf")
    }

    /// The triggers among `markers`, as (frame, code) from their text (`trigger 12`): what survives a conversion.
    static func triggerPairs(_ markers: [RecordingMarker]) -> [[Int]] {
        markers.compactMap { marker in
            marker.text.flatMap(BioSemiStatus.triggerCode(inText:)).map { [marker.frame, $0] }
        }
    }

    static func statusEvents(_ markers: [RecordingMarker]) -> [String] {
        markers.filter { ($0.text).flatMap(BioSemiStatus.triggerCode(inText:)) == nil }.map {
            "\($0.frame) \($0.text ?? "")"
        }
    }

    static let expectedTriggers = triggers.map { [$0.0, $0.1] }
    static let expectedEvents = events.map { "\($0.0) \($0.1)" }

    @Test(
        "a BioSemi BDF: triggers as MNE's find_events finds them, status events, EEG as MNE reads it",
        arguments: [false, true])
    func readsStatus(padded: Bool) throws {
        let path = try Self.bdf(padded: padded)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = try EDFFileReader().read(path: path)

        #expect(recording.channelLabels == ["Fp1", "Fz", "Cz"])
        #expect(recording.frameCount == Self.frames)
        #expect(Self.triggerPairs(recording.markers) == Self.expectedTriggers)
        #expect(
            recording.markers.filter { $0.text?.hasPrefix("trigger ") == true }.map(\.value)
                == Self.triggers.map { Double($0.1) })
        #expect(Self.statusEvents(recording.markers) == Self.expectedEvents)
        #expect(recording.markers.map(\.frame) == recording.markers.map(\.frame).sorted())
        #expect(
            recording.descriptor.metadata["edf.status"]
                == "signal 3 (\"Status\") decoded as BioSemi's Status channel: 10 triggers, 4 device status events "
                + "(CMS out of range ×1, CMS in range ×1, new epoch ×1, battery low ×1); speed mode 4, ActiveTwo Mk2; "
                + "the channel itself left out")
        #expect(recording.warnings.count == (padded ? 2 : 1), "\(recording.warnings)")
        #expect(
            recording.warnings.contains(
                "the BioSemi Status channel reports CMS out of range 1 time (first at frame 250) and battery low 1 "
                    + "time (first at frame 350): the EEG while it lasts may be unusable (see the markers)"),
            "\(recording.warnings)")
        // The EEG around the dropped Status signal keeps its values.
        for frame in [0, 127, 128, 300, 511] {
            for (channel, signal) in [0, 1, 2].enumerated() {
                // The EDF specification's formula: (digital − dmin) × (pmax − pmin) ÷ (dmax − dmin) + pmin.
                let expected = Double(Self.digital(signal, frame) + 8_388_608) * 524_287 / 16_777_215 - 262144
                #expect(abs(recording.value(frame: frame, channel: channel) - expected) < 1e-6)
            }
        }

        guard EDFPeers.available else { return }
        let mne = try EDFPeers.mneRead(file: path, findEvents: true)
        // MNE with consecutive=True: the same frames and codes.
        #expect(mne.events == Self.expectedTriggers)
        // MNE's default ("increasing") leaves out the change down from 255 to 9; Axon keeps it.
        #expect(mne.eventsDefault == Self.expectedTriggers.filter { $0 != [126, 9] })
        #expect(mne.labels == ["Fp1", "Fz", "Status", "Cz"])
        let step = (262143.0 + 262144) / 16_777_215
        for (channel, label) in recording.channelLabels.enumerated() {
            let theirs = try #require(mne.labels.firstIndex(of: label))
            let worst = zip(recording.channel(at: channel), mne.values[theirs]).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= step, "\(label): off by \(worst), one step is \(step)")
        }
    }

    @Test("keepsStatusChannel keeps the raw 24-bit Status word as a channel, besides the markers")
    func keepsRawWord() throws {
        let path = try Self.bdf()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = try EDFFileReader(keepsStatusChannel: true).read(path: path)
        #expect(recording.channelLabels == ["Fp1", "Fz", "Status", "Cz"])
        #expect(recording.descriptor.channels[2].unit == "")
        #expect(recording.channel(at: 2) == (0..<Self.frames).map { Double(Self.word($0)) })
        let word: Int = 1 << 23 | 1 << 20 | 1 << 19 | 12
        #expect(recording.value(frame: 20, channel: 2) == Double(word))
        #expect(Self.triggerPairs(recording.markers) == Self.expectedTriggers)
        #expect(
            recording.descriptor.metadata["edf.status"]?.hasSuffix("the channel kept raw (the 24-bit Status word)")
                == true)
        // Through RecordingReader's options, as `--keep-status-channel` asks.
        let read = try RecordingReader.read(path: path, options: .init(keepsStatusChannel: true))
        #expect(read.channelLabels == recording.channelLabels)
        #expect(try RecordingReader.read(path: path).channelLabels == ["Fp1", "Fz", "Cz"])
    }

    @Test(
        "convert to BDF, EDF and XDF and back keeps every trigger (frame and code) and status event",
        arguments: [ConvertRoundTripTests.Target.bdf, .edf, .xdf])
    func convertKeepsTriggers(target: ConvertRoundTripTests.Target) throws {
        let path = try Self.bdf()
        let folder = try EDFPeers.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: folder)
        }
        let source = try RecordingReader.read(path: path)
        let out = folder.appendingPathComponent("out.\(target.rawValue)").path
        _ = try ConvertRoundTripTests.write(source, as: target, to: out)
        let back = try RecordingReader.read(path: out)
        #expect(back.channelLabels == ["Fp1", "Fz", "Cz"])
        #expect(Self.triggerPairs(back.markers) == Self.expectedTriggers)
        #expect(Self.statusEvents(back.markers) == Self.expectedEvents)
    }

    @Test("a file converted with the Status channel kept carries each trigger once: its annotations, not a re-decoding")
    func convertKeptChannel() throws {
        let path = try Self.bdf()
        let folder = try EDFPeers.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: folder)
        }
        let source = try EDFFileReader(keepsStatusChannel: true).read(path: path)
        let out = folder.appendingPathComponent("kept.bdf").path
        _ = try ConvertRoundTripTests.write(source, as: .bdf, to: out)
        for keeps in [false, true] {
            let back = try EDFFileReader(keepsStatusChannel: keeps).read(path: out)
            #expect(back.channelLabels == (keeps ? ["Fp1", "Fz", "Status", "Cz"] : ["Fp1", "Fz", "Cz"]))
            #expect(Self.triggerPairs(back.markers) == Self.expectedTriggers)
            #expect(Self.statusEvents(back.markers) == Self.expectedEvents)
            #expect(
                back.descriptor.metadata["edf.status"]?.hasPrefix(
                    "signal 3 (\"Status\") not decoded: the file's annotations already carry 14 Status trigger and "
                        + "status markers") == true, "\(back.descriptor.metadata)")
        }
    }

    @Test(
        "a Status signal at half the EEG's rate: its triggers land on the EEG's frames, as MNE's find_events puts them")
    func statusAtAnotherRate() throws {
        let signals = [
            Self.eeg[0],
            EDFTestFiles.Signal(
                label: "Status", samplesPerRecord: 64, digital: -8_388_608...8_388_607,
                physical: -8_388_608...8_388_607, unit: "Boolean"),
        ]
        let bytes = EDFTestFiles.make(bdf: true, signals: signals, records: 2) { signal, record, sample in
            let frame = record * (signal == 0 ? 128 : 64) + sample
            if signal == 0 { return Self.digital(0, frame) }
            return Self.idle | ((10..<15).contains(frame) ? 7 : 0) | ((70..<75).contains(frame) ? 3 : 0)
        }
        let path = try EDFTestFiles.temporaryFile(bytes, suffix: ".bdf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = try EDFFileReader().read(path: path)
        #expect(recording.channelLabels == ["Fp1"])
        #expect(recording.companions.isEmpty)
        #expect(Self.triggerPairs(recording.markers) == [[20, 7], [140, 3]])
        guard EDFPeers.available else { return }
        // MNE puts them on the same frames; its codes are not comparable here: MNE masks a Status channel to 17 bits
        // only when it has the main rate, and takes the absolute value of the negative (Mk2) words it leaves
        // unmasked, so it reports 65529 and 65533 for 7 and 3.
        let mne = try EDFPeers.mneRead(file: path, findEvents: true)
        #expect(mne.events?.map { $0[0] } == [20, 140])
    }

    @Test("the decoder: a code on at frame 0 and at the end, CMS out and battery low from the start, battery ok again")
    func decoderEdges() {
        let words = [
            Self.idle & ~Self.cms | Self.battery | 4, Self.idle & ~Self.cms | Self.battery | 4, Self.idle | 4,
            Self.idle, Self.idle | Self.epoch | 6, Self.idle | 6,
        ]
        // As a BDF holds them: 24-bit two's complement, sign-extended.
        let decoded = BioSemiStatus(samples: words.map { Int32(truncatingIfNeeded: $0 << 8) >> 8 })
        #expect(
            decoded.markers.map { "\($0.frame) \($0.text ?? "")" } == [
                "0 trigger 4", "0 CMS out of range", "0 battery low", "2 CMS in range", "2 battery ok", "4 trigger 6",
                "4 new epoch",
            ])
        #expect(decoded.triggerCount == 2)
        #expect(decoded.statusEventCount == 5)
        #expect(decoded.speedMode == 4 && decoded.isMk2)
        #expect(BioSemiStatus.isStatusLabel(" STATUS  ") && !BioSemiStatus.isStatusLabel("Status2"))
        #expect(BioSemiStatus.triggerCode(inText: "trigger 65535") == 65535)
        #expect(BioSemiStatus.triggerCode(inText: "trigger 0") == nil)
        #expect(BioSemiStatus.triggerCode(inText: "T0") == nil)
    }

    @Test("an EDF signal labelled Status is an ordinary signal: only BDF carries BioSemi's Status word")
    func edfStatusIsASignal() throws {
        let signals = [
            EDFTestFiles.Signal(label: "Fz", samplesPerRecord: 10, digital: -32768...32767, physical: -3276.8...3276.7),
            EDFTestFiles.Signal(
                label: "Status", samplesPerRecord: 10, digital: -32768...32767, physical: -32768...32767),
        ]
        let bytes = EDFTestFiles.make(signals: signals, records: 1) { _, _, sample in sample }
        let path = try EDFTestFiles.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = try EDFFileReader().read(path: path)
        #expect(recording.channelLabels == ["Fz", "Status"])
        #expect(recording.markers.isEmpty)
        #expect(recording.descriptor.metadata["edf.status"] == nil)
    }
}
