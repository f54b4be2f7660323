import AxonSensors
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// ``DescribedSensorSource`` on real transports: the Arduino simulator's pty and UDP datagrams on loopback.
@Suite(.serialized)
struct DescribedSensorSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let simulator = root.appendingPathComponent("scripts/arduino-sim.py").path
    static let recording = root.appendingPathComponent("datasets/muse-p300/data_2017-02-04-15_45_13-first14s.csv").path

    /// The simulator's readings for sample n (the recording's TP9, AF7, AF8 as 10-bit counts, looping).
    static func readings() throws -> [[Double]] {
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        var lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = lines.removeFirst().map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let columns = ["TP9", "AF7", "AF8"].map { header.firstIndex(of: $0)! }
        return lines.map { row in
            columns.map { column in
                // Python's round() rounds halves to even, as the simulator does.
                let scaled = (Double(row[column].trimmingCharacters(in: .whitespaces))! / 0.5 + 512)
                return min(1023, max(0, scaled.rounded(.toNearestOrEven)))
            }
        }
    }

    @Test("the Arduino pty: every line a sample equal to the recording, the 16-bit counter's wrap seamless, lines the pty drops become gap records")
    func arduinoPty() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("axon-arduino-\(UUID().uuidString)").path
        let simulator = Process()
        simulator.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // 3,000 samples at 500 Hz from counter 65,000 (so it wraps after 536), lines 1,000–1,019 and 2,500 never sent.
        simulator.arguments = [
            Self.simulator, "--link", link, "--seconds", "6", "--start", "65000", "--drop", "1000-1019,2500",
        ]
        let output = Pipe()
        simulator.standardOutput = output
        try simulator.run()
        defer { if simulator.isRunning { simulator.terminate() } }
        _ = output.fileHandleForReading.availableData  // the pty's path: it is there

        var sensor = try SensorDescription(contentsOf: Self.root.appendingPathComponent("examples/sensors/arduino-csv.json").path)
        sensor.transport = .serial(path: link, baud: 115_200, framing: .lines)
        let source = try DescribedSensorSource(sensor)
        let sink = CollectingSink()
        let pipeline = StreamPipeline(
            source: source, sinks: [sink], configuration: .init(timeline: source.timelineConfiguration))
        try pipeline.start()
        defer { pipeline.stop() }
        simulator.waitUntilExit()
        waitUntil(seconds: 5) { sink.snapshot.counters.last == UInt64((65_000 + 2_999) % 65_536) }  // the last line
        pipeline.stop()

        let got = sink.snapshot
        let readings = try Self.readings()
        // The pty may have taken lines before the source opened it: the first frame's counter says which sample it is.
        let first = try #require(got.counters.first)
        let firstSample = Int((first + 65_536 - 65_000) % 65_536)
        #expect(firstSample < 1_000, "the source missed the start: first counter \(first)")
        let dropped = Set(1_000...1_019).union([2_500])
        let expectedSamples = (firstSample..<3_000).filter { !dropped.contains($0) }
        #expect(got.values.count == expectedSamples.count)
        var worst = 0.0
        for (frame, sample) in zip(got.values, expectedSamples) {
            for channel in 0..<3 { worst = max(worst, abs(frame[channel] - (readings[sample % readings.count][channel] * 0.5 - 256))) }
        }
        #expect(worst == 0, "every value is the reading × 0.5 − 256 µV (worst difference \(worst))")
        #expect(got.counters.contains(65_535) && got.counters.contains(0), "the counter wrapped")
        #expect(got.gaps.map(\.missingCount) == [20, 1], "\(got.gaps)")
        #expect(got.gaps.allSatisfy { $0.cause == .deviceCounter })
        let statistics = source.statistics
        #expect(statistics.samples == got.values.count && statistics.rejected == 0)
    }

    @Test("UDP datagrams of a binary layout: a packet counter of 4 samples per packet, a lost datagram a gap of 4, a short datagram counted")
    func udpBinary() throws {
        let sensor = try SensorDescription(json: Data("""
            {"name": "board", "type": "EEG", "rate": 250, "transport": {"udp": {"port": 0}},
             "layout": {"binary": {"fields": [{"name": "seq", "offset": 0, "type": "uint8"}],
                "samples": {"offset": 1, "stride": 4, "count": 4, "fields": [
                    {"name": "a", "offset": 0, "type": "int16be"}, {"name": "b", "offset": 2, "type": "int16be"}]}}},
             "counter": {"field": "seq"},
             "channels": [{"label": "A", "field": "a", "unit": "µV", "scale": 0.1},
                          {"label": "B", "field": "b", "unit": "µV", "scale": 0.1}]}
            """.utf8))
        let source = try DescribedSensorSource(sensor)
        let port = try #require(source.port)
        #expect(port > 0 && source.timelineConfiguration.counterModulus == 1_024)
        let sink = CollectingSink()
        let pipeline = StreamPipeline(
            source: source, sinks: [sink], configuration: .init(timeline: source.timelineConfiguration))
        try pipeline.start()
        defer { pipeline.stop() }

        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(INADDR_LOOPBACK).bigEndian
        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { raw in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(socket, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
        }
        // Packets 254, 255, 0, (1 lost), 2: sample k of packet p is (p × 4 + k, −(p × 4 + k)) tenths of µV.
        for packet in [254, 255, 0, 2] {
            var bytes = [UInt8(packet)]
            for k in 0..<4 {
                let value = Int16(packet * 4 + k)
                bytes += withUnsafeBytes(of: value.bigEndian, Array.init) + withUnsafeBytes(of: (-value).bigEndian, Array.init)
            }
            send(bytes)
            if packet == 255 { send([9, 9, 9]) }
        }
        waitUntil(seconds: 5) { sink.snapshot.values.count >= 16 }
        pipeline.stop()
        let got = sink.snapshot
        let expected: [Double] = [254, 255, 0, 2].flatMap { (packet: Int) -> [Double] in
            (0..<4).map { (k: Int) -> Double in Double(packet * 4 + k) * 0.1 }
        }
        #expect(got.values.map { $0[0] } == expected)
        #expect(got.values.map { $0[1] } == expected.map { -$0 })
        #expect(got.gaps.map(\.missingCount) == [4], "\(got.gaps)")
        #expect(source.statistics.rejected == 1 && source.statistics.packets == 4)
        #expect(source.statistics.lastRejection?.contains("3-byte packet") == true)
    }
}
