import AxonDevices
import AxonStreams
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The Brainiac headset over any ``AxonDevices/DeviceTransport`` — BlueZ for hardware, a simulator or a replay —
/// as a `SampleSource` for a pipeline or an ``EEGHeadset``.
///
///     let transport = BlueZTransport(central: central, configuration: .init(device: "Brainiac-0001"))
///     let source = BrainiacTransportSource(transport: transport)
///     try headset.start(source: source)
///
/// Every notification goes through ``BrainiacDecoder`` into the stream; rejected ones are counted and reported
/// (``BrainiacHeadsetEvent/rejected(_:)``) and the stream goes on. A link loss marks the stream
/// (`FrameWriter.noteLinkLoss()`), so the samples the headset measured during the outage — its counter keeps
/// counting — become one gap record with cause `.linkLoss` when data resumes. Link events are reported as the
/// SDK's status messages (``BrainiacStatus/messages(for:)``).
///
/// Threading contract: `run` is called on the pipeline's source thread: it opens the transport (blocking), reads the battery
/// level, and waits until the pipeline asks it to stop, then closes the transport. Notifications are decoded on
/// the transport's delivery thread, which is the stream's single producer from `open` until `close` returns.
/// The event handler runs on that thread and must not block. ``state()`` from any thread.
public final class BrainiacTransportSource: SampleSource, Sendable {
    public let descriptor: StreamDescriptor
    public let transport: any DeviceTransport
    public let profile: BrainiacGATTProfile

    private let shared = ThreadLocked(BrainiacHeadsetState())
    private let eventHandler: (@Sendable (BrainiacHeadsetEvent) -> Void)?
    private let linkEventHandler: (@Sendable (LinkEvent) -> Void)?
    fileprivate let notificationHandler: (@Sendable (BrainiacRawNotification) -> Void)?

    /// - Parameters:
    ///   - eventHandler: battery levels, SDK status messages and rejected notifications.
    ///   - linkEventHandler: the transport's own link events, for logs that want more than the SDK's messages.
    ///   - notificationHandler: every notification's bytes and decoding (the SDK's `rawdata` and `rawvalues`), on
    ///     the transport's delivery thread after the decoder; allocates per notification, so only when given.
    public init(
        transport: any DeviceTransport, profile: BrainiacGATTProfile = .init(), sourceID: String? = nil,
        eventHandler: (@Sendable (BrainiacHeadsetEvent) -> Void)? = nil,
        linkEventHandler: (@Sendable (LinkEvent) -> Void)? = nil,
        notificationHandler: (@Sendable (BrainiacRawNotification) -> Void)? = nil
    ) {
        self.transport = transport
        self.profile = profile
        self.descriptor = BrainiacHeadset.descriptor(
            sourceID: sourceID ?? "brainiac-\(transport.deviceDescription)",
            metadata: ["transport": String(describing: type(of: transport))])
        self.eventHandler = eventHandler
        self.linkEventHandler = linkEventHandler
        self.notificationHandler = notificationHandler
    }

    /// The decoder's latest state (statistics, battery, status, last error). Any thread.
    public func state() -> BrainiacHeadsetState { shared.withLock { $0 } }

    public func run(into writer: FrameWriter) throws {
        let receiver = Receiver(source: self, writer: writer)
        shared.withLock { $0.isRunning = true }
        defer { shared.withLock { $0.isRunning = false } }
        // Blocking forms: this is the pipeline's own source thread, not one of Swift's cooperative pool.
        try transport.openBlocking(notifications: [profile.dataCharacteristic], receiver: receiver)
        defer { transport.closeBlocking() }
        if let level = (try? transport.readBlocking(.batteryLevel))?.first.map(Int.init) {
            report(.battery(level: level), level: level)
        }
        // Frames arrive on the transport's thread; this one only waits for the pipeline to ask it to stop.
        _ = writer.waitForStopRequest()
    }

    fileprivate func report(_ event: BrainiacHeadsetEvent, level: Int? = nil) {
        if let level { shared.withLock { $0.batteryLevel = level } }
        eventHandler?(event)
    }

    fileprivate func reportLink(_ event: LinkEvent) {
        linkEventHandler?(event)
        for message in BrainiacStatus.messages(for: event) { eventHandler?(.status(message)) }
    }

    fileprivate func publish(_ decoder: BrainiacDecoder) {
        shared.withLock { state in
            state.statistics = decoder.statistics
            state.batteryLevel = decoder.batteryLevel ?? state.batteryLevel
            state.status = decoder.status
            state.lastError = decoder.lastError
            state.notificationsSent = decoder.statistics.decodedNotifications + decoder.statistics.rejectedNotifications
        }
    }
}

/// Decodes on the transport's delivery thread into the stream.
private final class Receiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: used only on the transport's delivery thread (one at a time).
    let source: BrainiacTransportSource
    let writer: FrameWriter
    let decoder = BrainiacDecoder()

    init(source: BrainiacTransportSource, writer: FrameWriter) {
        self.source = source
        self.writer = writer
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        let decoded: Result<BrainiacNotification, BrainiacPacketError>
        do throws(BrainiacPacketError) {
            let notification = try decoder.decode(value, arrivalTime: arrivalTime, into: writer)
            decoded = .success(notification)
            switch notification {
            case .battery(_, let level): source.report(.battery(level: level), level: level)
            case .status(_, let status): source.report(.status(status))
            case .eeg: break
            }
        } catch {
            decoded = .failure(error)
            source.report(.rejected(error))
        }
        source.publish(decoder)
        source.notificationHandler?(BrainiacRawNotification(bytes: value, arrivalTime: arrivalTime, decoded: decoded))
    }

    func transport(didChange event: LinkEvent) {
        if case .linkLost = event { writer.noteLinkLoss() }
        if case .serviceVanished = event { writer.noteLinkLoss() }
        source.reportLink(event)
    }
}
