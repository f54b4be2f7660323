import AxonDevices
import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// An OpenBCI Ganglion over any ``AxonDevices/DeviceTransport`` (BlueZ) as a `SampleSource`: 4 channels in µV at
/// 200 Hz (`EXG0`…`EXG3`), rebuilt by ``GanglionDecoder`` with the packet id as device counter, so lost packets are
/// gap records.
///
/// `run` opens the transport with notifications on the receive characteristic, writes `b` to the send
/// characteristic, and waits until the pipeline asks it to stop; then it writes `s` and closes the transport. A link
/// loss marks the stream (`FrameWriter.noteLinkLoss()`); the Ganglion resets when its connection is opened, so
/// `b` is written again once the transport is back.
///
/// Impedance: ``checkImpedance(_:)`` asks `run` to write `z` (start) or `Z` (stop); the board then stops its stream
/// and sends packets 201–205 (channels 1–4 and the reference) whose ASCII values (kΩ of the electrode in series with
/// D_G) land in ``GanglionSourceState/impedance`` as the board sent them, with a count per reading; `Z` restarts the
/// stream. ``GanglionImpedanceCheck`` runs the check without a stream, as `axon impedance` does.
///
/// Threading contract: `run` on the pipeline's source thread (it writes the commands); notifications are decoded on
/// the transport's delivery thread, the stream's single producer. ``state()`` from any thread.
public final class GanglionSource: SampleSource, Sendable {
    /// The stream: EEG in µV at 200 Hz.
    public let descriptor: StreamDescriptor
    /// The transport.
    public let transport: any DeviceTransport
    /// Gap detection from the packet id: ``GanglionDecoder/counterModulus``.
    public var timelineConfiguration: StreamTimeline.Configuration {
        .init(counterModulus: GanglionDecoder.counterModulus)
    }

    static let receive = GATTCharacteristicID(
        service: BluetoothUUID(stringLiteral: GanglionPacket.service),
        characteristic: BluetoothUUID(stringLiteral: GanglionPacket.receive))
    static let send = GATTCharacteristicID(
        service: BluetoothUUID(stringLiteral: GanglionPacket.service),
        characteristic: BluetoothUUID(stringLiteral: GanglionPacket.send))

    private let shared = ThreadLocked(GanglionSourceState())
    /// The writer of the running stream, so commands and reconnections can wake the source's thread.
    private let running = ThreadLocked<FrameWriter?>(nil)

    /// A source for the board behind `transport`.
    public init(transport: any DeviceTransport, sourceID: String? = nil) {
        self.transport = transport
        let fullScale = 1.2e6 / (1.5 * 51)
        descriptor = StreamDescriptor(
            name: "OpenBCI Ganglion", contentType: .eeg,
            channels: (0..<4).map { ChannelInfo(label: "EXG\($0)", unit: "µV", range: -fullScale...fullScale) },
            nominalRate: GanglionPacket.sampleRate, format: .float32,
            sourceID: sourceID ?? "ganglion-\(transport.deviceDescription)", metadata: ["device": "OpenBCI Ganglion"])
    }

    /// The decoder's counts. Any thread.
    public func state() -> GanglionSourceState { shared.withLock { $0 } }

    /// Starts (`z`) or stops (`Z`) the board's impedance check; `run` writes the command on its thread within
    /// 10 ms. Any thread.
    public func checkImpedance(_ on: Bool) {
        // A new array each time (here and below): a snapshot another thread holds never shares a buffer that is
        // then written in place (ThreadSanitizer cannot see Swift's reference counts order the two).
        shared.withLock { $0.pendingCommands = $0.pendingCommands + [on ? "z" : "Z"] }
        running.withLock { $0 }?.interruptWait()
    }

    /// Streams until the pipeline asks it to stop.
    public func run(into writer: FrameWriter) throws {
        let receiver = GanglionReceiver(source: self, writer: writer)
        try transport.openBlocking(notifications: [Self.receive], receiver: receiver)
        defer { transport.closeBlocking() }
        try command("b")
        running.withLock { $0 = writer }
        defer { running.withLock { $0 = nil } }
        // Samples arrive on the transport's thread; this one sleeps until a command is queued, a reconnection asks
        // for the stream to be started again, or the pipeline asks it to stop.
        repeat {
            if shared.withLock({ state in
                defer { state.restartPending = false }
                return state.restartPending
            }) {
                try? command("b")
            }
            for pending in shared.withLock({ state in
                defer { state.pendingCommands = [] }
                return state.pendingCommands
            }) {
                try? command(pending)
            }
        } while !writer.waitForStopRequest()
        try? command("s")
    }

    private func command(_ text: String) throws {
        try transport.writeBlocking(Array(text.utf8), to: Self.send, withResponse: false)
        shared.withLock { $0.commandsSent = $0.commandsSent + [text] }
    }

    fileprivate func update(_ decoder: GanglionDecoder, rejected: Bool) {
        shared.withLock { state in
            state.packets = decoder.packets
            state.frames = decoder.frames
            state.lostPackets = decoder.lostPackets
            state.packetsWithoutReference = decoder.packetsWithoutReference
            state.impedance = decoder.impedance
            state.impedanceReadings = decoder.impedanceReadings
            state.accelerometer = decoder.accelerometer
            if rejected { state.rejected += 1 }
        }
    }

    fileprivate func linkChanged(_ event: LinkEvent) {
        guard case .ready = event else { return }
        let restart = shared.withLock { state -> Bool in
            if !state.commandsSent.isEmpty { state.restartPending = true }
            return state.restartPending
        }
        if restart { running.withLock { $0 }?.interruptWait() }
    }
}

/// A ``GanglionSource``'s state as seen from other threads.
///
/// Threading: a value type; share freely.
public struct GanglionSourceState: Sendable, Hashable {
    /// Notifications decoded.
    public var packets = 0
    /// Frames written.
    public var frames = 0
    /// Compressed packets missing by their ids.
    public var lostPackets = 0
    /// Compressed packets dropped for want of a raw reference packet.
    public var packetsWithoutReference = 0
    /// Notifications that were not Ganglion packets.
    public var rejected = 0
    /// The latest impedance readings (channels 1–4, reference), as the board sent them.
    public var impedance: [Int?] = [nil, nil, nil, nil, nil]
    /// Impedance packets decoded.
    public var impedanceReadings = 0
    /// The latest accelerometer counts X, Y, Z.
    public var accelerometer: [Int8] = [0, 0, 0]
    /// Commands written, in order.
    public var commandsSent: [String] = []
    /// A reconnection is waiting for `b`.
    var restartPending = false
    /// Commands ``GanglionSource/checkImpedance(_:)`` asked for, not yet written.
    var pendingCommands: [String] = []

    /// An empty state.
    public init() {}
}

/// Decodes on the transport's delivery thread into the stream.
private final class GanglionReceiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: used only on the transport's delivery thread (one at a time).
    let source: GanglionSource
    let writer: FrameWriter
    let decoder = GanglionDecoder()

    init(source: GanglionSource, writer: FrameWriter) {
        self.source = source
        self.writer = writer
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        var rejected = false
        do throws(GanglionPacketError) {
            try decoder.decode(value, arrivalTime: arrivalTime, into: writer)
        } catch { rejected = true }
        source.update(decoder, rejected: rejected)
    }

    func transport(didChange event: LinkEvent) {
        if case .linkLost = event { writer.noteLinkLoss() }
        if case .serviceVanished = event { writer.noteLinkLoss() }
        source.linkChanged(event)
    }
}
