import AxonDevices
import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// A Muse headband over any ``AxonDevices/DeviceTransport`` (BlueZ for hardware and the mock bluetoothd) as a
/// `SampleSource`: EEG in µV at 256 Hz, TP9, AF7, AF8, TP10 (+ right AUX with preset `p20`), each frame with the
/// packet index as device counter (``timelineConfiguration``).
///
///     let transport = BlueZTransport(central: central, configuration: .init(device: "Muse-41D2",
///                                    discovery: DiscoveryFilter(serviceUUIDs: [MuseGATTProfile.service])))
///     let source = MuseSource(transport: transport, preset: "p20")
///     let pipeline = StreamPipeline(source: source, sinks: [sink],
///                                   configuration: .init(timeline: source.timelineConfiguration))
///
/// Telemetry (battery), accelerometer, gyroscope and (with `includesPPG`, Muse 2 / S) PPG notifications are streams
/// of their own in the same session: each decoded notification is a ``MuseAuxiliarySample`` on ``auxiliary``, whose
/// stream has the descriptor ``auxiliaryDescriptor(_:)`` (``MuseAuxiliaryStream``); ``state()`` keeps the latest
/// values and the counts.
///
/// `run` opens the transport with notifications on the EEG, control, telemetry and motion characteristics, sends `h`,
/// the preset and `d`, and then a keep-alive `k` every ``keepAliveInterval`` seconds until the pipeline asks it to
/// stop; then `h` and the transport is closed. A link loss marks the stream (`FrameWriter.noteLinkLoss()`): the packets
/// the headset's clock counted during the outage become one gap record with cause `.linkLoss` when data resumes. When
/// the transport is back (``AxonDevices/LinkEvent/ready``), the preset and `d` are sent again, since a Muse stops
/// streaming when it loses its central.
///
/// Threading contract: `run` on the pipeline's source thread (commands and keep-alives are written from it);
/// notifications are decoded on the transport's delivery thread, the stream's single producer. ``state()`` from
/// any thread.
public final class MuseSource: SampleSource, Sendable {
    /// The stream: EEG in µV at 256 Hz.
    public let descriptor: StreamDescriptor
    /// The transport.
    public let transport: any DeviceTransport
    /// The channels subscribed.
    public let profile: MuseGATTProfile
    /// The preset sent before `d`.
    public let preset: String
    /// Seconds between keep-alives (`k`); 0 sends none.
    public let keepAliveInterval: Double
    /// Whether the PPG characteristics are subscribed (Muse 2 / S; the 2016 headband has none).
    public let includesPPG: Bool
    /// The auxiliary streams' samples as they are decoded, in arrival order; finishes when `run` returns. One
    /// consumer; the newest 65,536 are buffered (``MuseSourceState/auxiliaryDropped`` counts the rest).
    public let auxiliary: AsyncStream<MuseAuxiliarySample>
    private let auxiliaryContinuation: AsyncStream<MuseAuxiliarySample>.Continuation
    /// Gap detection from the packet index: ``MuseDecoder/counterModulus``.
    public var timelineConfiguration: StreamTimeline.Configuration { .init(counterModulus: MuseDecoder.counterModulus) }

    private let shared = ThreadLocked(MuseSourceState())
    /// The writer of the running stream, so a reconnection can wake the source's thread (nil when not running).
    private let running = ThreadLocked<FrameWriter?>(nil)
    private let linkEventHandler: (@Sendable (LinkEvent) -> Void)?

    /// A source for the headset behind `transport`. `preset` decides AUX (`p20`) and is validated here; muse-lsl
    /// turns on PPG with `p50`, so pass that with `includesPPG` for a Muse 2 / S.
    public init(
        transport: any DeviceTransport, preset: String = "p20", keepAliveInterval: Double = 5,
        includesPPG: Bool = false,
        sourceID: String? = nil, linkEventHandler: (@Sendable (LinkEvent) -> Void)? = nil
    ) throws(MuseError) {
        _ = try MuseCommand.preset(preset).bytes()
        self.transport = transport
        self.includesPPG = includesPPG
        (auxiliary, auxiliaryContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(65_536))
        self.preset = preset
        self.keepAliveInterval = keepAliveInterval
        self.linkEventHandler = linkEventHandler
        profile = MuseGATTProfile(includesAux: MuseCommand.presetIncludesAux(preset))
        descriptor = StreamDescriptor(
            name: "Muse", contentType: .eeg,
            channels: MuseGATTProfile.channelLabels.prefix(profile.channelCount).map {
                ChannelInfo(label: $0, unit: "µV", range: -1000...1000)
            },
            nominalRate: MuseEEGPacket.sampleRate, format: .float32,
            sourceID: sourceID ?? "muse-\(transport.deviceDescription)",
            metadata: ["device": "Muse", "preset": preset])
    }

    /// The descriptor of an auxiliary stream of this headset (source ID `<descriptor.sourceID>/<stream>`).
    public func auxiliaryDescriptor(_ stream: MuseAuxiliaryStream) -> StreamDescriptor {
        stream.descriptor(sourceID: descriptor.sourceID)
    }

    /// The decoder's counts, keep-alives and link history. Any thread.
    public func state() -> MuseSourceState { shared.withLock { $0 } }

    /// Streams until the pipeline asks it to stop (see the type's documentation).
    public func run(into writer: FrameWriter) throws {
        let receiver = MuseReceiver(source: self, writer: writer, channelCount: profile.channelCount)
        shared.withLock { $0.isRunning = true }
        defer {
            shared.withLock { $0.isRunning = false }
            auxiliaryContinuation.finish()
        }
        let auxiliary =
            ([MuseGATTProfile.telemetry, MuseAuxiliaryPacket.accelerometer, MuseAuxiliaryPacket.gyroscope]
            + (includesPPG ? MuseAuxiliaryPacket.ppg : []))
            .map { GATTCharacteristicID(service: MuseGATTProfile.service, characteristic: $0) }
        try transport.openBlocking(
            notifications: profile.eegCharacteristics + [profile.controlCharacteristic] + auxiliary, receiver: receiver)
        defer { transport.closeBlocking() }
        try startStreaming()
        running.withLock { $0 = writer }
        defer { running.withLock { $0 = nil } }
        var nextKeepAlive = HostClock.now() + keepAliveInterval
        // Samples arrive on the transport's thread; this one sleeps until a keep-alive is due, a reconnection asks
        // for the stream to be started again, or the pipeline asks it to stop.
        while true {
            if shared.withLock({ $0.restarts.takeRestart() }) {
                try? startStreaming()
            }
            if keepAliveInterval > 0, HostClock.now() >= nextKeepAlive {
                nextKeepAlive += keepAliveInterval
                if (try? send(.keepAlive)) != nil { shared.withLock { $0.keepAlivesSent += 1 } }
            }
            let untilKeepAlive = keepAliveInterval > 0 ? max(0, nextKeepAlive - HostClock.now()) : nil
            if writer.waitForStopRequest(timeout: untilKeepAlive) { break }
        }
        try? send(.halt)
    }

    private func startStreaming() throws {
        try send(.halt)
        try send(.preset(preset))
        try send(.start)
        shared.withLock { $0.restarts.noteStart() }
    }

    private func send(_ command: MuseCommand) throws {
        try transport.writeBlocking(try command.bytes(), to: profile.controlCharacteristic, withResponse: false)
    }

    fileprivate func received(_ statistics: MuseDecoderStatistics) { shared.withLock { $0.statistics = statistics } }

    fileprivate func reply(_ text: String) { shared.withLock { $0.replies += text } }

    fileprivate func auxiliary(
        _ value: [UInt8], from characteristic: BluetoothUUID, arrivalTime: Double, ppg: inout MusePPGAssembler
    ) {
        var sample: MuseAuxiliarySample?
        switch characteristic {
        case MuseGATTProfile.telemetry:
            guard let telemetry = try? MuseAuxiliaryPacket.Telemetry(bytes: value) else { return rejected() }
            shared.withLock { $0.telemetry = telemetry }
            sample = MuseAuxiliarySample(
                stream: .telemetry, packetIndex: telemetry.index, arrivalTime: arrivalTime,
                frames: [
                    [
                        telemetry.batteryPercent, telemetry.fuelGaugeMillivolts, Double(telemetry.adcVolts),
                        Double(telemetry.temperature),
                    ]
                ])
        case MuseAuxiliaryPacket.accelerometer:
            guard
                let motion = try? MuseAuxiliaryPacket.Motion(
                    bytes: value, scale: MuseAuxiliaryPacket.accelerometerScale)
            else { return rejected() }
            shared.withLock {
                $0.acceleration = motion.samples.last
                $0.accelerometerPackets += 1
            }
            sample = MuseAuxiliarySample(
                stream: .accelerometer, packetIndex: motion.index, arrivalTime: arrivalTime, frames: motion.samples)
        case MuseAuxiliaryPacket.gyroscope:
            guard let motion = try? MuseAuxiliaryPacket.Motion(bytes: value, scale: MuseAuxiliaryPacket.gyroscopeScale)
            else { return rejected() }
            shared.withLock {
                $0.rotation = motion.samples.last
                $0.gyroscopePackets += 1
            }
            sample = MuseAuxiliarySample(
                stream: .gyroscope, packetIndex: motion.index, arrivalTime: arrivalTime, frames: motion.samples)
        default:
            guard let channel = MuseAuxiliaryPacket.ppg.firstIndex(of: characteristic) else { return }
            guard let packet = try? MuseAuxiliaryPacket.PPG(bytes: value) else { return rejected() }
            let complete = ppg.add(packet, channel: channel)
            let incomplete = ppg.incomplete
            shared.withLock {
                $0.ppgNotifications += 1
                $0.ppgIncompletePackets = incomplete
                if let complete { $0.ppg = complete.1.last }
            }
            if let complete {
                sample = MuseAuxiliarySample(
                    stream: .ppg, packetIndex: complete.0, arrivalTime: arrivalTime, frames: complete.1)
            }
        }
        if let sample, case .dropped = auxiliaryContinuation.yield(sample) {
            shared.withLock { $0.auxiliaryDropped += 1 }
        }
    }

    private func rejected() { shared.withLock { $0.auxiliaryRejected += 1 } }

    fileprivate func linkChanged(_ event: LinkEvent) {
        if shared.withLock({ $0.restarts.note(event) }) { running.withLock { $0 }?.interruptWait() }
        linkEventHandler?(event)
    }
}

/// A ``MuseSource``'s state as seen from other threads.
///
/// Threading: a value type; share freely.
public struct MuseSourceState: Sendable, Hashable {
    /// Whether `run` is streaming.
    public var isRunning = false
    /// The decoder's counts.
    public var statistics = MuseDecoderStatistics()
    /// Keep-alives written.
    public var keepAlivesSent = 0
    /// Times `h`, the preset and `d` were sent (once, then once per reconnection).
    public var startsSent: Int { restarts.startsSent }
    /// Link losses seen.
    public var linkLosses: Int { restarts.linkLosses }
    /// Text of the control characteristic's replies (JSON fragments, concatenated).
    public var replies = ""
    /// The latest telemetry (battery, fuel gauge, temperature).
    public var telemetry: MuseAuxiliaryPacket.Telemetry?
    /// The latest accelerometer sample [x, y, z] in g, and the notifications seen.
    public var acceleration: [Double]?
    /// Accelerometer notifications seen.
    public var accelerometerPackets = 0
    /// The latest gyroscope sample [x, y, z] in °/s.
    public var rotation: [Double]?
    /// Gyroscope notifications seen.
    public var gyroscopePackets = 0
    /// The latest PPG frame [ambient, infrared, red] in raw counts.
    public var ppg: [Double]?
    /// PPG notifications seen (three per packet index).
    public var ppgNotifications = 0
    /// PPG packet indices dropped because a channel's notification was missing.
    public var ppgIncompletePackets = 0
    /// Auxiliary notifications of the wrong length.
    public var auxiliaryRejected = 0
    /// Auxiliary samples dropped because ``MuseSource/auxiliary`` was not read fast enough.
    public var auxiliaryDropped = 0
    /// Link losses, starts, and whether a reconnection waits for the start commands.
    var restarts = StreamRestartTracker()

    /// An empty state.
    public init() {}
}

/// Decodes on the transport's delivery thread into the stream.
private final class MuseReceiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: used only on the transport's delivery thread (one at a time).
    let source: MuseSource
    let writer: FrameWriter
    let decoder: MuseDecoder
    var ppg = MusePPGAssembler()

    init(source: MuseSource, writer: FrameWriter, channelCount: Int) {
        self.source = source
        self.writer = writer
        decoder = MuseDecoder(channelCount: channelCount)
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        if characteristic.characteristic == MuseGATTProfile.control {
            // Replies: the first byte is the number of characters that follow.
            if let count = value.first, Int(count) < value.count {
                source.reply(String(decoding: value[1...Int(count)], as: UTF8.self))
            }
            return
        }
        guard let channel = source.profile.channel(of: characteristic) else {
            source.auxiliary(value, from: characteristic.characteristic, arrivalTime: arrivalTime, ppg: &ppg)
            return
        }
        try? decoder.decode(value, channel: channel, arrivalTime: arrivalTime, into: writer)
        source.received(decoder.statistics)
    }

    func transport(didChange event: LinkEvent) {
        if case .linkLost = event { writer.noteLinkLoss() }
        if case .serviceVanished = event { writer.noteLinkLoss() }
        source.linkChanged(event)
    }
}
