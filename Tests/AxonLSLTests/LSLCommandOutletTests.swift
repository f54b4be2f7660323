import AxonEEG
import AxonLSL
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

/// The status outlet and the non-EEG outlets of the command line: gap records and device status as text, and a
/// band's heart rate as its own stream, each received by a pylsl inlet.
@Suite("LSL status and sensor outlets to a pylsl inlet", .serialized, .enabled(if: LSLPeer.available))
struct LSLCommandOutletTests {
    struct Received: Decodable {
        var type: String
        var source_id: String
        var labels: [String]
        var samples: [[LSLOutletTests.JSONValue]]
    }

    /// Receives the named streams with the pylsl peer while `body` runs; returns what arrived.
    static func receive(_ names: [String], seconds: Double, while body: () throws -> Void) throws -> [String: Received] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("axon-lsl-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let peer = try LSLPeer.Process([
            "receive", "--names", names.joined(separator: ","), "--seconds", "\(seconds)", "--out", output.path,
        ])
        defer { peer.finish(timeout: 5) }
        try body()
        try #require(peer.waitForLine(containing: "done", timeout: seconds + 30) != nil)
        return try JSONDecoder().decode([String: Received].self, from: Data(contentsOf: output))
    }

    /// Runs `axon ARGUMENTS` with the loopback LSL configuration; returns its standard output.
    static func runAxon(_ arguments: [String]) throws -> String {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: axon)
        process.arguments = arguments + ["--lsl-config", LSLPeer.configuration]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func gapRecordsReachTheStatusOutlet() throws {
        let library = try LSLPeer.library()
        let name = "axon-status-\(UUID().uuidString.prefix(8))"
        var configuration = SimulatedSource.Configuration(duration: 4, realTime: true, samplesPerPacket: 5)
        configuration.lostSamples = Set(200..<225).union(600..<700)
        let simulator = SimulatedSource(configuration: configuration)
        var descriptor = simulator.descriptor
        descriptor.name = name
        descriptor.sourceID = "\(name)-eeg"
        let status = try StatusOutlet(stream: descriptor, library: library)
        let raw = try LSLOutlet(descriptor: descriptor, library: library)
        let collected = CollectingSink()
        var pipeline: StreamPipeline?
        let received = try Self.receive(["\(name) Status"], seconds: 8) {
            #expect(status.outlet.waitForConsumers(timeout: 10))
            let sink = LSLOutletSink(outlet: raw, status: status)
            let running = StreamPipeline(source: simulator, sinks: [sink, collected])
            try running.start()
            running.waitUntilFinished()
            pipeline = running
        }
        let gaps = collected.snapshot.gaps
        #expect(gaps.map(\.missingCount) == [25, 100])
        let lines = try #require(received["\(name) Status"]).samples.compactMap { $0.first?.text }
        let start = try #require(collected.snapshot.timestamps.first)
        #expect(lines == gaps.map { StatusOutlet.text(of: $0, streamStart: start) })
        // Each line names the gap's first missing sample in seconds from the stream's first (0.8 s and 2.4 s here, to
        // within the dejittered clock's estimate).
        let offsets = lines.compactMap { line in line.split(separator: " ").dropLast().last.flatMap { Double($0) } }
        #expect(zip(offsets, [0.8, 2.4]).allSatisfy { abs($0 - $1) < 0.05 } && offsets.count == 2, "\(lines)")
        #expect(pipeline?.statistics().gapRecords == 2)
    }

    @Test func recordPublishesItsStatus() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var printed = ""
        // The test sequence's stream is named after the simulated headset; its status stream after that.
        let received = try Self.receive(["Brainiac Status"], seconds: 14) {
            printed = try Self.runAxon([
                "record", "test-sequence:10", "--seconds", "6", "--baseline", "0", "--out",
                folder.appendingPathComponent("run.edf").path, "--lsl-out",
            ])
        }
        let stream = try #require(received["Brainiac Status"])
        #expect(stream.type == "Markers")
        #expect(stream.labels == ["status"])
        let lines = stream.samples.compactMap { $0.first?.text }
        let summary = try #require(printed.split(separator: "\n").first { $0.hasPrefix("done: ") })
        // The summary follows the recording; the headset's own disconnection may still come after it.
        #expect(lines.contains(String(summary)), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("status: ") || $0.hasPrefix("battery: ") })
    }

    /// `record --lsl-out --out X.xdf --bands …`: the band powers outlet (one sample per window, `CH_band_abs`,
    /// `CH_band_rel`) reaches a pylsl inlet, and the XDF file holds the same stream with the same samples (pyxdf).
    @Test func recordPublishesAndWritesBandPowers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-bands-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("run.xdf").path
        let received = try Self.receive(["Brainiac BandPowers"], seconds: 16) {
            _ = try Self.runAxon([
                "record", "test-sequence:10", "--seconds", "8", "--baseline", "4", "--out", file, "--lsl-out",
                "--bands", "theta=4-8,alpha=8-13",
            ])
        }
        let stream = try #require(received["Brainiac BandPowers"])
        #expect(stream.type == "EEGBandPowers")
        let labels = ["T3", "O1", "T4", "O2"].flatMap { channel in
            ["theta", "alpha"].flatMap { ["\(channel)_\($0)_abs", "\(channel)_\($0)_rel"] }
        }
        #expect(stream.labels == labels)
        let pulled = stream.samples.map { $0.map { $0.number ?? .nan } }
        // 8 s at 250 Hz: windows end at samples 255, 505, …, 1755 (at most 8); an inlet may join after the first.
        #expect(pulled.count >= 4 && pulled.count <= 8, "\(pulled.count) samples")
        for sample in pulled {
            for channel in 0..<4 {
                // The test sequence: a 50 µV, 10 Hz sine on every channel, 1250 µV² in alpha, nearly all the share.
                let alpha = sample[channel * 4 + 2]
                #expect(abs(alpha - 1250) < 125, "alpha \(alpha) µV²")
                let (theta, alphaShare) = (sample[channel * 4 + 1], sample[channel * 4 + 3])
                #expect(alphaShare > 95 && abs(theta + alphaShare - 100) < 1e-9, "\(sample)")
            }
        }
        let script = """
            import sys, json, pyxdf
            streams, _ = pyxdf.load_xdf(sys.argv[1])
            s = [s for s in streams if s["info"]["name"][0] == "Brainiac BandPowers"][0]
            labels = [c["label"][0] for c in s["info"]["desc"][0]["channels"][0]["channel"]]
            print(json.dumps({"type": s["info"]["type"][0], "labels": labels, "rows": s["time_series"].tolist()}))
            """
        let (status, output) = try AxonExecutable.run(LSLPeer.python, ["-c", script, file])
        #expect(status == 0, "\(output)")
        let line = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "\(output)")
        let xdf = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(xdf["type"] as? String == "EEGBandPowers")
        #expect(xdf["labels"] as? [String] == labels)
        let rows = try #require(xdf["rows"] as? [[Double]])
        #expect(rows.count >= pulled.count && rows.count <= 8, "\(rows.count) rows")
        // What the inlet got is the file's last samples, value for value (to the last digit the peers' JSON keeps).
        for (row, sample) in zip(rows.suffix(pulled.count), pulled) {
            #expect(zip(row, sample).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) }, "\(row) vs \(sample)")
        }
    }

    @Test func bandHeartRateIsItsOwnOutlet() throws {
        var printed = ""
        let received = try Self.receive(["Heart rate"], seconds: 14) {
            printed = try Self.runAxon(["band", "hr", "sim:band", "--count", "6", "--lsl-out"])
        }
        let stream = try #require(received["Heart rate"])
        #expect(stream.type == "HeartRate")
        #expect(stream.source_id == "band:sim:band/heart-rate")
        #expect(stream.labels == ["heart rate"])
        let shown = printed.split(separator: "\n").compactMap { line -> Double? in
            guard let bpm = line.split(separator: " ").first, line.contains(" bpm") else { return nil }
            return Double(bpm)
        }
        #expect(shown.count == 6)
        let values = stream.samples.compactMap { $0.first?.number }
        // The inlet may connect after the first reading, and the last one may leave with the outlet when the command
        // ends; what it got is a run of the readings, value for value.
        #expect(values.count >= 4)
        let start = try #require(shown.firstIndex(of: values[0]))
        #expect(Array(shown[start..<min(shown.count, start + values.count)]) == values)
    }
}

/// `axon analyze lsl:NAME`: a pylsl outlet plays the OpenBCI recording's eyes-closed stretch; the live
/// report equals the offline analysis of the samples it had (the recording's values as float32, as sent).
@Suite("axon analyze on an LSL stream", .serialized, .enabled(if: LSLPeer.available))
struct LSLAnalyzeTests {
    @Test func liveReportEqualsTheOfflineAnalysisOfTheSameSamples() throws {
        let name = "axon-analyze-\(UUID().uuidString.prefix(8))"
        let first = 8500
        let peer = try LSLPeer.Process([
            "play", "--name", name, "--source-id", name, "--file", LSLPeer.recording, "--first", "\(first)",
            "--seconds", "14", "--wait-consumer", "30",
        ])
        defer { peer.finish(timeout: 5) }
        let printed = try LSLCommandOutletTests.runAxon([
            "analyze", "lsl:\(name)", "--seconds", "12", "--baseline", "0", "--json",
        ])
        let json = try #require(printed.split(separator: "\n").last { $0.hasPrefix("{") })
        let live = try JSONDecoder().decode(EEGAnalysisReport.self, from: Data(json.utf8))
        #expect(live.channels.map(\.label) == (0..<8).map { "EXG\($0)" })
        #expect(live.samples >= 3000 && live.framesWithFilledSamples == 0)

        let frames = try LSLPeer.recordingFrames()
        var configuration = EEGEngine.Configuration(
            sampleRate: 250, channelLabels: live.channels.map(\.label), indicatorPeriod: 10)
        configuration.quality.railMagnitude = nil
        let offline = try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: live.samples, baselineSeconds: nil,
            value: { Double(frames[first + $0][$1]) }, time: { Double($0) / 250 })
        #expect(live.frames == offline.frames)
        // Equal to the last bits FFTW's plan allows: each process measures its own plan, and two plans may round
        // differently (a few parts in 10¹⁶).
        func same(_ a: Double?, _ b: Double?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return abs(a - b) <= 1e-9 * max(1, abs(b))
        }
        for (liveChannel, offlineChannel) in zip(live.channels, offline.channels) {
            for (liveBand, offlineBand) in zip(liveChannel.bands, offlineChannel.bands) {
                let band = "\(liveChannel.label) \(liveBand.low)–\(liveBand.high)"
                #expect(same(liveBand.median, offlineBand.median), "\(band)")
                #expect(same(liveBand.medianPower, offlineBand.medianPower), "\(band)")
                #expect(liveBand.noPeakFrames == offlineBand.noPeakFrames, "\(band)")
            }
        }
        // The eyes-closed alpha: EXG6 and EXG7 peak near 11.5 Hz.
        #expect(abs((live.channels[6].bands[1].median ?? 0) - 11.4) < 0.5)
    }
}

/// `axon demo lsl:NAME` and `axon view lsl:NAME` on one pylsl outlet at the same time: both run the stream
/// through the engine (the demo prints its rows and zones, the view serves the page and counts what it showed).
@Suite("axon demo and axon view on an LSL stream", .serialized, .enabled(if: LSLPeer.available))
struct LSLDemoAndViewTests {
    @Test func demoAndViewTakeAnLSLStream() throws {
        let name = "axon-live-\(UUID().uuidString.prefix(8))"
        let peer = try LSLPeer.Process([
            "play", "--name", name, "--source-id", name, "--file", LSLPeer.recording, "--first", "8500",
            "--seconds", "12", "--wait-consumer", "30",
        ])
        defer { peer.finish(timeout: 5) }
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let view = Process()
        view.executableURL = URL(fileURLWithPath: axon)
        view.arguments = ["view", "lsl:\(name)", "--port", "0", "--lsl-config", LSLPeer.configuration]
        let viewOutput = Pipe()
        view.standardOutput = viewOutput
        try view.run()
        let demo = try LSLCommandOutletTests.runAxon([
            "demo", "lsl:\(name)", "--seconds", "6", "--baseline", "2", "--indicator", "2",
        ])
        // The view stays until the outlet has played its 12 s (the demo took 6), so its count does not hang on how
        // soon it connected beside the demo: stopped with the demo, a loaded machine once left it 1,488 samples.
        peer.finish(timeout: 30)
        view.interrupt()
        let viewed = String(decoding: viewOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        view.waitUntilExit()

        #expect(demo.contains("axon demo: LSL stream \(name)"))
        let rows = demo.split(separator: "\n").filter { $0.hasSuffix("done") || $0.contains(" done ") }
        #expect(rows.count >= 5, "\(demo)")
        #expect(demo.contains("zone "))
        #expect(viewed.contains("axon view: LSL stream \(name) — open http://127.0.0.1:"), "\(viewed)")
        let done = try #require(viewed.split(separator: "\n").first { $0.hasPrefix("done: ") }, "\(viewed)")
        let samples = try #require(Int(done.dropFirst("done: ".count).prefix { $0.isNumber }))
        #expect(samples >= 1500, "\(done)")
    }
}
