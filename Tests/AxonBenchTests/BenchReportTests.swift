import AxonBench
import Foundation
import Testing

@Suite("axon bench report")
struct BenchReportTests {
    static let requiredKeys = [
        "fftNanoseconds", "hopNanoseconds", "deviceSecondsPerSecond", "ringItemsPerSecond", "latencyP99Microseconds",
        "allocationsPerHop", "consumerCPUPercent", "ringEngineOverEngine",
    ]

    @Test("a short run's JSON has the required keys with sane numbers")
    func shortRunReport() throws {
        let options = BenchOptions(
            workload: try BenchWorkload(channels: 4, sampleRate: 250), seconds: 0.6, replaySeconds: 20,
            minimumLatencyHops: 20)
        let report = try Bench.run(options)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(try report.json().utf8)) as? [String: Any])
        for key in Self.requiredKeys where key != "allocationsPerHop" || AllocationCounter.isEnabled {
            let value = try #require(object[key] as? Double, "\(key) missing or not a number")
            #expect(value.isFinite && value >= 0, "\(key) = \(value)")
        }
        #expect(report.fftSize == 256 && report.windowSize == 256 && report.hop == 250)
        #expect(report.fftNanoseconds > 0 && report.hopNanoseconds > report.fftNanoseconds)
        #expect(report.deviceSecondsPerSecond > 0 && report.engineDeviceSecondsPerSecond > 0)
        #expect(report.devicesPerCore == report.deviceSecondsPerSecond)
        #expect(abs(report.ringEngineOverEngine - report.deviceSecondsPerSecond / report.engineDeviceSecondsPerSecond) < 1e-9)
        #expect(report.ringItemsPerSecond > 0 && report.ringSingleItemsPerSecond > 0)
        #expect(report.latencyP50Microseconds <= report.latencyP99Microseconds)
        #expect(report.latencyP99Microseconds <= report.latencyMaxMicroseconds)
        #expect(report.latencyHops >= 20)
        // The kernel's accounting of the consumer thread (10 ms ticks) while one device streams in real time.
        #expect(report.consumerCPUPercent >= 0 && report.consumerCPUPercent < 100)
        #expect(report.latencyUnmatchedSpectra == 0)
        // The signal's tones are 5.1, 10.3 and 19.7 Hz: the last channel's dominant frequencies at the tenth hop.
        #expect(report.tenthHopDominantFrequencies.count == 3)
        for (found, tone) in zip(report.tenthHopDominantFrequencies, [5.1, 10.3, 19.7]) {
            #expect(abs((found ?? .nan) - tone) < 0.1, "\(String(describing: found)) Hz for the \(tone) Hz tone")
        }
        // Counted when the counter is on (their being 0 is gated by the benchmark suite, in a process of its own:
        // here other tests allocate on other threads at the same time).
        #expect((report.allocationsPerHop != nil) == AllocationCounter.isEnabled)
        #expect((report.allocationsPerRingBatch != nil) == AllocationCounter.isEnabled)
        #expect(report.table().contains("capacity"))
    }

    @Test("a scaled workload sets the window to the power of two of one second", arguments: [(250, 256), (500, 512)])
    func windowFollowsRate(rate: Int, window: Int) throws {
        let workload = try BenchWorkload(channels: 8, sampleRate: rate)
        #expect(workload.windowSize == window && workload.hop == rate)
        #expect(workload.frameWidth == 13)
    }

    @Test("rejects workloads it cannot measure")
    func rejectsBadWorkloads() {
        #expect(throws: BenchError.self) { try BenchWorkload(channels: 0) }
        #expect(throws: BenchError.self) { try BenchWorkload(sampleRate: 5) }
    }
}
