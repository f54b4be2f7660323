import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// Every shipped recording through every writer `axon convert` has (Axon CSV, EDF+, BDF+, XDF) and back through
/// the readers: values within one quantisation step (exact for CSV and XDF), the start and the markers kept, and a
/// second pass adds no annotation.
@Suite("Conversion round trips")
struct ConvertRoundTripTests {
    /// The recordings in `datasets/` that a reader takes (`eyes-closed-exg6-exg7.csv` is a bare two-column cut for
    /// the DSP tests, in no recording format).
    static let recordings = [
        TestData.openBCIPath, OlderOpenBCIFormatTests.legacyPath, OlderOpenBCIFormatTests.brainFlowPath,
        TestData.musePath, MindMonitorCSVReaderTests.rawPath, MindMonitorCSVReaderTests.bandsPath,
        EDFTestFiles.physioNetPath,
    ]

    enum Target: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case csv, edf, bdf, xdf
        var testDescription: String { rawValue }
    }

    /// Writes `recording` as `target` the way `axon convert` does; returns the per-channel steps (0 = exact).
    static func write(_ recording: Recording, as target: Target, to path: String) throws -> [Double] {
        switch target {
        case .csv:
            try AxonCSVWriter.write(recording, to: path)
            return Array(repeating: 0, count: recording.channelCount)
        case .xdf:
            _ = try XDFConversion.write(recording, to: path)
            return Array(repeating: 0, count: recording.channelCount)
        case .edf, .bdf:
            let format: EDFWriter.Format = target == .edf ? .edfPlus : .bdfPlus
            var plans: [EDFChannelPlan] = []
            for stream in recording.streams { plans += try EDFChannelPlan.plan(stream, format: format) }
            // Nothing of a shipped recording is lost: no clipping, every step ≤ 1 % of the channel's RMS.
            for plan in plans {
                #expect(!plan.isLossy, "\(plan.label): clipped \(plan.clipped), step/RMS \(plan.stepFraction)")
            }
            let result = try EDFConversion.write(recording, to: path, format: format, plans: plans)
            #expect(result.clipped.allSatisfy { $0 == 0 })
            return Array(plans.map(\.step).prefix(recording.channelCount))
        }
    }

    /// The markers as (frame, text) — a marker without text is written as `marker <value>` by EDF and XDF.
    static func markers(_ recording: Recording) -> [String] {
        recording.markers.map { "\($0.frame): \($0.text ?? "marker \(EDFConversion.shortest($0.value))")" }.sorted()
    }

    @Test(arguments: recordings, Target.allCases)
    func roundTrip(path: String, target: Target) throws {
        var source = try RecordingReader.read(path: path)
        // Streams a target cannot hold beside the main one (Axon CSV has one rate; EDF no irregular stream, as Mind
        // Monitor's band powers are) are what `axon convert` refuses to drop without --allow-lossy: there the main
        // stream goes alone; every other target keeps every stream.
        if target == .csv || (target != .xdf && EDFConversion.companionProblem(source) != nil) {
            source = source.withCompanions([])
        }
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("once.\(target.rawValue)").path
        let steps = try Self.write(source, as: target, to: first)
        let back = try RecordingReader.read(path: first)

        #expect(back.channelLabels == source.channelLabels)
        #expect(back.companions.map(\.channelLabels) == source.companions.map(\.channelLabels))
        for (theirs, ours) in zip(back.companions, source.companions) where target == .xdf {
            #expect(theirs.values == ours.values && theirs.timestamps == ours.timestamps)
        }
        #expect(back.sampleRate == source.sampleRate)
        #expect(back.frameCount >= source.frameCount)
        #expect(back.frameCount - source.frameCount < Int(source.sampleRate * 10), "padding is under one record")
        var worst = 0.0
        for channel in 0..<source.channelCount {
            for frame in 0..<source.frameCount {
                let error = abs(
                    back.value(frame: frame, channel: channel) - source.value(frame: frame, channel: channel))
                let step = steps[channel]
                if step == 0 {
                    if error != 0 { worst = .infinity }
                } else {
                    worst = max(worst, error / step)
                }
            }
        }
        #expect(worst <= 1 + 1e-9, "worst error \(worst) steps")
        // Ranges from the data keep every sample off the digital limits (no "saturated" warning on reading) —
        // except a real rail: the older-format samples hold the Cyton's ±187,500 µV rails, which keep their
        // declared range and read back as saturated, as they are.
        let railed = source.descriptor.channels.enumerated().contains { channel, info in
            guard let range = info.range else { return false }
            return (0..<source.frameCount).contains { frame in
                let value = source.value(frame: frame, channel: channel)
                return value <= range.lowerBound || value >= range.upperBound
            }
        }
        if !railed { #expect(!back.warnings.contains { $0.contains("digital limits") }, "\(back.warnings)") }

        // The start: the same date, or unknown on both sides (never 1970, never the conversion's time).
        let start = EDFConversion.start(of: source)
        let backStart = EDFConversion.start(of: back)
        #expect(
            (start == nil) == (backStart == nil),
            "start \(String(describing: start)) → \(String(describing: backStart))")
        if let start, let backStart { #expect(abs(backStart - start) < 1e-6) }
        if target == .csv || target == .xdf, source.timestamps != nil, start != nil {
            #expect(back.timestamps == source.timestamps)
        }

        // Markers: each one once, at its frame, with its text.
        #expect(Self.markers(back) == Self.markers(source))

        // A second pass of the same conversion adds nothing: no second "Recording starts", no duplicates.
        let second = folder.appendingPathComponent("twice.\(target.rawValue)").path
        _ = try Self.write(back, as: target, to: second)
        let again = try RecordingReader.read(path: second)
        #expect(Self.markers(again) == Self.markers(back))
        #expect(!again.markers.contains { $0.text == "Recording starts" })
    }

    /// The issue's reproduction: a ±30 µV signal written to BDF at the writer's default range (±838,860 µV, 0.1 µV
    /// a step, as `axon record` writes the simulator), converted to EDF. With the BDF's declared range kept on
    /// 16 bits (what `convert` did) the EDF holds 3 distinct values; with the range chosen from the data it holds
    /// every one of the BDF's (over 500).
    @Test func bdfToEDFKeepsTheSignal() throws {
        let rate = 250.0
        let frames = 10 * 250
        var values: [Double] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Double {  // a fixed LCG: ±4 µV, the same every run
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 8 - 4
        }
        for frame in 0..<frames {
            let t = Double(frame) / rate
            values.append(18 * sin(2 * .pi * 10 * t) + 6 * sin(2 * .pi * 23 * t + 1) + noise())
            values.append(22 * sin(2 * .pi * 6 * t) + 3 * cos(2 * .pi * 41 * t) + noise())
        }
        let descriptor = StreamDescriptor(
            name: "simulated", contentType: .eeg,
            channels: [ChannelInfo(label: "O1", unit: "µV"), ChannelInfo(label: "O2", unit: "µV")], nominalRate: rate,
            format: .float32, sourceID: "test")
        let recording = Recording(
            descriptor: descriptor, values: values,
            timestamps: (0..<frames).map { 1_764_000_000.5 + Double($0) / rate })
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bdf = folder.appendingPathComponent("s.bdf").path
        let writer = try EDFWriter(
            path: bdf, descriptor: descriptor, startUnixTime: recording.startTime!, options: .init(format: .bdfPlus))
        try values.withUnsafeBufferPointer { rows in
            try writer.append(rows: rows, stride: 2, valueOffset: 0, frameCount: frames)
        }
        try writer.close()
        let fromBDF = try RecordingReader.read(path: bdf)
        #expect(fromBDF.descriptor.channels[0].range == -838_860...838_860)

        func distinct(_ recording: Recording, channel: Int) -> Int {
            Set((0..<recording.frameCount).map { recording.value(frame: $0, channel: channel) }).count
        }
        // Before: the declared range on 16 bits.
        let old = folder.appendingPathComponent("old.edf").path
        _ = try EDFConversion.write(fromBDF, to: old, format: .edfPlus, range: -838_860...838_860)
        let oldBack = try RecordingReader.read(path: old)
        #expect(distinct(oldBack, channel: 0) <= 5)
        let oldPlans = try EDFChannelPlan.plan(fromBDF, format: .edfPlus, range: -838_860...838_860)
        #expect(oldPlans.allSatisfy { $0.isCoarse })

        // After: ranges from the data.
        let edf = folder.appendingPathComponent("s.edf").path
        let result = try EDFConversion.write(fromBDF, to: edf, format: .edfPlus)
        #expect(result.plans.allSatisfy { $0.source == .data && !$0.isLossy })
        #expect(result.startIsKnown)
        let back = try RecordingReader.read(path: edf)
        for channel in 0..<2 {
            #expect(distinct(fromBDF, channel: channel) >= 500)
            #expect(distinct(back, channel: channel) == distinct(fromBDF, channel: channel))
        }
        #expect(back.startTime == recording.startTime)
        // The BDF's own "Recording starts" (the writer's, as `record` writes it) is kept once, not added again.
        #expect(fromBDF.markers.map(\.text) == ["Recording starts"])
        #expect(back.markers == fromBDF.markers)

        if EDFPeers.available {
            let script = """
                import sys, numpy as np, pyedflib
                f = pyedflib.EdfReader(sys.argv[1])
                print(min(len(np.unique(f.readSignal(i))) for i in range(f.signals_in_file)))
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: EDFPeers.python)
            process.arguments = ["-c", script, edf]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(count >= 500, "pyedflib: \(count) distinct values")
        }
    }

    /// A recording without dates (times counted from a device's power-on) is written with EDF+'s unknown start, not
    /// 1970 — and EDFlib reads the file.
    @Test func undatedRecordingHasAnUnknownStart() throws {
        let descriptor = StreamDescriptor(
            name: "t", contentType: .eeg, channels: [ChannelInfo(label: "A", unit: "µV")], nominalRate: 100,
            format: .float32, sourceID: "t")
        let values = (0..<300).map { sin(Double($0) / 5) * 40 }
        let recording = Recording(
            descriptor: descriptor, values: values, timestamps: (0..<300).map { 12.5 + Double($0) / 100 })
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in EDFWriter.Format.allCases {
            let path = folder.appendingPathComponent("u.\(format.fileExtension)").path
            let result = try EDFConversion.write(recording, to: path, format: format)
            #expect(!result.startIsKnown)
            let header = try String(decoding: RecordingFile.readPrefix(path: path, count: 256).0, as: UTF8.self)
            #expect(header.contains("Startdate X"))
            #expect(header.contains("01.01.8500.00.00"))
            let back = try RecordingReader.read(path: path)
            #expect(back.timestamps == nil)
            #expect(back.frameCount == 300)
        }
    }
}
