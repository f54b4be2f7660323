import AxonBrainiac
import AxonEEG
import AxonStreams
import Foundation
import Testing

@Suite("EEGHeadset: the SDK's CBManager over decode → ring → engine", .serialized)
struct EEGHeadsetTests {
    static func headset() -> EEGHeadset {
        EEGHeadset(
            configuration: .init(baselineDuration: 10, indicatorPeriod: 5, rigor: .estimate),
            options: .init(timeBase: .device, bufferLimit: 100_000, sampleCapacity: 16_384,
                           pipeline: .init(ringCapacity: 16_384)))
    }

    /// The test sequence at every frequency of the acceptance list: each window's dominant frequency in the tone's
    /// band is within 0.05 Hz of the tone on every channel.
    @Test("test sequence: dominant frequency within 0.05 Hz",
          arguments: [3.5, 5, 6.8, 8, 10, 11.3, 12.5, 15, 20, 23.7])
    func testSequence(frequency: Double) async throws {
        let headset = Self.headset()
        try headset.startTestSequence(dominantFrequency: frequency, duration: 20, realTime: false)
        headset.waitUntilFinished()
        let band = try #require(headset.configuration.bands.firstIndex { $0.lower <= frequency && frequency <= $0.upper })
        var frames = 0
        var worst = 0.0
        for await frame in headset.spectra {
            frames += 1
            for channel in frame.channels {
                worst = max(worst, abs((channel.bands[band].dominantFrequency ?? .infinity) - frequency))
            }
        }
        #expect(frames == 19)  // 5000 samples: windows end at 255, 505, …, 4755
        #expect(worst < 0.05, "worst error \(worst) Hz at \(frequency) Hz")
        #expect(!headset.hasStarted)
    }

    @Test("bad notifications are counted and reported; the stream goes on")
    func badNotifications() async throws {
        let headset = Self.headset()
        let faults: [Int: BrainiacFault] = [
            20: .truncated(length: 12), 40: .extended(extraBytes: 3), 60: .wrongVersion(2), 80: .garbage(length: 50),
            100: .flippedBit,
        ]
        headset.startBaseline()  // before the start: the baseline begins with the first sample
        try headset.startTestSequence(dominantFrequency: 10, duration: 30, realTime: false, faults: faults)
        headset.waitUntilFinished()
        var frames: [SpectrumFrame] = []
        for await frame in headset.spectra { frames.append(frame) }
        var indicators = 0
        for await _ in headset.indicators { indicators += 1 }

        let decoder = try #require(headset.decoderState)
        #expect(decoder.statistics.rejectedNotifications == 5)
        #expect(decoder.statistics.samples == 7500 - 5 * 10)
        // Each lost notification is a 10-sample gap that the engine bridges: 30 s still gives 29 spectra.
        #expect(frames.count == 29)
        #expect(frames.map(\.counter) == Array(0..<29))
        #expect(frames.reduce(0) { $0 + ($1.filledSamples > 0 ? 1 : 0) } >= 5)
        #expect(indicators == 5)  // at samples 2499, 3749, 4999, 6249, 7499
        #expect(headset.hasStartedIndicators)
        var rejected: [String] = []
        var batteries: [Int] = []
        var statuses: [BrainiacStatus] = []
        for await event in headset.status {
            switch event {
            case .rejected(let error): rejected.append("\(error.kind)")
            case .battery(let level): batteries.append(level)
            case .status(let status): statuses.append(status)
            }
            if statuses.last == .peripheralDisconnected { break }
        }
        #expect(rejected.count == 5, "\(rejected)")
        #expect(batteries.first == 100 && batteries.count >= 3)
        #expect(statuses.first == .ready && statuses.last == .peripheralDisconnected)
        #expect(headset.batteryLevel == batteries.last)
    }

    /// The SDK's `CB_dataUpdatedWithDictionary`, `rawdata` and `rawvalues`: the delivered samples carry the device's
    /// counter and time and match, value for value, the samples of the notifications the headset sent; each
    /// notification keeps its bytes and its hardware order number, one more per notification; a damaged one is
    /// there with its rejection and no samples, and its 10 samples are missing from the stream.
    @Test("samples and notifications: the SDK's raw values with hardware order numbers, and the raw bytes")
    func samplesAndNotifications() async throws {
        let headset = Self.headset()
        try headset.startTestSequence(
            dominantFrequency: 10, noise: 2, duration: 4, realTime: false, faults: [30: .flippedBit])
        headset.waitUntilFinished()
        var samples: [EEGSample] = []
        for await sample in headset.samples { samples.append(sample) }
        var notifications: [BrainiacRawNotification] = []
        for await notification in headset.notifications { notifications.append(notification) }

        #expect(samples.count == 1000 - 10)
        let rejected = notifications.filter { if case .failure = $0.decoded { true } else { false } }
        #expect(rejected.count == 1 && rejected[0].samples.isEmpty && rejected[0].hardwareOrderNumber == nil)
        let accepted = notifications.compactMap(\.hardwareOrderNumber)
        #expect(accepted.count == notifications.count - 1)
        // One order number per notification sent, of any type: the damaged one leaves a step of 2.
        let steps = zip(accepted, accepted.dropFirst()).map { Int($1 &- $0) }
        #expect(steps.filter { $0 == 1 }.count == steps.count - 1 && steps.filter { $0 == 2 }.count == 1, "\(steps)")
        var bySampleCounter: [UInt64: BrainiacPacket] = [:]
        for notification in notifications {
            if case .success(let decoded) = notification.decoded {
                // The bytes are the notification itself: parsed again, the same header.
                let again = try notification.bytes.withUnsafeBytes { try BrainiacDecoder.parse($0) }
                #expect(again == decoded)
            }
            for packet in notification.samples {
                #expect(packet.hardwareOrderNumber == notification.hardwareOrderNumber)
                bySampleCounter[UInt64(packet.counter)] = packet
            }
        }
        #expect(bySampleCounter.count == samples.count)
        for sample in samples {
            let counter = try #require(sample.counter)
            let packet = try #require(bySampleCounter[counter], "sample \(sample.sampleIndex)")
            #expect(sample.values == packet.values)
            #expect(sample.timeframe == Double(packet.timeMilliseconds))
        }
    }

    @Test("a second start while streaming is refused")
    func doubleStart() throws {
        let headset = Self.headset()
        try headset.startTestSequence(dominantFrequency: 10)
        #expect(throws: EEGHeadsetError.alreadyStarted) { try headset.startTestSequence(dominantFrequency: 5) }
        #expect(headset.hasStarted)
        headset.stop()
        #expect(!headset.hasStarted)
    }
}

@Suite("EEG headset: SDK flags through a baseline restart and a run's own end", .serialized)
struct EEGHeadsetFlagTests {
    @Test("isBaselineRunning comes back with a second startBaseline, hasStartedIndicators drops until it completes, and a finished run can be started again")
    func flags() async throws {
        // The flags are read as each spectrum arrives: a baseline of 8 s is seen collecting even when a loaded machine
        // (TSan, CI) delivers the real-time sequence in bursts of several seconds.
        var configuration = EEGEngine.Configuration(baselineDuration: 8, indicatorPeriod: 1, rigor: .estimate)
        configuration.channelLabels = ["T3", "O1", "T4", "O2"]
        let headset = EEGHeadset(configuration: configuration)
        headset.startBaseline()
        // Real time, long enough for a loaded machine; stopped once the second baseline has completed.
        try headset.startTestSequence(dominantFrequency: 10, noise: 3, duration: 120)
        var phase = 0
        for await _ in headset.spectra {
            switch phase {
            case 0 where headset.hasStartedIndicators && !headset.isBaselineRunning:
                headset.startBaseline()
                phase = 1
            case 1 where headset.isBaselineRunning && !headset.hasStartedIndicators:
                phase = 2
            case 2 where headset.hasStartedIndicators && !headset.isBaselineRunning:
                phase = 3
            default: break
            }
            if phase == 3 { break }
        }
        headset.stop()
        #expect(phase == 3)
        #expect(!headset.hasStarted)
        // A run that ends on its own: not started once its spectra have ended, and the next start is accepted.
        try headset.startTestSequence(dominantFrequency: 10, duration: 3, realTime: false)
        for await _ in headset.spectra {}
        #expect(!headset.hasStarted)
        try headset.startTestSequence(dominantFrequency: 10, duration: 1, realTime: false)
        headset.waitUntilFinished()
        #expect(!headset.hasStarted)
    }
}
