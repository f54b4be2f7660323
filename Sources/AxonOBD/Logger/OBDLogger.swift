import AxonStreams

/// The datalogger: with an ELM327 the dongle keeps nothing, so the logging the seed's datalogger does in its own
/// memory runs here, on the computer the dongle is plugged into, as a long-running process (`axon obd log`).
///
/// It connects to the dongle (retrying with the gateway's back-off until it answers), makes it the favourite so the
/// gateway reconnects after a link loss, and logs every preconfigured event kind (all eight by default) whether or
/// not an application registered it (``OBDGateway/startEventLogging(_:)``), each event stamped with the gateway's
/// position source. GPS messages are stored by the ``GPSDClient`` given the same ``OBDEventLog``. The logger hands
/// no batch out and acknowledges none: applications read them later from the same store
/// (``OBDEventLog/nextBatch()``, `axon obd events`, ``OBDGateway/deliverPendingBatches()``), each batch with its
/// acknowledgement id until acknowledged.
///
/// Restarts: events are keyed by kind and start time and GPS messages by their time, so a restarted logger on the
/// same store goes on without duplicating what was stored; an event still in progress when the process dies is not
/// stored (it has no end yet).
///
///     let log = try OBDEventLog(store: EventStore(path: "/var/lib/axon/obd.sqlite"), sourceID: "obd")
///     let gps = try GPSDClient(host: "localhost", port: 2947, log: log)
///     let gateway = OBDGateway(validator: validator, eventLog: log, positionSource: gps)
///     _ = gateway.authenticate(apiKey: key, issuedTo: "logger")
///     let logger = try OBDLogger(gateway: gateway, endpoint: .tcp(host: dongleHost, port: 35000))
///     let (device, kinds) = try logger.start()      // blocks until the dongle answers or stop()
///     …
///     logger.stop()
///
/// Threading contract: `Sendable`. ``start()`` blocks its caller until connected (any thread but Swift's
/// cooperative pool); ``stop()`` from any other thread ends a ``start()`` in progress and the logging.
public final class OBDLogger: Sendable {
    /// The gateway that talks to the dongle and stores the events.
    public let gateway: OBDGateway
    /// Where the dongle is.
    public let endpoint: OBDEndpoint
    /// The event kinds asked for (the datalogger's preconfiguration).
    public let kinds: Set<OBDEventKind>
    private let stopped = ThreadLocked(false)

    /// Prepares a logger; nothing is sent until ``start()``.
    ///
    /// - Throws: ``OBDGatewayError/noEventLog`` when the gateway has no event log.
    public init(
        gateway: OBDGateway, endpoint: OBDEndpoint, kinds: Set<OBDEventKind> = Set(OBDEventKind.allCases)
    ) throws(OBDGatewayError) {
        guard gateway.eventLog != nil else { throw .noEventLog }
        self.gateway = gateway
        self.endpoint = endpoint
        self.kinds = kinds
        // The logger is not an application: batches wait in the store for one.
        gateway.setAutoAcknowledgement(false)
        gateway.state.withLock { $0.deliversBatches = false }
    }

    /// Connects — trying again with back-off from ``OBDGateway/Configuration/initialBackoff`` doubling to
    /// ``OBDGateway/Configuration/maximumBackoff`` while the dongle does not answer, each attempt published on
    /// ``OBDGateway/status`` — makes the dongle the favourite and starts logging.
    ///
    /// - Returns: the device and the kinds logged (those of ``kinds`` the vehicle's PIDs allow).
    /// - Throws: ``OBDGatewayError/notConnected`` when ``stop()`` came first; ``OBDGatewayError/notAuthenticated``,
    ///   ``OBDGatewayError/store(_:)``, ``OBDGatewayError/unsupportedPID(pid:name:)`` (no vehicle speed).
    public func start() throws(OBDGatewayError) -> (device: OBDDevice, kinds: Set<OBDEventKind>) {
        var attempt = 0
        var backoff = gateway.configuration.initialBackoff
        while true {
            guard !stopped.withLock({ $0 }) else { throw .notConnected }
            do throws(OBDGatewayError) {
                let device = try gateway.connect(endpoint)
                try gateway.setFavorite(device)
                return (device, try gateway.startEventLogging(kinds))
            } catch {
                // Only a dongle that does not answer (yet), or whose link dropped at once, is waited for.
                switch error {
                case .adapter, .notConnected: break
                default: throw error
                }
                attempt += 1
                gateway.statusContinuation.yield(.reconnecting(attempt: attempt, retryIn: backoff))
                let until = HostClock.now() + backoff
                while HostClock.now() < until, !stopped.withLock({ $0 }) {
                    HostClock.sleep(until: min(until, HostClock.now() + 0.1))
                }
                backoff = min(backoff * 2, gateway.configuration.maximumBackoff)
            }
        }
    }

    /// Stops logging and disconnects (reconnection stops too). Idempotent.
    public func stop() {
        stopped.withLock { $0 = true }
        gateway.stopEventLogging()
        gateway.disconnect()
    }
}
