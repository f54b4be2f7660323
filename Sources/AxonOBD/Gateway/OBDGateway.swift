import AxonDevices
import AxonStreams
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Danlaw SmartConnect gateway's semantics over an ELM327 dongle: access validation, scan and connect by name,
/// a favourite device reconnected automatically, basic PID reads, continuous updates of up to 5 standard PIDs per
/// request id as numeric streams, driving events, and event batches with acknowledgement.
///
///     let gateway = OBDGateway(validator: LocalKeyValidator(keys: ["k-1": "*"]))
///     guard gateway.authenticate(apiKey: "k-1", issuedTo: "axon").isSuccess else { return }
///     let device = try gateway.connect(.tcp(host: "127.0.0.1", port: 35000))
///     gateway.setFavorite(device)
///     let speed = try gateway.readBasic(pid: 0x0D)                             // readBasicPidData
///     try gateway.registerDataPIDs(requestID: 1, pids: [0x0D, 0x0C], rate: 5, sinks: [csv])   // registerDataPid
///     Task { for await change in gateway.status { print(change) } }
///
/// | seed (`DLGatewayInterface`) | here |
/// |---|---|
/// | `validateToken` → `onAuthenticationResult` | ``authenticate(apiKey:issuedTo:)`` → ``OBDAuthenticationResult`` |
/// | `startScan` → `onOBDDeviceFound` | ``scan(_:)`` → ``OBDDevice``s |
/// | `connect(name:)` | ``connect(name:)``, ``connect(_:)`` |
/// | `setFavoriteDevice`, `forgetDevice` | ``setFavorite(_:)``, ``forgetDevice()`` |
/// | `readBasicPidData` → `onBasicDataReceived` | ``readBasic(pid:)`` → ``OBDReading`` or a typed error |
/// | `registerDataPid`, `unregisterDataPid` | ``registerDataPIDs(requestID:pids:rate:sinks:)``, ``unregisterDataPIDs(requestID:)``, ``unregisterDataPIDs(requestID:pids:)`` |
/// | `registerEventPid`, `onEventPidDataReceived` | ``registerEvents(_:)``, ``events`` |
/// | `onParsedUDPDataReceived`, `setAutoAcknowledgement`, `udpPacketReceivedAcknowledgement` | ``batches``, ``setAutoAcknowledgement(_:)``, ``acknowledge(_:)`` |
/// | events preconfigured in the datalogger, logged whether or not an app listens | ``startEventLogging(_:)``, ``OBDLogger`` |
/// | basic channel: "executes each PIDs in sequential order" | ``readBasic(pid:)``, a FIFO of ``maximumQueuedBasicReads`` |
///
/// Threading contract: `Sendable`; every method may be called from any thread. Calls that talk to the dongle block
/// their caller until the answer (bounded by the request timeout); all dongle traffic — basic reads, every
/// registration's polls, the event poller — goes through one ``ELM327Client``, one request in flight at a time.
/// Continuous registrations and the event poller run on threads of their own; reconnection runs on another.
/// ``status``, ``events`` and ``batches`` are async sequences with one consumer each.
///
/// Lifetime: call ``disconnect()`` when done — it stops the poller threads and closes the registrations' sinks (a file
/// sink writes its end). A reconnection loop in progress keeps the gateway alive until ``disconnect()`` or
/// ``forgetDevice()``.
public final class OBDGateway: Sendable {
    /// Settings of a gateway.
    public struct Configuration: Sendable {
        /// Seconds a request waits for its answer.
        public var requestTimeout: Double
        /// Seconds the reset and the first request wait (protocol search).
        public var connectTimeout: Double
        /// The first reconnection back-off in seconds; it doubles up to ``maximumBackoff``.
        public var initialBackoff: Double
        /// The longest reconnection back-off in seconds.
        public var maximumBackoff: Double
        /// Hertz at which the event poller reads vehicle speed while events are registered.
        public var eventPollRate: Double
        /// The hard-braking and hard-acceleration thresholds.
        public var detector: DrivingEventDetector.Configuration
        /// The over-speed, high-RPM, idle and engine thresholds.
        public var vehicleState: VehicleStateDetector.Configuration
        /// Seconds between two reads of the stored trouble codes' count while ``OBDEventKind/newTroubleCode`` is
        /// registered.
        public var troubleCodePollSeconds: Double

        /// Creates a configuration.
        public init(
            requestTimeout: Double = 2, connectTimeout: Double = 10, initialBackoff: Double = 0.25,
            maximumBackoff: Double = 4, eventPollRate: Double = 5,
            detector: DrivingEventDetector.Configuration = .init(),
            vehicleState: VehicleStateDetector.Configuration = .init(), troubleCodePollSeconds: Double = 5
        ) {
            self.requestTimeout = requestTimeout
            self.connectTimeout = connectTimeout
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.eventPollRate = eventPollRate
            self.detector = detector
            self.vehicleState = vehicleState
            self.troubleCodePollSeconds = troubleCodePollSeconds
        }
    }

    /// The most PIDs one continuous registration may hold (the seed's limit).
    public static let maximumRegisteredPIDs = 5
    /// The most event kinds registered at once (the seed's limit).
    public static let maximumRegisteredEvents = 5
    /// Requests in a row that may time out before the dongle is taken for lost and reconnected.
    public static let maximumConsecutiveTimeouts = 3
    /// The fastest poll rate accepted, Hz.
    public static let maximumRate = 50.0

    /// The settings.
    public let configuration: Configuration
    /// Connection changes: connected, link lost, reconnection attempts, disconnected. One consumer.
    public let status: AsyncStream<OBDGatewayStatus>
    /// Driving events as they end, for the registered kinds (the seed's realtime events). One consumer.
    public let events: AsyncStream<OBDDrivingEvent>
    /// Event batches delivered on each (re)connection (the seed's UDP events). One consumer.
    public let batches: AsyncStream<OBDEventBatch>
    /// The durable event log, when one was given.
    public let eventLog: OBDEventLog?
    /// Where events get their position header, when one was given (``GPSDClient``).
    public let positionSource: (any OBDPositionSource)?
    /// Where Bluetooth LE dongles' transports come from (`AxonBluetooth.BlueZTransportFactory` in the command
    /// line); `nil`: ``OBDEndpoint/ble(device:bus:)`` endpoints cannot be opened.
    public let bluetooth: (any DeviceTransportFactory)?

    let validator: any OBDAccessValidator
    let state: ThreadLocked<GatewayState>
    let statusContinuation: AsyncStream<OBDGatewayStatus>.Continuation
    let eventContinuation: AsyncStream<OBDDrivingEvent>.Continuation
    let batchContinuation: AsyncStream<OBDEventBatch>.Continuation

    /// Creates a gateway; nothing is available until ``authenticate(apiKey:issuedTo:)`` succeeds.
    ///
    /// - Parameters:
    ///   - validator: decides on access (``LocalKeyValidator`` by default in the command line).
    ///   - eventLog: where driving events are stored and batches kept; `nil`: events are published live only.
    ///   - positionSource: the GPS fix events are stamped with; `nil`: events have no position header.
    ///   - bluetooth: the transports of Bluetooth LE dongles; `nil`: only serial and TCP endpoints open.
    public init(
        validator: any OBDAccessValidator, eventLog: OBDEventLog? = nil,
        positionSource: (any OBDPositionSource)? = nil, bluetooth: (any DeviceTransportFactory)? = nil,
        configuration: Configuration = .init()
    ) {
        self.validator = validator
        self.eventLog = eventLog
        self.positionSource = positionSource
        self.bluetooth = bluetooth
        self.configuration = configuration
        (status, statusContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (batches, batchContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
        state = ThreadLocked(GatewayState())
    }

    deinit {
        statusContinuation.finish()
        eventContinuation.finish()
        batchContinuation.finish()
    }

    // MARK: - Access

    /// Validates `apiKey` with the validator; on code 200 every service becomes available.
    public func authenticate(apiKey: String, issuedTo: String) -> OBDAuthenticationResult {
        let result = validator.validate(apiKey: apiKey, issuedTo: issuedTo)
        state.withLock { $0.authenticated = result.isSuccess }
        return result
    }

    /// Whether a validation succeeded.
    public var isAuthenticated: Bool { state.withLock { $0.authenticated } }

    func requireAuthentication() throws(OBDGatewayError) {
        guard state.withLock({ $0.authenticated }) else { throw .notAuthenticated }
    }

    // MARK: - Scan, connect, favourite

    /// Serial devices where OBD dongles usually appear: `/dev/ttyUSB*`, `/dev/ttyACM*`, `/dev/rfcomm*`.
    public static func serialCandidates(baudRate: Int = 38_400) -> [OBDEndpoint] {
        let names = (try? listDirectory("/dev")) ?? []
        return names.filter { $0.hasPrefix("ttyUSB") || $0.hasPrefix("ttyACM") || $0.hasPrefix("rfcomm") }.sorted()
            .map { .serial(path: "/dev/" + $0, baudRate: baudRate) }
    }

    /// Tries each endpoint: those that answer `ATZ` with an ELM327 banner are returned (and remembered for
    /// ``connect(name:)``), named by their `AT@1` description and banner. Endpoints that do not answer are skipped.
    /// Scanning does not disturb a connection in progress, but a dongle accepts one client at a time: the connected
    /// endpoint is reported as it was found when connecting.
    ///
    /// Cost: up to ``Configuration/connectTimeout`` per silent endpoint.
    public func scan(_ endpoints: [OBDEndpoint]) throws(OBDGatewayError) -> [OBDDevice] {
        try requireAuthentication()
        let connected = state.withLock { $0.device }
        var found: [OBDDevice] = []
        for endpoint in endpoints {
            if let connected, connected.endpoint == endpoint {
                found.append(connected)
                continue
            }
            let client = ELM327Client(
                link: endpoint.makeLink(bluetooth: bluetooth), timeout: configuration.requestTimeout, slowTimeout: 3)
            defer { client.close() }
            guard let device = try? Self.identify(client, endpoint: endpoint) else { continue }
            found.append(device)
        }
        let devices = found
        state.withLock { state in
            for device in devices where !state.scanned.contains(where: { $0.identifier == device.identifier }) {
                state.scanned.append(device)
            }
        }
        return devices
    }

    /// Finds Bluetooth LE dongles nearby and returns those that answer as ELM327s (the seed's
    /// `onOBDDeviceFound(deviceName:identifier:)`, one per dongle), remembered for ``connect(name:)`` like
    /// ``scan(_:)``'s. The gateway's Bluetooth stack (``bluetooth``) must also be a ``AxonDevices/DeviceDiscovery``
    /// (BlueZ's is): it scans for `seconds` for devices advertising one of the serial-over-GATT services BLE dongles
    /// use (``BLESerialLink/Profile/known``: 0xFFF0, 0xFFE0, 0x18F0); each found is tried at `.ble(device: ADDRESS,
    /// bus:)`, so its identifier is "ble:ADDRESS" and its name the `AT@1` description and banner. A device that
    /// advertises such a service but does not answer `ATZ` (a serial module of something else) is skipped.
    ///
    /// - Throws: ``OBDGatewayError/notAuthenticated``; ``OBDGatewayError/bluetoothScan(_:)`` when the gateway has no
    ///   stack that can discover; ``OBDGatewayError/bluetoothScanFailed(_:)`` when the stack cannot scan (no bluetoothd
    ///   on `bus`).
    ///
    /// Threading: any thread but Swift's cooperative pool; blocks for the scan, then up to
    /// ``Configuration/connectTimeout`` per dongle.
    public func scanBluetooth(bus: String? = nil, seconds: Double = 5) throws(OBDGatewayError) -> [OBDDevice] {
        try requireAuthentication()
        guard let discovery = bluetooth as? any DeviceDiscovery else {
            throw .bluetoothScan(
                "the gateway's Bluetooth stack cannot discover devices (give OBDGateway a DeviceDiscovery, such as "
                    + "AxonBluetooth's BlueZTransportFactory)")
        }
        let found: [DiscoveredDevice]
        do {
            found = try discovery.discover(
                services: BLESerialLink.Profile.known.map(\.service), bus: bus, seconds: seconds)
        } catch {
            throw .bluetoothScanFailed(error)
        }
        return try scan(found.map { .ble(device: $0.address, bus: bus) })
    }

    /// Opens the client and names the device.
    static func identify(_ client: ELM327Client, endpoint: OBDEndpoint) throws(ELM327Error) -> OBDDevice {
        let banner = try client.open()
        let description = (try? client.deviceDescription()) ?? ""
        let name = description.isEmpty ? banner : "\(description) (\(banner))"
        return OBDDevice(name: name, identifier: endpoint.description, banner: banner, endpoint: endpoint)
    }

    /// Connects to a device found by ``scan(_:)``, by its name or its identifier.
    public func connect(name: String) throws(OBDGatewayError) -> OBDDevice {
        try requireAuthentication()
        guard let device = state.withLock({ $0.scanned.first { $0.name == name || $0.identifier == name } }) else {
            throw .unknownDevice(name: name)
        }
        return try connect(device.endpoint)
    }

    /// Connects to the dongle at `endpoint`: initialises it, reads the supported-PID bitmaps, publishes
    /// ``OBDGatewayStatus/connected(_:)`` and delivers the pending event batches. A previous connection is closed.
    @discardableResult
    public func connect(_ endpoint: OBDEndpoint) throws(OBDGatewayError) -> OBDDevice {
        try requireAuthentication()
        let previous = state.withLock { state -> ELM327Client? in
            defer {
                state.client = nil
                state.generation += 1
            }
            return state.client
        }
        previous?.close()
        let (client, device, supported) = try open(endpoint)
        install(client, device: device, supported: supported)
        return device
    }

    /// Opens and identifies `endpoint` and reads its supported PIDs; the client is closed on failure.
    func open(_ endpoint: OBDEndpoint) throws(OBDGatewayError) -> (ELM327Client, OBDDevice, Set<UInt8>) {
        let client = ELM327Client(
            link: endpoint.makeLink(bluetooth: bluetooth), timeout: configuration.requestTimeout, slowTimeout: configuration.connectTimeout)
        do {
            let device = try Self.identify(client, endpoint: endpoint)
            let supported = try Self.readSupportedPIDs(client)
            return (client, device, supported)
        } catch {
            client.close()
            throw .adapter(error)
        }
    }

    /// Makes `client` the connection, publishes it and delivers pending batches.
    func install(_ client: ELM327Client, device: OBDDevice, supported: Set<UInt8>) {
        state.withLock { state in
            state.client = client
            state.device = device
            state.supported = supported
            state.connectionCount += 1
            state.consecutiveTimeouts = 0
        }
        statusContinuation.yield(.connected(device))
        if state.withLock({ $0.deliversBatches }) { deliverPendingBatches() }
    }

    /// The connected device, if any.
    public var connectedDevice: OBDDevice? { state.withLock { $0.client == nil ? nil : $0.device } }

    /// How many times a connection was made (the first and every reconnection).
    public var connectionCount: Int { state.withLock { $0.connectionCount } }

    /// Makes `device` the favourite: when its link is lost the gateway reconnects to it, with back-off, until it
    /// answers again or ``forgetDevice()``. With an event log the choice is stored, so ``connectToFavorite()``
    /// finds it after a restart.
    ///
    /// - Throws: ``OBDGatewayError/store(_:)``; the favourite is set in this gateway all the same.
    public func setFavorite(_ device: OBDDevice) throws(OBDGatewayError) {
        state.withLock { $0.favorite = device }
        do { try eventLog?.storeFavorite(device) } catch { throw .store(error) }
    }

    /// The favourite device, if any.
    public var favorite: OBDDevice? { state.withLock { $0.favorite } }

    /// Forgets the favourite: no more automatic reconnection, and (with an event log) none at the next start-up.
    ///
    /// - Throws: ``OBDGatewayError/store(_:)``; the favourite is forgotten in this gateway all the same.
    public func forgetDevice() throws(OBDGatewayError) {
        state.withLock {
            $0.favorite = nil
            $0.generation += 1
        }
        do { try eventLog?.storeFavorite(nil) } catch { throw .store(error) }
    }

    /// Connects at start-up to the favourite: the one set in this gateway, else the one stored in the event log by
    /// an earlier run (the seed's "autoconnect to favorite device"). `nil` when there is none. When it does not
    /// answer, the gateway keeps trying with back-off, as after a link loss, and the error is thrown.
    ///
    /// - Throws: ``OBDGatewayError/notAuthenticated``, ``OBDGatewayError/store(_:)``,
    ///   ``OBDGatewayError/adapter(_:)`` (reconnection goes on).
    @discardableResult
    public func connectToFavorite() throws(OBDGatewayError) -> OBDDevice? {
        try requireAuthentication()
        var chosen = favorite
        if chosen == nil {
            do { chosen = try eventLog?.storedFavorite() } catch { throw .store(error) }
        }
        guard let chosen else { return nil }
        let generation = state.withLock { state -> Int in
            state.favorite = chosen
            return state.generation
        }
        do {
            return try connect(chosen.endpoint)
        } catch {
            let start = state.withLock { state -> Int? in
                guard state.generation == generation + 1, !state.reconnecting, state.client == nil else { return nil }
                state.reconnecting = true
                return state.generation
            }
            if let start { startReconnecting(to: chosen, generation: start) }
            throw error
        }
    }

    /// Stops every registration and the event poller, closes the connection and publishes
    /// ``OBDGatewayStatus/disconnected``. Reconnection stops too.
    public func disconnect() {
        let (registrations, poller, client) = state.withLock { state in
            defer {
                state.registrations = [:]
                state.eventPoller = nil
                state.eventKinds = []
                state.loggedKinds = []
                state.client = nil
                state.generation += 1
            }
            return (Array(state.registrations.values), state.eventPoller, state.client)
        }
        for registration in registrations { registration.stop() }
        poller?.stop()
        client?.close()
        statusContinuation.yield(.disconnected)
    }
}

/// The gateway's mutable state, guarded by its mutex.
struct GatewayState {
    var authenticated = false
    var client: ELM327Client?
    var device: OBDDevice?
    var favorite: OBDDevice?
    var scanned: [OBDDevice] = []
    var supported: Set<UInt8> = []
    var registrations: [Int: OBDDataRegistration] = [:]
    var eventKinds: Set<OBDEventKind> = []
    /// Kinds detected and stored whether registered or not (``OBDGateway/startEventLogging(_:)``).
    var loggedKinds: Set<OBDEventKind> = []
    /// Whether a (re)connection hands the pending batches to ``OBDGateway/batches``; off in ``OBDLogger``'s gateway,
    /// which logs for the applications and delivers to none.
    var deliversBatches = true
    var eventPoller: OBDPoller?
    var reconnecting = false
    /// Bumped by connect, disconnect and forget: a reconnection loop started under another value stops.
    var generation = 0
    var connectionCount = 0
    var consecutiveTimeouts = 0
    var autoAcknowledge = true
    /// A basic read is in flight (the basic channel holds one).
    var basicInFlight = false
    /// The reads waiting for the basic channel, oldest first; each is signalled when its turn comes.
    var basicQueue: [DispatchSemaphore] = []
}

/// How a basic read gets the channel.
enum BasicAdmission {
    case now, queued, full
}

func listDirectory(_ path: String) throws -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
