import Foundation
import StreamTestSupport
import Testing

/// `axon obd read --json` against elm327-emulator: each reading's arrival on the wall clock (ISO 8601) and on the
/// host's monotonic clock, separately.
extension EmulatorSuites {
    @Suite("axon obd read --json")
    struct ReadCommandTests {
        @Test("readings carry the wall-clock time in ISO 8601 and the monotonic seconds apart")
        func readingTimes() async throws {
            let axon = try #require(AxonExecutable.path, "the axon executable is not built")
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            guard case .tcp(_, let port) = peer.endpoint else { return }
            let before = Date()
            let run = try await AxonExecutable.runOffPool(
                axon, ["obd", "read", "speed", "rpm", "--tcp", "127.0.0.1:\(port)", "--json"])
            let after = Date()
            #expect(run.status == 0, "\(run.output)")
            let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("{") }, "\(run.output)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let readings = try #require(object["readings"] as? [[String: Any]])
            #expect(readings.count == 2)
            let parser = ISO8601DateFormatter()
            parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            for reading in readings {
                let text = try #require(reading["time"] as? String, "\(reading)")
                let time = try #require(parser.date(from: text), "not ISO 8601 with milliseconds: \(text)")
                #expect(text.hasSuffix("Z"))
                #expect(time >= before.addingTimeInterval(-0.01) && time <= after.addingTimeInterval(0.01), "\(text)")
                let monotonic = try #require(reading["monotonic"] as? Double)
                #expect(monotonic > 0 && abs(monotonic - time.timeIntervalSince1970) > 1, "two clocks, not one")
            }
        }
    }
}
