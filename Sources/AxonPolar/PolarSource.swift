import AxonDevices
import AxonStreams
import Dispatch

/// A Polar H10 chest strap over any ``AxonDevices/DeviceTransport`` (BlueZ for hardware, the mock bluetoothd in
/// tests) as a `SampleSource`: one channel "ECG" in µV at 130 Hz, from Polar Measurement Data frames, each sample with
/// its index on the strap's clock as device counter (a lost notification becomes a gap record of its samples).
///
///     let transport = BlueZTransport(central: central, configuration: .init(device: "Polar H10 0A1B2C3D",
///                                    discovery: DiscoveryFilter(serviceUUIDs: [PolarGATTProfile.heartRateService])))
///     let source = try PolarSource(transport: transport)
///     let pipeline = StreamPipeline(source: source, sinks: [sink],
///                                   configuration: .init(timeline: source.timelineConfiguration))
///
/// The accelerometer (``accelerometer`` settings; `nil` leaves it off) and the Heart Rate Measurement's heart rate
/// and RR intervals are streams of their own in the same session: each decoded notification is a
/// ``PolarAuxiliarySample`` on ``auxiliary``, whose stream has the descriptor ``auxiliaryDescriptor(_:)``.
///
/// `run` opens the transport with notifications on the PMD control point and data characteristics (and Heart Rate
/// Measurement), reads the features, then starts ECG and the accelerometer, each command answered on the control point
/// before the next (``PolarError/refused(_:_:)`` when the strap refuses; "already in that state" counts as started;
/// a command whose answer does not come within a third of ``responseTimeout`` is written again, three times at most).
/// It then waits until the pipeline asks it to stop, and stops both measurements before closing the transport. A
/// link loss marks the stream (the samples the strap's clock counted meanwhile become one `.linkLoss` gap record when
/// data resumes); once the transport is back (``AxonDevices/LinkEvent/ready``) the measurements are started again, as
/// the strap stops streaming when it loses its central.
///
/// Threading contract: `run` on the pipeline's source thread (commands are written and their answers awaited there);
/// notifications are decoded on the transport's delivery thread, the stream's single producer. ``state()`` from any
/// thread.
public final class PolarSource: SampleSource, Sendable {
    /// The stream: ECG in µV at 130 Hz.
    public let descriptor: StreamDescriptor
    /// The transport.
    public let transport: any DeviceTransport
    /// The accelerometer's settings, `nil` when it is not started.
    public let accelerometer: PolarSettings?
    /// Whether Heart Rate Measurement (heart rate and RR intervals) is subscribed.
    public let includesHeartRate: Bool
    /// Seconds to wait for the control point's answer to a command.
    public let responseTimeout: Double
    /// The auxiliary streams' samples as they are decoded, in arrival order; finishes when `run` returns. One
    /// consumer; the newest 65,536 are buffered (``PolarSourceState/auxiliaryDropped`` counts the rest).
    public let auxiliary: AsyncStream<PolarAuxiliarySample>
    private let auxiliaryContinuation: AsyncStream<PolarAuxiliarySample>.Continuation
    /// Gap detection from the strap's clock: a counter that does not wrap.
    public var timelineConfiguration: StreamTimeline.Configuration { .init(counterModulus: nil) }

    private let shared = ThreadLocked(PolarSourceState())
    private let responses = ThreadLocked<[PolarControlPointResponse]>([])
    /// Signalled once per control-point answer, so ``request(_:timeout:)`` waits without polling.
    private let answered = DispatchSemaphore(value: 0)
    private let running = ThreadLocked<FrameWriter?>(nil)
    private let linkEventHandler: (@Sendable (LinkEvent) -> Void)?

    /// A source for the strap behind `transport`. The accelerometer settings are checked here against the H10's.
    public init(
        transport: any DeviceTransport, accelerometer: PolarSettings? = .h10Accelerometer(),
        includesHeartRate: Bool = true, responseTimeout: Double = 5, sourceID: String? = nil,
        linkEventHandler: (@Sendable (LinkEvent) -> Void)? = nil
    ) throws(PolarError) {
        if let accelerometer { try accelerometer.validate(for: .accelerometer) }
        self.transport = transport
        self.accelerometer = accelerometer
        self.includesHeartRate = includesHeartRate
        self.responseTimeout = responseTimeout
        self.linkEventHandler = linkEventHandler
        (auxiliary, auxiliaryContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(65_536))
        descriptor = StreamDescriptor(
            name: "Polar H10 ECG", contentType: "ECG",
            channels: [ChannelInfo(label: "ECG", unit: "µV", range: -10_000...10_000)],
            nominalRate: PolarDecoder.ecgRate, format: .float32,
            sourceID: sourceID ?? "polar-\(transport.deviceDescription)",
            metadata: ["device": "Polar H10"])
    }

    /// The descriptor of an auxiliary stream of this strap (source ID `<descriptor.sourceID>/<stream>`).
    public func auxiliaryDescriptor(_ stream: PolarAuxiliaryStream) -> StreamDescriptor {
        stream.descriptor(
            sourceID: descriptor.sourceID, accelerometerRate: Double(accelerometer?.sampleRate ?? 200),
            accelerometerRange: Double(accelerometer?.range ?? 8))
    }

    /// The decoder's counts, the commands' history and the latest heart rate. Any thread.
    public func state() -> PolarSourceState { shared.withLock { $0 } }

    /// Streams until the pipeline asks it to stop (see the type's documentation).
    public func run(into writer: FrameWriter) throws {
        let receiver = PolarReceiver(
            source: self, writer: writer, accelerometerRate: Double(accelerometer?.sampleRate ?? 200))
        shared.withLock { $0.isRunning = true }
        defer {
            shared.withLock { $0.isRunning = false }
            auxiliaryContinuation.finish()
        }
        let notifications =
            [PolarGATTProfile.controlPointID, PolarGATTProfile.dataID]
            + (includesHeartRate ? [PolarGATTProfile.heartRateID] : [])
        do { try transport.openBlocking(notifications: notifications, receiver: receiver) } catch {
            throw PolarError.transport(error)
        }
        defer { transport.closeBlocking() }
        let features: [UInt8]
        do { features = try transport.readBlocking(PolarGATTProfile.controlPointID) } catch {
            throw PolarError.transport(error)
        }
        shared.withLock { $0.features = features }
        let offered = PolarMeasurementType.announced(byFeatures: features)
        guard offered.contains(.ecg) else { throw PolarError.notOffered(.ecg, features: features) }
        if accelerometer != nil, !offered.contains(.accelerometer) {
            throw PolarError.notOffered(.accelerometer, features: features)
        }
        try startMeasurements()
        running.withLock { $0 = writer }
        defer { running.withLock { $0 = nil } }
        var retrying = false
        while !writer.waitForStopRequest(timeout: retrying ? 1 : nil) {
            let restart = shared.withLock { $0.restarts.takeRestart() }
            if restart || retrying {
                // Not started again (no answer yet on a link still settling): try once a second until it is.
                do {
                    try startMeasurements()
                    retrying = false
                } catch {
                    retrying = true
                }
            }
        }
        if accelerometer != nil { _ = try? request(.stop(.accelerometer), timeout: 1) }
        _ = try? request(.stop(.ecg), timeout: 1)
    }

    private func startMeasurements() throws(PolarError) {
        for command in [PolarCommand.start(.ecg, .h10ECG)] + (accelerometer.map { [.start(.accelerometer, $0)] } ?? [])
        {
            // Three tries: after a reconnection the control point's indications may not be subscribed again yet, so
            // a start can be carried out with its answer lost; the next try then hears "already in that state".
            var answer: PolarControlPointResponse?
            for attempt in 1...3 {
                do {
                    answer = try request(command, timeout: responseTimeout / 3)
                    break
                } catch .noResponse where attempt < 3 {
                    continue
                }
            }
            guard let response = answer else { throw .noResponse(command, seconds: responseTimeout) }
            guard response.status == .success || response.status == .alreadyInState else {
                throw .refused(command, response.status)
            }
            // A start answer may carry the factor of compressed frames (none for the H10's raw frames).
            if case .start(.accelerometer, _) = command,
                let factor = try? PolarSettingsAnswer(parameters: response.parameters).factor
            {
                shared.withLock { $0.accelerometerFactor = Double(factor) }
            }
        }
        shared.withLock { $0.restarts.noteStart() }
    }

    /// Writes `command` and waits for the control point's answer to it (`timeout` seconds).
    @discardableResult
    func request(_ command: PolarCommand, timeout: Double) throws(PolarError) -> PolarControlPointResponse {
        let bytes = try command.bytes()
        responses.withLock { $0.removeAll() }
        do { try transport.writeBlocking(bytes, to: PolarGATTProfile.controlPointID, withResponse: true) } catch {
            throw .transport(error)
        }
        shared.withLock { $0.commandsSent += 1 }
        // Each answer signals `answered`; a signal left from an earlier answer costs one more look, nothing else.
        let deadline = HostClock.now() + timeout
        while true {
            if let answer = responses.withLock({ list in list.first { $0.answers(command) } }) { return answer }
            let left = deadline - HostClock.now()
            guard left > 0, answered.wait(timeout: .now() + left) == .success else { break }
        }
        if let answer = responses.withLock({ list in list.first { $0.answers(command) } }) { return answer }
        throw .noResponse(command, seconds: timeout)
    }

    fileprivate func controlPoint(_ value: [UInt8]) {
        guard let first = value.first else { return }
        if first == 0xF0 {
            guard let response = try? PolarControlPointResponse(bytes: value) else {
                shared.withLock { $0.malformedResponses += 1 }
                return
            }
            responses.withLock { $0.append(response) }
            answered.signal()
        } else if first == 0x01 {
            // Polar's "online measurement stopped" (PmdControlPointCommandServiceToClient), types after it.
            shared.withLock { $0.stoppedByStrap += 1 }
        }
    }

    fileprivate func decoded(_ statistics: PolarDecoderStatistics) { shared.withLock { $0.statistics = statistics } }

    fileprivate func yield(_ sample: PolarAuxiliarySample) {
        if case .dropped = auxiliaryContinuation.yield(sample) { shared.withLock { $0.auxiliaryDropped += 1 } }
    }

    fileprivate func heartRate(_ value: [UInt8], arrivalTime: Double) {
        guard let measurement = try? HeartRateMeasurement(decoding: value) else {
            shared.withLock { $0.heartRateRejected += 1 }
            return
        }
        let rr = measurement.rrIntervals.map { $0 * 1000 }
        shared.withLock {
            $0.heartRateNotifications += 1
            $0.heartRate = measurement.beatsPerMinute
            $0.rrIntervals += rr.count
        }
        yield(
            PolarAuxiliarySample(
                stream: .heartRate, arrivalTime: arrivalTime, frames: [[Double(measurement.beatsPerMinute)]],
                hostTimes: [arrivalTime]))
        guard !rr.isEmpty else { return }
        var times = [Double](repeating: arrivalTime, count: rr.count)
        var later = 0.0
        for k in stride(from: rr.count - 1, through: 0, by: -1) {
            times[k] = arrivalTime - later / 1000
            later += rr[k]
        }
        yield(
            PolarAuxiliarySample(
                stream: .rrInterval, arrivalTime: arrivalTime, frames: rr.map { [$0] }, hostTimes: times))
    }

    fileprivate func linkChanged(_ event: LinkEvent) {
        if shared.withLock({ $0.restarts.note(event) }) { running.withLock { $0 }?.interruptWait() }
        linkEventHandler?(event)
    }
}

/// A ``PolarSource``'s state as seen from other threads.
///
/// Threading: a value type; share freely.
public struct PolarSourceState: Sendable, Hashable {
    /// Whether `run` is streaming.
    public var isRunning = false
    /// The features read from the control point (`0F 05 00` on an H10: ECG and ACC).
    public var features: [UInt8] = []
    /// The decoder's counts.
    public var statistics = PolarDecoderStatistics()
    /// Control-point commands written.
    public var commandsSent = 0
    /// Times the measurements were started (once, then once per reconnection).
    public var startsSent: Int { restarts.startsSent }
    /// Control-point indications that were not PMD responses.
    public var malformedResponses = 0
    /// "Measurement stopped" notices from the strap.
    public var stoppedByStrap = 0
    /// Link losses seen.
    public var linkLosses: Int { restarts.linkLosses }
    /// Heart Rate Measurement notifications decoded.
    public var heartRateNotifications = 0
    /// Heart Rate Measurement notifications that could not be decoded.
    public var heartRateRejected = 0
    /// The latest heart rate in bpm.
    public var heartRate: Int?
    /// RR intervals received.
    public var rrIntervals = 0
    /// Auxiliary samples dropped because ``PolarSource/auxiliary`` was not read fast enough.
    public var auxiliaryDropped = 0
    /// The factor of compressed accelerometer frames from the start answer (1 when it sent none).
    public var accelerometerFactor = 1.0
    /// Link losses, starts, and whether a reconnection waits for the start commands.
    var restarts = StreamRestartTracker()

    /// An empty state.
    public init() {}
}

/// Decodes on the transport's delivery thread into the stream.
private final class PolarReceiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: used only on the transport's delivery thread (one at a time).
    let source: PolarSource
    let writer: FrameWriter
    let decoder: PolarDecoder

    init(source: PolarSource, writer: FrameWriter, accelerometerRate: Double) {
        self.source = source
        self.writer = writer
        decoder = PolarDecoder(accelerometerRate: accelerometerRate)
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        switch characteristic.characteristic {
        case PolarGATTProfile.controlPoint:
            source.controlPoint(value)
        case PolarGATTProfile.data:
            let rate = decoder.accelerometerRate
            decoder.accelerometerFactor = source.state().accelerometerFactor
            try? decoder.decode(value, arrivalTime: arrivalTime, into: writer) { frame, deviceTimes, first in
                let n = frame.sampleCount
                let frames = (0..<n).map { i in (0..<3).map { Double(frame.values[i * 3 + $0]) } }
                let hostTimes = (0..<n).map { arrivalTime - Double(n - 1 - $0) / rate }
                source.yield(
                    PolarAuxiliarySample(
                        stream: .accelerometer, arrivalTime: arrivalTime, frames: frames, hostTimes: hostTimes,
                        deviceTimes: deviceTimes, firstSampleIndex: first))
            }
            source.decoded(decoder.statistics)
        case PolarGATTProfile.heartRateMeasurement:
            source.heartRate(value, arrivalTime: arrivalTime)
        default:
            break
        }
    }

    func transport(didChange event: LinkEvent) {
        if case .linkLost = event { writer.noteLinkLoss() }
        if case .serviceVanished = event { writer.noteLinkLoss() }
        source.linkChanged(event)
    }
}
