import AxonMemory
import AxonStreams
import Foundation
import Synchronization

/// A simulated Brainiac headset: the vendor SDK's test sequence, sent as real notifications through the real
/// decoder into the stream.
///
/// Every notification is built by ``BrainiacEncoder`` into a byte buffer and handed to ``BrainiacDecoder`` with
/// its arrival time, exactly as a Bluetooth transport will hand over a characteristic's value; the decoder
/// writes the samples into the pipeline's `FrameWriter`. So the simulator exercises the same decode → frame →
/// ring path as the hardware, including rejected notifications (``Configuration/faults``).
///
/// What it sends: status `ready` and `dataTransferStarted`, a battery notification, then EEG notifications of
/// ``Configuration/samplesPerNotification`` samples at 250 Hz — on every channel `A·sin(2π·f·n/250)` µV plus
/// optional seeded Gaussian noise (the SDK's `startTestSequenceWithDominantFrequence:`) — with a battery
/// notification every ``Configuration/batteryInterval`` seconds, and finally status `peripheralDisconnected`
/// when the duration ends or the pipeline asks it to stop.
///
///     let headset = SimulatedBrainiacHeadset(configuration: .init(dominantFrequency: 10, duration: 60))
///     let pipeline = StreamPipeline(source: headset, sinks: [sink],
///                                   configuration: .init(timeline: BrainiacHeadset.timelineConfiguration))
///     try pipeline.start()
///     print(headset.state().batteryLevel ?? -1)   // any thread
///     pipeline.waitUntilFinished()
///
/// Threading contract: `run` is called on the pipeline's source thread, one run at a time; the decoder, encoder
/// and buffers live on that thread and the EEG path allocates nothing and takes no lock. After every notification
/// the source thread copies the decoder's state into a `ThreadLocked` (held only for that copy); ``state()`` reads it
/// from any thread. The event handler, if any, is called on the source thread and must not block.
public final class SimulatedBrainiacHeadset: SampleSource {
    /// The headset's behaviour.
    public let configuration: Configuration
    /// The EEG stream it produces (``BrainiacHeadset/descriptor(sourceID:metadata:)`` marked simulated).
    public let descriptor: StreamDescriptor

    private let shared = ThreadLocked(BrainiacHeadsetState())
    private let eventHandler: (@Sendable (BrainiacHeadsetEvent) -> Void)?
    fileprivate let notificationHandler: (@Sendable (BrainiacRawNotification) -> Void)?

    /// Creates a simulated headset.
    ///
    /// - Parameters:
    ///   - configuration: its behaviour.
    ///   - sourceID: the stream's source id.
    ///   - eventHandler: called on the source thread for every battery and status notification and every
    ///     rejected notification (the SDK's `CB_changedStatus:message:`); must return quickly.
    ///   - notificationHandler: every notification's bytes and decoding (the SDK's `rawdata` and `rawvalues`), on the
    ///     source thread after the decoder; it allocates per notification, so the EEG path stays allocation-free
    ///     only without it.
    public init(
        configuration: Configuration = .init(), sourceID: String = "brainiac-simulated-0",
        eventHandler: (@Sendable (BrainiacHeadsetEvent) -> Void)? = nil,
        notificationHandler: (@Sendable (BrainiacRawNotification) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.descriptor = BrainiacHeadset.descriptor(
            sourceID: sourceID,
            metadata: ["simulated": "true", "dominantFrequency": "\(configuration.dominantFrequency)"])
        self.eventHandler = eventHandler
        self.notificationHandler = notificationHandler
    }

    /// The latest decoder state. Any thread; a copy under a short lock.
    public func state() -> BrainiacHeadsetState {
        shared.withLock { $0 }
    }

    /// The noiseless µV value of every channel at sample `index`, before quantisation: what tests compare to.
    public func idealValue(index: Int) -> Double {
        configuration.amplitude
            * sin(2 * .pi * configuration.dominantFrequency * Double(index) / BrainiacHeadset.sampleRate)
    }

    /// Sends notifications through the decoder into `writer` until the duration ends or a stop is requested.
    ///
    /// Never throws for damaged notifications (they are counted and reported); throws only if the simulator
    /// cannot build a notification, which is a programming error in this type.
    public func run(into writer: FrameWriter) throws {
        var session = Session(headset: self, writer: writer)
        try session.run()
    }

    /// Publishes the decoder's state (source thread).
    fileprivate func publish(_ decoder: BrainiacDecoder, notificationsSent: Int, isRunning: Bool) {
        shared.withLock { state in
            state.statistics = decoder.statistics
            state.batteryLevel = decoder.batteryLevel
            state.status = decoder.status
            state.lastError = decoder.lastError
            state.notificationsSent = notificationsSent
            state.isRunning = isRunning
        }
    }

    fileprivate func report(_ event: BrainiacHeadsetEvent) {
        eventHandler?(event)
    }
}

/// One run of the simulated headset: the state that lives on the source thread.
private struct Session: ~Copyable {
    let headset: SimulatedBrainiacHeadset
    let configuration: SimulatedBrainiacHeadset.Configuration
    let writer: FrameWriter
    let decoder = BrainiacDecoder()
    let encoder = BrainiacEncoder()
    /// One notification's bytes, encoded here and decoded in place.
    let bytes = OwnedBuffer<UInt8>(repeating: 0, count: BrainiacPacketLayout.maximumNotificationSize)
    /// One notification's samples, frame-major.
    let values = OwnedBuffer<Double>(
        repeating: 0, count: BrainiacPacketLayout.maximumSamplesPerNotification * BrainiacPacketLayout.channelCount)
    var noise: SplitMix64
    var faultRandom: SplitMix64
    let startHost: Double
    let startMilliseconds: UInt64
    var orderNumber: UInt16
    var sampleIndex = 0
    var eegNotificationIndex = 0
    var notificationsSent = 0
    var batteryReports = 0
    var lastArrival: Double

    init(headset: SimulatedBrainiacHeadset, writer: FrameWriter) {
        self.headset = headset
        self.configuration = headset.configuration
        self.writer = writer
        noise = SplitMix64(seed: configuration.seed)
        faultRandom = SplitMix64(seed: configuration.seed ^ 0x5EED_FA17)
        startHost = HostClock.now()
        startMilliseconds = configuration.deviceStartTime ?? UInt64(max(0, HostClock.unixNow() * 1000).rounded())
        orderNumber = configuration.firstOrderNumber
        lastArrival = startHost
    }

    mutating func run() throws(BrainiacEncoderError) {
        headset.publish(decoder, notificationsSent: 0, isRunning: true)
        try sendStatus(.ready)
        try sendStatus(.dataTransferStarted)
        let batteryEvery = configuration.batteryInterval.map {
            max(1, Int(($0 * BrainiacHeadset.sampleRate).rounded()))
        }
        var nextBattery = 0
        if batteryEvery != nil { try sendBattery() }
        if let batteryEvery { nextBattery = batteryEvery }
        let total = configuration.totalSamples
        while total.map({ sampleIndex < $0 }) ?? true, !writer.isStopRequested {
            try sendSamples(count: min(configuration.samplesPerNotification, (total ?? .max) - sampleIndex))
            if let batteryEvery, sampleIndex >= nextBattery {
                try sendBattery()
                nextBattery += batteryEvery
            }
        }
        try sendStatus(.peripheralDisconnected)
        headset.publish(decoder, notificationsSent: notificationsSent, isRunning: false)
    }

    private var header: BrainiacNotificationHeader {
        BrainiacNotificationHeader(
            hardwareOrderNumber: orderNumber,
            counter: UInt32(truncatingIfNeeded: UInt64(configuration.firstCounter) + UInt64(sampleIndex)),
            timeMilliseconds: startMilliseconds &+ UInt64(sampleIndex) * BrainiacPacketLayout.samplePeriodMilliseconds)
    }

    private mutating func sendSamples(count: Int) throws(BrainiacEncoderError) {
        let channels = BrainiacPacketLayout.channelCount
        for sample in 0..<count {
            let ideal = headset.idealValue(index: sampleIndex + sample)
            for channel in 0..<channels {
                values[sample * channels + channel] =
                    configuration.noise > 0 ? ideal + configuration.noise * noise.gaussian() : ideal
            }
        }
        let header = self.header
        var length = try values.withUnsafeBufferPointer { (samples) throws(BrainiacEncoderError) in
            try bytes.withUnsafeMutableBufferPointer { (notification) throws(BrainiacEncoderError) in
                try encoder.encodeEEG(
                    header, values: UnsafeBufferPointer(rebasing: samples[0..<(count * channels)]),
                    into: UnsafeMutableRawBufferPointer(notification))
            }
        }
        if !configuration.faults.isEmpty, let fault = configuration.faults[eegNotificationIndex] {
            var random = faultRandom
            length = bytes.withUnsafeMutableBufferPointer { notification in
                fault.apply(to: UnsafeMutableRawBufferPointer(notification), length: length, random: &random)
            }
            faultRandom = random
        }
        // The notification leaves the headset once its last sample exists.
        let due = startHost + Double(sampleIndex + count - 1) / BrainiacHeadset.sampleRate
        deliver(length: length, arrival: arrivalTime(due: due))
        sampleIndex += count
        eegNotificationIndex += 1
    }

    private mutating func sendBattery() throws(BrainiacEncoderError) {
        let level = max(0, configuration.initialBatteryLevel - batteryReports * configuration.batteryDrainPerReport)
        batteryReports += 1
        let header = self.header
        let length = try bytes.withUnsafeMutableBufferPointer { (notification) throws(BrainiacEncoderError) in
            try encoder.encodeBattery(header, level: level, into: UnsafeMutableRawBufferPointer(notification))
        }
        deliver(length: length, arrival: arrivalTime(due: lastArrival))
    }

    private mutating func sendStatus(_ status: BrainiacStatus) throws(BrainiacEncoderError) {
        let header = self.header
        let length = try bytes.withUnsafeMutableBufferPointer { (notification) throws(BrainiacEncoderError) in
            try encoder.encodeStatus(header, status: status, into: UnsafeMutableRawBufferPointer(notification))
        }
        deliver(length: length, arrival: arrivalTime(due: lastArrival))
    }

    /// In real time: sleeps until `due` (an absolute monotonic deadline) and returns the true arrival time.
    /// Otherwise: `due` itself, a virtual arrival time.
    private mutating func arrivalTime(due: Double) -> Double {
        guard configuration.realTime else {
            lastArrival = due
            return due
        }
        HostClock.sleep(until: due)
        lastArrival = HostClock.now()
        return lastArrival
    }

    /// Hands one notification to the decoder, as a transport callback would.
    private mutating func deliver(length: Int, arrival: Double) {
        orderNumber &+= 1
        notificationsSent += 1
        bytes.withUnsafeBufferPointer { notification in
            deliver(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: notification[0..<length])), arrival: arrival)
        }
    }

    /// Decodes `sent` into the writer, reports what it was, and hands it to the notification handler.
    private func deliver(_ sent: UnsafeRawBufferPointer, arrival: Double) {
        let decoded: Result<BrainiacNotification, BrainiacPacketError>
        do throws(BrainiacPacketError) {
            let notification = try decoder.decode(sent, arrivalTime: arrival, into: writer)
            decoded = .success(notification)
            switch notification {
            case .eeg: break
            case .battery(_, let level): headset.report(.battery(level: level))
            case .status(_, let status): headset.report(.status(status))
            }
        } catch {
            decoded = .failure(error)
            headset.report(.rejected(error))
        }
        headset.publish(decoder, notificationsSent: notificationsSent, isRunning: true)
        if let handler = headset.notificationHandler {
            handler(BrainiacRawNotification(bytes: Array(sent), arrivalTime: arrival, decoded: decoded))
        }
    }
}
