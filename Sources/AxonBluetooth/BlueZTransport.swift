import AxonDevices

/// A ``AxonDevices/DeviceTransport`` over BlueZ that keeps one device streaming: it finds the device (discovering when
/// BlueZ does not know it), connects with an explicit timeout, waits for `ServicesResolved`, finds the characteristics
/// by UUID and turns their notifications on. Then it watches the link:
///
/// - `Connected` or `ServicesResolved` going false is a link loss: reported, then reconnection starts at once and
///   is retried with capped exponential back-off; on reconnection `StartNotify` is called again, and BlueZ's
///   `InProgress` (it re-subscribes existing sessions by itself) counts as success.
/// - bluetoothd leaving the bus (`NameOwnerChanged` to nobody) drops everything; when it returns the transport
///   starts over: discover, connect, subscribe.
/// - A failing connect (`le-connection-abort-by-local`, a timeout) is retried with back-off and reported, never
///   fatal after the first connection.
///
/// Every step is a ``AxonDevices/LinkEvent`` on ``events`` and, in order with the notifications, on the receiver.
///
/// Threading contract: `Sendable`; methods from any task. The link's state lives on the D-Bus owner thread, which
/// is also the receiver's delivery thread.
public final class BlueZTransport: DeviceTransport, @unchecked Sendable {
    // Sendable invariant: `link` is touched only on the owner thread; the rest is immutable.

    /// How the transport finds and keeps the device.
    public struct Configuration: Sendable, Hashable {
        /// The device's address (`C0:FF:EE:00:00:01`) or advertised name.
        public var device: String
        /// Discovery filter used when BlueZ does not know the device yet (its service UUIDs narrow the scan).
        public var discovery: DiscoveryFilter
        /// Seconds for one `Connect` call, and again for `ServicesResolved` after it.
        public var connectTimeout: Double
        /// Seconds ``open(notifications:receiver:)`` waits for the first connection before it gives up.
        public var openTimeout: Double
        /// First retry delay after a failed connect; doubles per failure up to ``maximumBackoff``.
        public var initialBackoff: Double
        /// The cap on the retry delay.
        public var maximumBackoff: Double

        public init(
            device: String, discovery: DiscoveryFilter = .init(), connectTimeout: Double = 10, openTimeout: Double = 30,
            initialBackoff: Double = 0.25, maximumBackoff: Double = 1
        ) {
            self.device = device
            self.discovery = discovery
            self.connectTimeout = connectTimeout
            self.openTimeout = openTimeout
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
        }
    }

    public let configuration: Configuration
    public let central: BluetoothCentral
    public let events: AsyncStream<LinkEvent>
    public var deviceDescription: String { configuration.device }

    /// Whether closing the transport closes ``central`` too (a transport made by ``BlueZTransportFactory``).
    public let ownsCentral: Bool

    private let link: LinkMachine

    /// A transport for one device on an open central; with `ownsCentral` its ``close()`` closes the central too.
    public init(central: BluetoothCentral, configuration: Configuration, ownsCentral: Bool = false) {
        self.central = central
        self.configuration = configuration
        self.ownsCentral = ownsCentral
        let (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self, bufferingPolicy: .bufferingNewest(4096))
        self.events = events
        self.link = LinkMachine(client: central.client, configuration: configuration, events: continuation)
    }

    public func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) async throws(TransportError) {
        let link = link
        let result: Result<Void, TransportError> = await central.onOwner { _, done in
            link.open(notifications: notifications, receiver: receiver, completion: done)
        }
        try result.get()
    }

    public func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8] {
        do { return try await central.read(characteristic, of: configuration.device) } catch { throw TransportError(error) }
    }

    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool) async throws(TransportError) {
        do { try await central.write(value, to: characteristic, of: configuration.device, withResponse: withResponse) } catch {
            throw TransportError(error)
        }
    }

    public func close() async {
        let link = link
        let _: Void = await central.onOwner { _, done in link.close(completion: done) }
        if ownsCentral { central.close() }
    }

    // MARK: - For synchronous callers

    /// ``open(notifications:receiver:)`` for a synchronous caller (a device thread), without Swift's cooperative pool.
    public func openBlocking(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) throws(TransportError) {
        let link = link
        let result: Result<Void, TransportError> = central.onOwnerBlocking { _, done in
            link.open(notifications: notifications, receiver: receiver, completion: done)
        }
        try result.get()
    }

    /// ``write(_:to:withResponse:)`` for a synchronous caller.
    public func writeBlocking(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool) throws(TransportError) {
        let selector = configuration.device
        let result: Result<Void, BluetoothError> = central.onOwnerBlocking { central, done in
            central.writeOnOwner(value, to: characteristic, of: selector, withResponse: withResponse, done)
        }
        if case .failure(let error) = result { throw TransportError(error) }
    }

    /// ``read(_:)`` for a synchronous caller.
    public func readBlocking(_ characteristic: GATTCharacteristicID) throws(TransportError) -> [UInt8] {
        let selector = configuration.device
        let result: Result<[UInt8], BluetoothError> = central.onOwnerBlocking { central, done in
            central.readOnOwner(characteristic, of: selector, done)
        }
        switch result {
        case .success(let bytes): return bytes
        case .failure(let error): throw TransportError(error)
        }
    }

    /// ``close()`` for a synchronous caller.
    public func closeBlocking() {
        let link = link
        let _: Void = central.onOwnerBlocking { _, done in link.close(completion: done) }
        if ownsCentral { central.close() }
    }

    /// How many connection attempts have been made so far (for reports).
    public var connectionAttempts: Int {
        get async {
            let link = link
            return await central.onOwner { _, done in done(link.totalAttempts) }
        }
    }
}

extension BlueZTransport: DevicePairing {
    /// BlueZ's `Paired` property of the device.
    public func isPaired() async -> Bool {
        await central.isPaired(configuration.device) ?? false
    }

    /// `Device1.Pair` on the device (BlueZ connects first when it must).
    public func pair() async throws(TransportError) {
        do { try await central.pair(configuration.device, timeout: max(30, configuration.connectTimeout)) } catch {
            throw TransportError(error)
        }
    }

    /// Closes the transport's link, then `Adapter1.RemoveDevice`: BlueZ disconnects the device and forgets its
    /// pairing. A device BlueZ no longer knows is forgotten already.
    public func unpair() async throws(TransportError) {
        await close()
        do { try await central.removeDevice(configuration.device) } catch .unknownDevice { return } catch {
            throw TransportError(error)
        }
    }
}

extension TransportError {
    init(_ error: BluetoothError) {
        switch error {
        case .unknownDevice(let selector): self = .deviceNotFound(selector)
        case .characteristicMissing(let what): self = .operationFailed("the device has no characteristic \(what)")
        case .bluez("org.bluez.Error.NotConnected", _): self = .notConnected
        default: self = .operationFailed(error.description, cause: error)
        }
    }
}

/// The transport's state machine, on the owner thread.
private final class LinkMachine: @unchecked Sendable {
    // Sendable invariant: confined to the D-Bus owner thread.
    enum Phase: Equatable { case idle, waitingForService, searching, connecting, resolving, subscribing, streaming, retrying, closed }

    let client: BlueZClient
    let configuration: BlueZTransport.Configuration
    let events: AsyncStream<LinkEvent>.Continuation
    var phase = Phase.idle
    var receiver: (any TransportReceiver)?
    var wanted: [GATTCharacteristicID] = []
    var subscriptions: [(path: String, handler: Int)] = []
    var devicePath: String?
    var attempt = 0
    var totalAttempts = 0
    var observer: Int?
    var retryTimer: Int?
    var openTimer: Int?
    var openCompletion: ((Result<Void, TransportError>) -> Void)?
    /// Bumped whenever the machine starts over, so callbacks of an abandoned attempt do nothing.
    var generation = 0

    init(client: BlueZClient, configuration: BlueZTransport.Configuration, events: AsyncStream<LinkEvent>.Continuation) {
        self.client = client
        self.configuration = configuration
        self.events = events
    }

    func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver, completion: @escaping (Result<Void, TransportError>) -> Void) {
        guard phase == .idle else { return completion(.failure(.operationFailed("the transport is already open"))) }
        self.receiver = receiver
        wanted = notifications
        openCompletion = completion
        observer = client.observe { [self] change in handle(change) }
        client.bus.onDisconnect { [self] in
            if client.bus.ending == .lost {
                // The bus itself went away (dbus-daemon killed or restarted): say so before the stream ends.
                emit(.error("the D-Bus connection was lost (the bus daemon went away); the transport is closed"))
            }
            finishOpen(.failure(.closed))
            emit(.closed)
            events.finish()
        }
        openTimer = client.bus.schedule(after: configuration.openTimeout) { [self] in
            guard openCompletion != nil else { return }
            let reason = devicePath == nil ? TransportError.deviceNotFound(configuration.device)
                : .connectFailed("no connection within \(configuration.openTimeout) s")
            finishOpen(.failure(reason))
            shutDown()
        }
        if client.serviceOwner == nil {
            phase = .waitingForService
            emit(.serviceVanished)
        } else {
            locate()
        }
    }

    func close(completion: @escaping (()) -> Void) {
        guard phase != .closed else { return completion(()) }
        let paths = subscriptions.map(\.path)
        let device = devicePath
        let wasConnected = device.flatMap { client.tree.devices[$0]?.isConnected } ?? false
        shutDown()
        finishOpen(.failure(.closed))
        for path in paths { client.stopNotify(path: path) }
        if let device, wasConnected {
            client.disconnect(devicePath: device) { _ in completion(()) }
        } else {
            completion(())
        }
    }

    private func shutDown() {
        generation += 1
        phase = .closed
        if let observer { client.removeObserver(observer) }
        observer = nil
        for subscription in subscriptions { client.removeValueHandler(subscription.handler, path: subscription.path) }
        subscriptions.removeAll()
        if let retryTimer { client.bus.cancelTimer(retryTimer) }
        if let openTimer { client.bus.cancelTimer(openTimer) }
        emit(.closed)
        events.finish()
        receiver = nil
    }

    private func emit(_ event: LinkEvent) {
        guard phase != .closed || event == .closed else { return }
        events.yield(event)
        receiver?.transport(didChange: event)
    }

    private func finishOpen(_ result: Result<Void, TransportError>) {
        guard let completion = openCompletion else { return }
        openCompletion = nil
        if let openTimer { client.bus.cancelTimer(openTimer) }
        openTimer = nil
        completion(result)
    }

    // MARK: - Steps

    private func locate() {
        generation += 1
        if let device = client.tree.device(matching: configuration.device) {
            devicePath = device.path
            return connectAttempt()
        }
        phase = .searching
        let generation = generation
        client.startDiscovery(configuration.discovery) { [self] result in
            guard generation == self.generation else { return }
            switch result {
            case .success: emit(.scanning(true))
            case .failure(let error): scheduleRetry(reason: "cannot discover: \(error)")
            }
        }
    }

    private func connectAttempt() {
        guard let devicePath else { return locate() }
        attempt += 1
        totalAttempts += 1
        phase = .connecting
        emit(.connecting(attempt: attempt))
        let generation = generation
        client.connect(devicePath: devicePath, timeout: configuration.connectTimeout) { [self] result in
            guard generation == self.generation else { return }
            if case .failure(let error) = result { return scheduleRetry(reason: error.description) }
            emit(.connected)
            phase = .resolving
            client.waitForServicesResolved(devicePath: devicePath, timeout: configuration.connectTimeout) { [self] resolved in
                guard generation == self.generation else { return }
                guard resolved else { return scheduleRetry(reason: "services not resolved") }
                emit(.servicesResolved)
                subscribe(devicePath: devicePath)
            }
        }
    }

    private func subscribe(devicePath: String) {
        phase = .subscribing
        for subscription in subscriptions { client.removeValueHandler(subscription.handler, path: subscription.path) }
        subscriptions.removeAll()
        var found: [(GATTCharacteristicID, String)] = []
        for id in wanted {
            guard let characteristic = client.tree.characteristic(id, underDevice: devicePath) else {
                emit(.characteristicMissing(id))
                if openCompletion != nil {
                    finishOpen(.failure(.characteristicMissing(id)))
                    shutDown()
                } else {
                    scheduleRetry(reason: "characteristic \(id) missing")
                }
                return
            }
            found.append((id, characteristic.path))
        }
        for (id, path) in found {
            let handler = client.onValue(ofCharacteristic: path) { [weak self] value, arrival in
                self?.receiver?.transport(didReceive: value, from: id, arrivalTime: arrival)
            }
            subscriptions.append((path, handler))
        }
        let generation = generation
        var remaining = found.count
        guard remaining > 0 else { return becomeReady() }
        for (id, path) in found {
            client.startNotify(path: path) { [self] result in
                guard generation == self.generation, phase == .subscribing else { return }
                switch result {
                case .success:
                    emit(.notifying(id))
                    remaining -= 1
                    if remaining == 0 { becomeReady() }
                case .failure(let error):
                    remaining = -1
                    scheduleRetry(reason: "StartNotify: \(error)")
                }
            }
        }
    }

    private func becomeReady() {
        phase = .streaming
        attempt = 0
        emit(.ready)
        finishOpen(.success(()))
    }

    private func scheduleRetry(reason: String) {
        guard phase != .closed else { return }
        generation += 1
        phase = .retrying
        let delay = min(configuration.maximumBackoff, configuration.initialBackoff * Double(1 << min(20, max(0, attempt - 1))))
        emit(.connectFailed(reason: reason, retryIn: delay))
        let generation = generation
        retryTimer = client.bus.schedule(after: delay) { [self] in
            guard generation == self.generation else { return }
            locate()
        }
    }

    private func linkLost(_ reason: String) {
        generation += 1
        if let retryTimer { client.bus.cancelTimer(retryTimer) }
        emit(.linkLost(reason: reason))
        attempt = 0
        locate()
    }

    // MARK: - What BlueZ reports

    private func handle(_ change: BlueZClient.Change) {
        switch change {
        case .deviceAppeared(let device), .deviceChanged(let device, _):
            if phase == .searching, matchesSelector(device) {
                devicePath = device.path
                generation += 1
                client.stopDiscovery()
                emit(.scanning(false))
                emit(.found(name: device.displayName, address: device.address))
                return connectAttempt()
            }
            guard device.path == devicePath else { return }
            if phase == .streaming || phase == .subscribing, !device.isConnected || !device.servicesResolved {
                linkLost(device.isConnected ? "services no longer resolved" : "disconnected")
            }
        case .deviceRemoved(let path, _):
            guard path == devicePath else { return }
            devicePath = nil
            if phase == .streaming || phase == .subscribing { linkLost("device removed") }
        case .serviceVanished:
            guard phase != .closed else { return }
            let wasStreaming = phase == .streaming || phase == .subscribing
            generation += 1
            if let retryTimer { client.bus.cancelTimer(retryTimer) }
            devicePath = nil
            phase = .waitingForService
            if wasStreaming { emit(.linkLost(reason: "bluetoothd left the bus")) }
            emit(.serviceVanished)
        case .serviceReturned:
            guard phase == .waitingForService else { return }
            emit(.serviceReturned)
            attempt = 0
            locate()
        case .discovering:
            break
        }
    }

    private func matchesSelector(_ device: BluetoothDeviceInfo) -> Bool {
        device.address.uppercased() == configuration.device.uppercased() || device.name == configuration.device
            || device.alias == configuration.device
    }
}
