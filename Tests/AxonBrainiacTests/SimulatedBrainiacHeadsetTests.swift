import AxonBrainiac
import AxonStreams
import Foundation
import Synchronization
import Testing

@Suite("SimulatedBrainiacHeadset", .serialized)
struct SimulatedBrainiacHeadsetTests {
    /// Runs a headset through a pipeline to the end and returns what the sink saw.
    private func run(
        _ headset: SimulatedBrainiacHeadset, ringCapacity: Int = 8192
    ) throws -> (sink: CollectingSink, stats: PipelineStatistics) {
        let sink = CollectingSink()
        let pipeline = StreamPipeline(
            source: headset, sinks: [sink],
            configuration: .init(ringCapacity: ringCapacity, overflow: .rejectNewest,
                                 timeline: BrainiacHeadset.timelineConfiguration))
        try pipeline.start()
        pipeline.waitUntilFinished()
        return (sink, pipeline.statistics())
    }

    /// 20 s of the 10 Hz test sequence with ten damaged notifications, as fast as possible: exactly the frames of
    /// the undamaged notifications arrive, with consecutive counters, 4 ms device-time steps and the sine's
    /// values; each damaged notification is one typed rejection and one 10-sample counter gap.
    @Test func twentySecondsWithDamagedNotifications() throws {
        let faults: [Int: BrainiacFault] = [
            3: .truncated(length: 10), 50: .extended(extraBytes: 4), 100: .wrongVersion(9), 150: .wrongType(0x42),
            200: .flippedBit, 250: .garbage(length: 60), 300: .battery(level: 101), 350: .status(code: 200),
            400: .wrongSampleCount(0), 498: .truncated(length: 100),
        ]
        let events = Mutex<[BrainiacHeadsetEvent]>([])
        let headset = SimulatedBrainiacHeadset(
            configuration: .init(dominantFrequency: 10, amplitude: 50, duration: 20, realTime: false,
                                 deviceStartTime: deviceEpoch, faults: faults),
            eventHandler: { event in events.withLock { $0.append(event) } })
        let (sink, stats) = try run(headset)

        let damaged = Set(faults.keys)
        let expectedCounters = (0..<5000).filter { !damaged.contains($0 / 10) }.map { UInt64($0) }
        #expect(expectedCounters.count == 4900)
        #expect(stats.received == 4900)
        #expect(stats.delivered == 4900)
        #expect(stats.dropped == 0)
        #expect(sink.frames.count == 4900)
        #expect(sink.frames.map(\.counter) == expectedCounters.map { Optional($0) })

        // One device-counter gap of 10 per damaged notification, placed where its samples would have been.
        #expect(stats.gapRecords == 10 && stats.missingFrames == 100)
        #expect(sink.gaps.count == 10)
        #expect(sink.gaps.allSatisfy { $0.cause == .deviceCounter && $0.missingCount == 10 })
        #expect(sink.gapPositions == faults.keys.sorted().enumerated().map { $0.element * 10 - $0.offset * 10 })

        // Device times: the packet's ms timestamp + 4 ms per sample, so 4 ms between consecutive counters.
        var timesExact = true
        var spacingExact = true
        var worstError = 0.0
        for (index, frame) in sink.frames.enumerated() {
            let n = Int(frame.counter!)
            if frame.deviceTime != Double(deviceEpoch + 4 * UInt64(n)) / 1000 { timesExact = false }
            if index > 0, frame.counter! == sink.frames[index - 1].counter! + 1,
                abs(frame.deviceTime! - sink.frames[index - 1].deviceTime! - 0.004) > 1e-6
            {
                spacingExact = false
            }
            let truth = 50 * sin(2 * .pi * 10 * Double(n) / 250)
            for value in frame.values { worstError = max(worstError, abs(value - truth)) }
        }
        #expect(timesExact)
        #expect(spacingExact)
        #expect(worstError <= 0.025 + 1e-9)  // half of one 0.05 µV count
        #expect(sink.frames.contains { abs($0.values[0]) > 49.8 })  // the sine reaches its amplitude (49.90 at n = 6)

        let state = headset.state()
        #expect(state.statistics.eegNotifications == 490)
        #expect(state.statistics.samples == 4900)
        #expect(state.statistics.rejectedNotifications == 10)
        #expect(state.statistics.tooShort == 1)
        #expect(state.statistics.lengthMismatch == 2)
        #expect(state.statistics.unknownType == 1)
        #expect(state.statistics.checksumMismatch == 1)
        #expect(state.statistics.batteryOutOfRange == 1)
        #expect(state.statistics.unknownStatusCode == 1)
        #expect(state.statistics.invalidSampleCount == 1)
        #expect(state.statistics.unsupportedVersion == 2)  // the wrong version, and the garbage's first byte
        #expect(state.statistics.skippedOrderNumbers == 10)
        #expect(state.statistics.batteryNotifications == 3)  // at 0, 10 and 20 s
        #expect(state.statistics.statusNotifications == 3)
        #expect(state.batteryLevel == 98)
        #expect(state.status == .peripheralDisconnected)
        #expect(state.notificationsSent == 500 + 3 + 3)
        #expect(!state.isRunning)

        let log = events.withLock { $0 }
        #expect(Array(log.prefix(3)) == [.status(.ready), .status(.dataTransferStarted), .battery(level: 100)])
        #expect(log.last == .status(.peripheralDisconnected))
        #expect(log.compactMap { if case .battery(let level) = $0 { level } else { nil } } == [100, 99, 98])
        let rejections = log.compactMap { if case .rejected(let error) = $0 { error } else { nil } }
        #expect(rejections.count == 10)
        #expect(rejections.first == .tooShort(length: 10, minimum: 18))
        #expect(rejections.contains(.batteryOutOfRange(101)))
        #expect(rejections.contains(.unknownStatusCode(200)))
        #expect(rejections.last == .lengthMismatch(expected: 138, actual: 100))
    }

    /// Noise is Gaussian with the configured deviation and the same for the same seed.
    @Test func seededNoiseIsReproducible() throws {
        func frames(seed: UInt64) throws -> [CollectedFrame] {
            let headset = SimulatedBrainiacHeadset(configuration: .init(
                dominantFrequency: 6, amplitude: 30, noise: 5, seed: seed, duration: 4, realTime: false,
                deviceStartTime: deviceEpoch))
            return try run(headset).sink.frames
        }
        let first = try frames(seed: 7)
        let again = try frames(seed: 7)
        let other = try frames(seed: 8)
        #expect(first.count == 1000)
        #expect(first.map(\.values) == again.map(\.values))
        #expect(first.map(\.values) != other.map(\.values))
        var residuals: [Double] = []
        for frame in first {
            let truth = 30 * sin(2 * .pi * 6 * Double(frame.counter!) / 250)
            residuals += frame.values.map { $0 - truth }
        }
        let mean = residuals.reduce(0, +) / Double(residuals.count)
        let deviation = (residuals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(residuals.count))
            .squareRoot()
        #expect(abs(mean) < 0.3)
        #expect(abs(deviation - 5) < 0.25)
    }

    /// The counter wraps at 2³² and the order number at 2¹⁶ without a gap when the timeline knows the modulus.
    @Test func countersWrapWithoutGaps() throws {
        let headset = SimulatedBrainiacHeadset(configuration: .init(
            duration: 1, realTime: false, samplesPerNotification: 7, batteryInterval: nil,
            deviceStartTime: deviceEpoch, firstCounter: UInt32.max - 25, firstOrderNumber: 65_530))
        let (sink, stats) = try run(headset)
        #expect(stats.delivered == 250)
        #expect(sink.gaps.isEmpty)
        #expect(sink.frames[25].counter == UInt64(UInt32.max))
        #expect(sink.frames[26].counter == 0)
        #expect(sink.frames.last?.counter == 223)
        let state = headset.state()
        #expect(state.statistics.eegNotifications == 36)  // 35 of 7 samples and one of 5
        #expect(state.statistics.skippedOrderNumbers == 0)
        #expect(state.statistics.batteryNotifications == 0 && state.batteryLevel == nil)
    }

    /// In real time the notifications are paced on absolute deadlines: 0.2 s of samples take at least 0.19 s.
    @Test func realTimePacing() throws {
        let headset = SimulatedBrainiacHeadset(configuration: .init(
            duration: 0.2, realTime: true, samplesPerNotification: 5, deviceStartTime: deviceEpoch))
        let start = HostClock.now()
        let (sink, stats) = try run(headset)
        let elapsed = HostClock.now() - start
        #expect(stats.delivered == 50)
        #expect(elapsed >= 0.19)
        #expect(elapsed < 5)
        let arrivals = sink.frames.map(\.arrival)
        #expect(zip(arrivals, arrivals.dropFirst()).allSatisfy { $0 <= $1 })
        // The first notification is due 16 ms after the start, the last 196 ms after it.
        #expect(arrivals[49] - arrivals[4] >= 0.17)
        #expect(headset.state().status == .peripheralDisconnected)
    }

    /// Without a duration the headset runs until the pipeline stops it, then reports the disconnect.
    @Test func runsUntilStopped() throws {
        let headset = SimulatedBrainiacHeadset(configuration: .init(realTime: false, deviceStartTime: deviceEpoch))
        let pipeline = StreamPipeline(
            source: headset, sinks: [SummarySink()],
            configuration: .init(ringCapacity: 4096, overflow: .dropOldest,
                                 timeline: BrainiacHeadset.timelineConfiguration))
        try pipeline.start()
        var spins = 0
        while pipeline.statistics().received < 20_000 && spins < 50_000_000 { spins += 1 }  // no sleeping in tests
        pipeline.stop()
        let stats = pipeline.statistics()
        let state = headset.state()
        #expect(stats.received >= 20_000)
        #expect(stats.received == stats.delivered + stats.dropped)
        #expect(state.statistics.samples == stats.received)
        #expect(state.status == .peripheralDisconnected)
        #expect(!state.isRunning)
    }
}
