import AxonDevices
import AxonStreams

/// The OpenBCI Ganglion's impedance check over any ``AxonDevices/DeviceTransport`` (BlueZ), without a stream:
/// ``start()`` opens the transport with notifications on the receive characteristic and writes `z`; the firmware
/// then stops any data stream and measures channel 1, 2, 3, 4 and the reference in turn (≈0.5 s each), sending one
/// packet 201–205 per measurement (``GanglionPacket/impedance(channel:value:)``, kΩ of the electrode in series with
/// the driven ground). ``stop()`` writes `Z` and closes.
///
/// The Ganglion resets when a connection opens, so after a link loss the check is off again: each
/// ``AxonDevices/LinkEvent/ready`` after the first is counted, and ``resumeIfReconnected()`` (called by the owner on
/// ``Event/linkReady``) writes `z` again.
///
/// Each reading and each `ready` is also an ``Event`` on ``events``, so an owner waits for them instead of polling
/// ``state()``; ``finishEvents()`` (any thread: a deadline, a signal) or ``stop()`` ends the sequence.
///
/// Threading contract: `start`, `resumeIfReconnected` and `stop` from one task; notifications are decoded on the
/// transport's delivery thread; ``state()``, ``events`` and ``finishEvents()`` from any thread.
public final class GanglionImpedanceCheck: Sendable {
    /// What the check reports as it happens.
    public enum Event: Sendable, Hashable {
        /// An impedance packet was decoded; the state just after it.
        case reading(GanglionImpedanceState)
        /// The link is ready (the first connection, or a reconnection: call ``resumeIfReconnected()``).
        case linkReady
    }

    /// The transport.
    public let transport: any DeviceTransport
    /// Readings and link events as they arrive, in order; one consumer. Ends with ``finishEvents()`` or ``stop()``.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let shared = ThreadLocked(GanglionImpedanceState())

    /// A check of the board behind `transport`.
    public init(transport: any DeviceTransport) {
        self.transport = transport
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Ends ``events`` (the check itself goes on until ``stop()``). Any thread; idempotent.
    public func finishEvents() { continuation.finish() }

    /// The readings so far. Any thread.
    public func state() -> GanglionImpedanceState { shared.withLock { $0 } }

    /// Opens the transport and writes `z`.
    public func start() async throws(TransportError) {
        try await transport.open(notifications: [GanglionSource.receive], receiver: Receiver(check: self))
        try await command("z")
        shared.withLock { $0.readyAtLastStart = $0.readyEvents }
    }

    /// Writes `z` again when the link came back since the last `z` (the board reset). Returns whether it did.
    @discardableResult
    public func resumeIfReconnected() async -> Bool {
        let due = shared.withLock { state -> Bool in
            guard state.readyEvents > state.readyAtLastStart else { return false }
            state.readyAtLastStart = state.readyEvents
            return true
        }
        guard due else { return false }
        do { try await command("z") } catch {
            // The link went again: the next `ready` asks once more.
            shared.withLock { $0.readyAtLastStart -= 1 }
            return false
        }
        return true
    }

    /// Writes `Z` (ends the check; the firmware restarts a stream the check stopped) and closes the transport.
    public func stop() async {
        try? await command("Z")
        await transport.close()
        continuation.finish()
    }

    private func command(_ text: String) async throws(TransportError) {
        try await transport.write(Array(text.utf8), to: GanglionSource.send, withResponse: false)
        shared.withLock { $0.commandsSent = $0.commandsSent + [text] }
    }

    fileprivate func received(_ value: [UInt8]) {
        let packet: GanglionPacket
        do throws(GanglionPacketError) { packet = try GanglionPacket(bytes: value) } catch {
            shared.withLock { $0.rejected += 1 }
            return
        }
        let reading = shared.withLock { state -> GanglionImpedanceState? in
            switch packet {
            case .impedance(let channel, let value):
                var readings = state.readings
                readings[channel - 1] = value
                state.readings = readings
                state.readingCount += 1
                state.lastChannel = channel
                return state
            case .raw, .compressed:
                state.dataPackets += 1
                return nil
            }
        }
        if let reading { continuation.yield(.reading(reading)) }
    }

    fileprivate func linkChanged(_ event: LinkEvent) {
        guard case .ready = event else { return }
        shared.withLock { $0.readyEvents += 1 }
        continuation.yield(.linkReady)
    }

    /// Hands the transport's notifications and link events to the check.
    private final class Receiver: TransportReceiver, Sendable {
        let check: GanglionImpedanceCheck
        init(check: GanglionImpedanceCheck) { self.check = check }
        func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
            check.received(value)
        }
        func transport(didChange event: LinkEvent) { check.linkChanged(event) }
    }
}

/// A ``GanglionImpedanceCheck``'s readings as seen from other threads.
///
/// Threading: a value type; share freely.
public struct GanglionImpedanceState: Sendable, Hashable {
    /// The latest value per channel 1–4 and the reference (index 4), kΩ as the board sent it; `nil` before one.
    public var readings: [Int?] = [nil, nil, nil, nil, nil]
    /// Impedance packets decoded.
    public var readingCount = 0
    /// The channel (1–5) of the latest reading; 0 before one.
    public var lastChannel = 0
    /// Data packets that arrived (before the board stopped its stream for the check).
    public var dataPackets = 0
    /// Notifications that were not Ganglion packets.
    public var rejected = 0
    /// Commands written, in order.
    public var commandsSent: [String] = []
    /// `ready` link events (the first connection and each reconnection).
    public var readyEvents = 0
    /// `readyEvents` when `z` was last written.
    var readyAtLastStart = 0

    /// An empty state.
    public init() {}

    /// The readings as the GUI shows them (halved), `nil` for a channel not yet measured.
    public var electrodes: [ElectrodeImpedance?] {
        readings.enumerated().map { index, value in
            value.map { ElectrodeImpedance.ganglion(channel: index + 1, boardValue: $0) }
        }
    }
}
