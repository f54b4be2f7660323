import AxonDevices
import AxonStreams
import Dispatch
import Foundation
import Synchronization

/// A ``BlueZTransport`` that outlives its D-Bus connection.
///
/// A ``BlueZTransport`` rides out link losses and bluetoothd restarts on one bus connection; when the bus daemon
/// itself goes away (killed, restarted with the system) that connection is gone for good. This transport then
/// reports a ``AxonDevices/LinkEvent/linkLost(reason:)`` — so a source marks a gap, exactly as for a radio link loss —
/// and, on a thread of its own, connects to the same bus address again (whatever its server's guid now) with capped
/// exponential back-off. Once the bus is
/// back it opens a new central and a new ``BlueZTransport`` to the device with the same notifications and receiver
/// (which waits for bluetoothd to return and the device to connect), and the stream resumes.
///
///     let transport = try await BusRecoveringTransport.open(
///         bus: .system, device: .init(device: "Brainiac-0001", discovery: DiscoveryFilter(serviceUUIDs: [service])))
///
/// Every event of the current transport is passed on (``events`` and the receiver); the current transport's
/// `closed` after a lost bus is replaced by the link loss, and ``AxonDevices/LinkEvent/closed`` comes once, from
/// ``close()``.
///
/// Threading contract: `Sendable`; methods from any task or thread. Notifications and link events reach the
/// receiver on the current bus connection's owner thread; the recovery runs on its own thread, which ``close()``
/// stops and joins.
public final class BusRecoveringTransport: DeviceTransport, @unchecked Sendable {
    // Sendable invariant: mutable state is inside `state` (a ThreadLocked) or atomic; the rest is immutable.

    /// How the transport reaches the bus and the device, and how it retries.
    public struct Configuration: Sendable {
        /// The bus to reconnect to.
        public var bus: BusConnection.Address
        /// The device and how each ``BlueZTransport`` finds it.
        public var device: BlueZTransport.Configuration
        /// First delay before reconnecting to the bus; doubles per failure up to ``maximumBackoff``.
        public var initialBackoff: Double
        /// The cap on that delay.
        public var maximumBackoff: Double

        /// Creates a configuration.
        public init(
            bus: BusConnection.Address, device: BlueZTransport.Configuration, initialBackoff: Double = 0.1,
            maximumBackoff: Double = 2
        ) {
            self.bus = bus
            self.device = device
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
        }
    }

    /// The settings.
    public let configuration: Configuration
    public let events: AsyncStream<LinkEvent>
    public var deviceDescription: String { configuration.device.device }

    /// The central of the current bus connection (a new one after each recovery).
    public var central: BluetoothCentral { state.withLock { $0.transport.central } }

    /// Times the bus was lost and connected to again.
    public var recoveries: Int { state.withLock { $0.recoveries } }

    private struct State {
        var transport: BlueZTransport
        /// Bumped with each new transport: events of an abandoned one are ignored.
        var generation = 0
        var receiver: (any TransportReceiver)?
        var notifications: [GATTCharacteristicID] = []
        /// Signalled when the recovery thread under way ends.
        var recovering: DispatchSemaphore?
        var recoveries = 0
        var closed = false
    }

    private let state: ThreadLocked<State>
    /// The generation whose notifications pass, -1 once closed: read per notification without the lock.
    private let liveGeneration = Atomic<Int>(0)
    private let continuation: AsyncStream<LinkEvent>.Continuation
    private let stopSignal = DispatchSemaphore(value: 0)

    /// A transport on an open central (of `configuration.bus`).
    public init(central: BluetoothCentral, configuration: Configuration) {
        self.configuration = configuration
        (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self, bufferingPolicy: .bufferingNewest(4096))
        state = ThreadLocked(State(transport: BlueZTransport(central: central, configuration: configuration.device)))
    }

    /// Opens a central on `bus` and a transport for `device`.
    ///
    /// - Throws: ``BluetoothError`` when the bus cannot be reached or BlueZ's objects cannot be loaded.
    public static func open(bus: BusConnection.Address, device: BlueZTransport.Configuration) async throws(BluetoothError)
        -> BusRecoveringTransport
    {
        let central = try await BluetoothCentral.open(bus: bus)
        return BusRecoveringTransport(central: central, configuration: .init(bus: bus, device: device))
    }

    public func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) async throws(TransportError) {
        let (transport, relay) = try prepareOpen(notifications: notifications, receiver: receiver)
        try await transport.open(notifications: notifications, receiver: relay)
    }

    public func openBlocking(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) throws(TransportError) {
        let (transport, relay) = try prepareOpen(notifications: notifications, receiver: receiver)
        try transport.openBlocking(notifications: notifications, receiver: relay)
    }

    public func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8] {
        try await current().read(characteristic)
    }

    public func readBlocking(_ characteristic: GATTCharacteristicID) throws(TransportError) -> [UInt8] {
        try current().readBlocking(characteristic)
    }

    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        async throws(TransportError)
    {
        try await current().write(value, to: characteristic, withResponse: withResponse)
    }

    public func writeBlocking(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        throws(TransportError)
    {
        try current().writeBlocking(value, to: characteristic, withResponse: withResponse)
    }

    public func close() async { closeBlocking() }

    /// Stops a recovery under way, closes the current transport and ends the events with `closed`.
    public func closeBlocking() {
        let (transport, recovering) = state.withLock { state -> (BlueZTransport?, DispatchSemaphore?) in
            guard !state.closed else { return (nil, nil) }
            state.closed = true
            return (state.transport, state.recovering)
        }
        guard let transport else { return }
        liveGeneration.store(-1, ordering: .releasing)
        stopSignal.signal()
        transport.closeBlocking()
        recovering?.wait()
        let receiver = state.withLock { state -> (any TransportReceiver)? in
            defer { state.receiver = nil }
            return state.receiver
        }
        receiver?.transport(didChange: .closed)
        continuation.yield(.closed)
        continuation.finish()
    }

    // MARK: - Internals

    private func prepareOpen(notifications: [GATTCharacteristicID], receiver: any TransportReceiver)
        throws(TransportError) -> (BlueZTransport, Relay)
    {
        let opened = state.withLock { state -> (BlueZTransport, Int)? in
            guard !state.closed, state.receiver == nil else { return nil }
            state.receiver = receiver
            state.notifications = notifications
            return (state.transport, state.generation)
        }
        guard let opened else { throw .operationFailed("the transport is closed or already open") }
        return (opened.0, Relay(owner: self, receiver: receiver, generation: opened.1))
    }

    private func current() throws(TransportError) -> BlueZTransport {
        guard let transport = state.withLock({ $0.closed ? nil : $0.transport }) else { throw .closed }
        return transport
    }

    /// Passes on one event of transport `generation`; a `closed` after a lost bus starts the recovery instead.
    fileprivate func relay(_ event: LinkEvent, generation: Int) {
        let (receiver, busLost) = state.withLock { state -> ((any TransportReceiver)?, Bool) in
            guard generation == state.generation, !state.closed else { return (nil, false) }
            let lost = event == .closed && state.transport.central.bus.ending == .lost
            return (state.receiver, lost)
        }
        guard let receiver else { return }
        if busLost {
            let loss = LinkEvent.linkLost(reason: "the D-Bus connection was lost; reconnecting to the bus")
            receiver.transport(didChange: loss)
            continuation.yield(loss)
            startRecovery()
        } else if event != .closed {
            receiver.transport(didChange: event)
            continuation.yield(event)
        }
    }

    fileprivate func passes(_ generation: Int) -> Bool { liveGeneration.load(ordering: .acquiring) == generation }

    private func startRecovery() {
        state.withLock { current in
            guard !current.closed, current.recovering == nil else { return }
            let done = DispatchSemaphore(value: 0)
            let thread = Thread { [self] in
                recover()
                state.withLock { $0.recovering = nil }
                done.signal()
            }
            thread.name = "axon-bus-recovery"
            current.recovering = done
            thread.start()
        }
    }

    /// The recovery thread: waits, reconnects to the bus, opens a new transport; until one opens or `close()`.
    private func recover() {
        state.withLock { $0.transport }.central.close()
        var delay = configuration.initialBackoff
        while stopSignal.wait(timeout: .now() + delay) == .timedOut {
            let central: BluetoothCentral
            do {
                central = try BluetoothCentral.openBlocking(bus: configuration.bus.anyServer)
            } catch {
                emit(.connectFailed(reason: "the bus: \(error)", retryIn: min(delay * 2, configuration.maximumBackoff)))
                delay = min(delay * 2, configuration.maximumBackoff)
                continue
            }
            let transport = BlueZTransport(central: central, configuration: configuration.device)
            let installed = state.withLock { state -> (Int, [GATTCharacteristicID])? in
                guard !state.closed else { return nil }
                state.generation += 1
                state.transport = transport
                liveGeneration.store(state.generation, ordering: .releasing)
                return (state.generation, state.notifications)
            }
            guard let (generation, notifications) = installed, let receiver = state.withLock({ $0.receiver }) else {
                central.close()
                return
            }
            do {
                try transport.openBlocking(
                    notifications: notifications, receiver: Relay(owner: self, receiver: receiver, generation: generation))
                state.withLock { $0.recoveries += 1 }
                return
            } catch {
                central.close()
                if state.withLock({ $0.closed }) { return }
                emit(.connectFailed(reason: "\(error)", retryIn: delay))
            }
        }
    }

    private func emit(_ event: LinkEvent) {
        guard let receiver = state.withLock({ $0.closed ? nil : $0.receiver }) else { return }
        receiver.transport(didChange: event)
        continuation.yield(event)
    }
}

/// Hands one transport generation's notifications to the receiver (while that generation is the live one) and its
/// events to its ``BusRecoveringTransport``.
private final class Relay: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: immutable.
    weak var owner: BusRecoveringTransport?
    let receiver: any TransportReceiver
    let generation: Int

    init(owner: BusRecoveringTransport, receiver: any TransportReceiver, generation: Int) {
        self.owner = owner
        self.receiver = receiver
        self.generation = generation
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        guard owner?.passes(generation) == true else { return }
        receiver.transport(didReceive: value, from: characteristic, arrivalTime: arrivalTime)
    }

    func transport(didChange event: LinkEvent) { owner?.relay(event, generation: generation) }
}
