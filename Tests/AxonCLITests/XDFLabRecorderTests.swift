import AxonEEG
import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

/// XDF files as LabRecorder writes them when the sender's clock is reset mid-recording and the EEG pauses for 60 s
/// (issue 37), generated at test time by scripts/xdf-labrecorder-fixture.py and checked against pyxdf's `load_xdf`
/// with its default options (clock synchronisation with reset handling, dejittering).
@Suite("XDF as LabRecorder writes it")
struct XDFLabRecorderTests {
    static let python = ConvertCommandTests.python
    static let script = ConvertCommandTests.root.appendingPathComponent("scripts/xdf-labrecorder-fixture.py").path
    static var peersAvailable: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// What pyxdf makes of one stream.
    struct Peer: Decodable {
        var count: Int
        var effective_srate: Double
        var segments: [[Int]]
        var first: Double?
        var last: Double?
        var stamps: [Double]?
        var strings: [String]?
        var largest_step: Double?
        var largest_step_after: Int?
    }

    /// The fixture: the recorder's clock T, 810–900 s and 960–1020 s of EEG at 100 Hz, the reset at T = 870 s.
    static let eegStart = 810.0
    static let markerTimes: [String: Double] = [
        "start": 815, "before reset": 860, "just before reset": 869.5, "just after reset": 870.5,
        "after reset": 880, "after pause": 990,
    ]

    /// A fresh folder holding the fixture file, removed by the caller.
    static func fixture() throws -> (folder: URL, path: String) {
        let folder = try ConvertCommandTests.folder()
        let path = folder.appendingPathComponent("labrecorder.xdf").path
        let (status, output) = try AxonExecutable.run(python, [script, "write", path])
        #expect(status == 0, "\(output)")
        return (folder, path)
    }

    static func pyxdf(_ path: String) throws -> [String: Peer] {
        let (status, output) = try AxonExecutable.run(python, [script, "pyxdf", path])
        #expect(status == 0, "\(output)")
        // pyxdf logs its notes on standard error, which run() mixes in: the JSON is the last line.
        let json = output.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode([String: Peer].self, from: Data(json.utf8))
    }

    @Test(.enabled(if: peersAvailable))
    func markersResetsAndEffectiveRatesMatchPyxdf() throws {
        let (folder, path) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let peer = try Self.pyxdf(path)
        let file = try XDFReader.read(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let recording = try file.recording(sourceName: "labrecorder.xdf")

        // Every marker inside the data on the frame of its time: Axon's time (from the first frame) against pyxdf's.
        let eegPeer = try #require(peer["EEG"])
        let markerPeer = try #require(peer["Markers"])
        let stamps = try #require(recording.timestamps)
        var worst = 0.0
        for (text, stamp) in zip(try #require(markerPeer.strings), try #require(markerPeer.stamps))
        where text != "after the data" {
            let marker = try #require(recording.markers.first { $0.text == text }, "\(text) not placed")
            let axon = stamps[marker.frame] - stamps[0]
            let reference = stamp - (try #require(eegPeer.first))
            worst = max(worst, abs(axon - reference))
            #expect(abs(axon - (Self.markerTimes[text]! - Self.eegStart)) <= 0.01 + 1e-3, "\(text)")
        }
        print("XDFLabRecorder: largest marker time difference Axon − pyxdf \(worst * 1000) ms")
        #expect(worst <= 0.01, "within one sample period at 100 Hz")
        #expect(recording.markers.count == 6)
        // The marker after the data is reported, not put on the last frame.
        #expect(recording.warnings.contains { $0.contains("\"after the data\"") && $0.contains("outside the data") })
        #expect(recording.descriptor.metadata["xdf.markers.outside"] == "1")

        // One clock reset in each stream with samples, at T = 870 s on the recorder's clock.
        for stream in file.streams where stream.sampleCount > 0 {
            let timeline = stream.timeline()
            #expect(timeline.resets.count == 1, "\(stream.name)")
            if let reset = timeline.resets.first {
                #expect(reset.isBridged, "\(stream.name)")
                #expect(reset.stampBefore > 650_000 && reset.stampAfter < 300, "\(stream.name)")
                // The first sample after the reset: the EEG's and Aux's at 870 s, the markers' at 870.5 s.
                #expect(reset.time >= 870 - 0.001 && reset.time < 870.501, "\(stream.name): \(reset.time)")
            }
        }
        // Effective rates per stream against pyxdf's effective_srate: within 0.1 %.
        for name in ["EEG", "Aux"] {
            let stream = try #require(file.streams.first { $0.name == name })
            let axon = try #require(stream.timeline().effectiveRate)
            let reference = try #require(peer[name]).effective_srate
            print(
                "XDFLabRecorder: \(name) effective rate Axon \(axon) Hz, pyxdf \(reference) Hz, "
                    + "nominal \(stream.nominalRate)")
            #expect(abs(axon - reference) / reference < 0.001, "\(name)")
        }
        let aux = try #require(file.streams.first { $0.name == "Aux" }?.timeline().effectiveRate)
        #expect(abs(aux / 50 - 0.93) < 0.001, "the Aux stream runs 7 % slow")
        // The start from the file header's datetime (the stamps count from the sender's boot).
        #expect(recording.startTime == ISO8601DateFormatter().date(from: "2026-11-20T10:00:00Z")!.timeIntervalSince1970)
    }

    @Test(.enabled(if: peersAvailable))
    func theSixtySecondPauseIsOneGapRecordInReaderAndReplay() throws {
        let (folder, path) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = try RecordingReader.read(path: path)
        #expect(recording.frameCount == 15_000)
        // 899.99 s → 960.00 s: the samples of 900.00…959.99 s are missing.
        let gap = try #require(recording.gaps.first)
        #expect(recording.gaps.count == 1)
        #expect(gap.beforeFrame == 9_000)
        #expect(abs(gap.gap.missingCount - 6_000) <= 1, "\(gap.gap.missingCount)")
        #expect(gap.gap.cause == .deviceCounter)
        let stamps = try #require(recording.timestamps)
        #expect(abs(gap.gap.start - stamps[8_999] - 0.01) < 0.002)
        #expect(abs(gap.gap.end - gap.gap.start - 59.99) < 0.011)

        // Replayed, the pipeline's timeline reports the same gap record, as a live source's would.
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        let sink = CollectingSink()
        let pipeline = StreamPipeline(source: replay, sinks: [sink], configuration: replay.pipelineConfiguration())
        try pipeline.start()
        pipeline.waitUntilFinished()
        let received = sink.snapshot
        #expect(received.values.count == 15_000)
        #expect(received.gaps.map(\.missingCount) == [gap.gap.missingCount])
        #expect(received.gaps.map(\.cause) == [GapRecord.Cause.deviceCounter])
        #expect(received.gapPositions == [9_000])
    }

    @Test(.enabled(if: peersAvailable))
    func infoReportsResetsRatesAndTheGap() throws {
        let (folder, path) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output) = try ConvertCommandTests.axon(["info", path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("gaps        1, 6000 samples missing"), "\(output)")
        #expect(output.contains("EEG (EEG): 4 channels, 100.0 Hz nominal, 100.00"), "\(output)")
        #expect(output.contains("Aux (Accelerometer): 1 channels, 50.0 Hz nominal, 46.50"), "\(output)")
        #expect(output.contains("Silent (Misc): 1 channels, 10.0 Hz nominal, float32, 0 samples"), "\(output)")
        for id in 1...3 { #expect(output.contains("xdf.stream.\(id).reset.1: clock reset before sample"), "\(id)") }
        #expect(output.contains("frame 9000 (150.000 s)") || output.contains("before frame 9000 (150."), "\(output)")
    }

    @Test(.enabled(if: peersAvailable), arguments: ["edf", "bdf"])
    func convertToEDFCarriesTheGapAndEveryMarker(format: String) throws {
        let (folder, path) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("converted.\(format)").path
        // The accelerometer stream cannot be a signal beside the EEG's gap: refused, then written when allowed.
        let (refused, message) = try ConvertCommandTests.axon(["convert", path, out])
        #expect(refused == 1 && message.contains("loss: the stream"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let (status, output) = try ConvertCommandTests.axon(["convert", path, out, "--allow-lossy"])
        #expect(status == 0, "\(output)")
        let converted = try RecordingReader.read(path: out)
        // 90 s + 60 s of fill + 60 s: the fill keeps every later sample at its time.
        #expect(converted.frameCount == 21_000, "\(converted.frameCount)")
        let onsets = Dictionary(
            converted.markers.map { ($0.text ?? "", Double($0.frame) / converted.sampleRate) },
            uniquingKeysWith: { first, _ in first })
        let gapOnset = try #require(onsets["gap: 6000 samples (deviceCounter)"], "\(onsets)")
        #expect(abs(gapOnset - 90) < 0.011)
        for (text, time) in Self.markerTimes {
            let onset = try #require(onsets[text], "\(text) missing in \(onsets)")
            #expect(abs(onset - (time - Self.eegStart)) <= 0.011, "\(text): \(onset)")
        }
        #expect(onsets["after the data"] == nil)
    }

    @Test(.enabled(if: peersAvailable))
    func analyzeLeavesTheGapOut() throws {
        let (folder, path) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output) = try ConvertCommandTests.axon(["analyze", path, "--json", "--baseline", "20", "--hop", "250"])
        #expect(status == 0, "\(output)")
        let json = try #require(output.split(separator: "\n").first { $0.hasPrefix("{") })
        let report = try JSONDecoder().decode(EEGAnalysisReport.self, from: Data(json.utf8))
        // Windows of 256 samples every 250 within each part, none across the pause: 35 + 23.
        #expect(report.frames == 35 + 23, "\(report.frames)")
        // Indicators every 10 s after a 20-s baseline; none for a period that ended in the pause.
        let times = report.zones.map(\.time)  // seconds from the first sample
        #expect(!times.isEmpty)
        #expect(times.allSatisfy { $0 <= 90.01 || $0 >= 160 - 0.01 }, "\(times)")
        #expect(times.contains { $0 > 150 }, "\(times)")
        #expect(report.alphaPeakIsTen, "\(report.channels.map(\.bands))")

        // A 120-s baseline spans the pause: it holds the spectra of the 90 s before it (none from the pause, as for
        // a live gap) and ends with the first sample after it; the first indicator is 10 s of data later.
        let spanning = try ConvertCommandTests.axon(["analyze", path, "--json", "--baseline", "120", "--hop", "250"])
        #expect(spanning.status == 0, "\(spanning.output)")
        let spanningJSON = try #require(spanning.output.split(separator: "\n").first { $0.hasPrefix("{") })
        let spanningReport = try JSONDecoder().decode(EEGAnalysisReport.self, from: Data(spanningJSON.utf8))
        #expect(spanningReport.frames == 35 + 23)
        #expect(
            spanningReport.zones.first.map { abs($0.time - 160) < 0.1 } == true, "\(spanningReport.zones.map(\.time))")
    }

    @Test(.enabled(if: peersAvailable))
    func convertToXDFKeepsThePauseAndTheMarkers() throws {
        let (folder, path) = try Self.fixture()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("converted.xdf").path
        let (status, output) = try ConvertCommandTests.axon(["convert", path, out])
        #expect(status == 0, "\(output)")
        let original = try RecordingReader.read(path: path)
        let converted = try RecordingReader.read(path: out)
        #expect(converted.frameCount == original.frameCount)
        #expect(converted.gaps.map(\.beforeFrame) == original.gaps.map(\.beforeFrame))
        #expect(converted.gaps.map(\.gap.missingCount) == original.gaps.map(\.gap.missingCount))
        #expect(converted.markers.map(\.frame) == original.markers.map(\.frame))
        #expect(converted.startTime == original.startTime)
    }

    /// Timestamps a damaged file may hold — NaN, infinite, 1e300, going backwards — make no gap record and no trap,
    /// and a real pause after one is still found.
    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -5])
    func damagedTimestampsMakeNoGapAndNoTrap(bad: Double) throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.xdf").path
        let writer = try XDFWriter(path: path, unixTimeOffset: nil)
        let stream = try writer.addStream(
            StreamDescriptor(
                name: "EEG", contentType: .eeg, channels: [.init(label: "C3", unit: "uV")], nominalRate: 100,
                format: .float32, sourceID: "bad"))
        // 0–1.49 s, then a real 2-s pause, then 3.50–3.99 s; one bad stamp at sample 100.
        var stamps = (0..<200).map { Double($0) / 100 + ($0 >= 150 ? 2 : 0) }
        stamps[100] = bad
        let values = (0..<200).map(Double.init)
        var scratch: [UInt8] = []
        try stamps.withUnsafeBufferPointer { stamps in
            try values.withUnsafeBufferPointer { values in
                try writer.appendSamples(stream: stream, timestamps: stamps, values: values, scratch: &scratch)
            }
        }
        try writer.close()
        let recording = try RecordingReader.read(path: path)
        #expect(recording.frameCount == 200)
        // The real pause is the one gap: 1.49 → 3.50 s, 200 samples missing.
        #expect(recording.gaps.map(\.beforeFrame) == [150], "\(recording.gaps)")
        #expect(recording.gaps.map(\.gap.missingCount) == [200], "\(recording.gaps)")
    }

    /// Timestamps that jump back 10 s with no clock offset jumping with them: one reset, reported as not bridged (the
    /// times after it are as stored), a warning, no gap.
    @Test func aResetNoClockOffsetBridgesIsReported() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("reset.xdf").path
        let writer = try XDFWriter(path: path, unixTimeOffset: nil)
        let stream = try writer.addStream(
            StreamDescriptor(
                name: "EEG", contentType: .eeg, channels: [.init(label: "C3", unit: "uV")], nominalRate: 100,
                format: .float32, sourceID: "reset"))
        let stamps = (0..<1_500).map { Double($0 % 1_000) / 100 }  // 0–9.99 s, then 0–4.99 s again
        let values = (0..<1_500).map(Double.init)
        var scratch: [UInt8] = []
        try stamps.withUnsafeBufferPointer { stamps in
            try values.withUnsafeBufferPointer { values in
                try writer.appendSamples(stream: stream, timestamps: stamps, values: values, scratch: &scratch)
            }
        }
        try writer.close()
        let file = try XDFReader.read(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let resets = try #require(file.streams.first).timeline().resets
        #expect(resets.map(\.sample) == [1_000])
        #expect(resets.map(\.isBridged) == [false])
        let recording = try file.recording(sourceName: "reset.xdf")
        #expect(recording.gaps.isEmpty)
        #expect(recording.warnings.contains { $0.contains("reset before frame 1000") && $0.contains("as stored") })
        #expect(recording.descriptor.metadata["xdf.stream.\(stream).reset.1"]?.contains("not mapped") == true)
    }
}

extension EEGAnalysisReport {
    /// The 7–13 Hz dominant frequency of every channel is the fixture's 10 Hz.
    fileprivate var alphaPeakIsTen: Bool {
        channels.allSatisfy { channel in
            channel.bands.contains { $0.low == 7 && ($0.median.map { abs($0 - 10) < 0.5 } ?? false) }
        }
    }
}
