extension OBDGateway {
    /// Detects and stores event kinds whether or not an application registered them — the seed datalogger's
    /// preconfigured events, which it logs in real time and delivers as batches on the next connection. Logging
    /// has no limit of five (that is the registrations'); it runs the same poller as ``registerEvents(_:)`` and
    /// goes on across link losses and reconnections until ``stopEventLogging()`` or ``disconnect()``. Logged kinds
    /// that are not registered are stored only, not published on ``events``.
    ///
    /// - Parameter kinds: the kinds to log; all eight by default.
    /// - Returns: the kinds logged from now on: `kinds` without those that need engine speed when the vehicle does
    ///   not report it (PID 0x0C missing from its supported-PID bitmap).
    /// - Throws: ``OBDGatewayError/notAuthenticated``, ``OBDGatewayError/noEventLog`` (there is nowhere to store
    ///   them), ``OBDGatewayError/notConnected``, ``OBDGatewayError/unsupportedPID(pid:name:)`` when the vehicle does
    ///   not report speed, ``OBDGatewayError/pipeline(_:)`` when the poller thread cannot start.
    ///
    /// Threading: any thread; returns at once (the poller runs on its own thread).
    @discardableResult
    public func startEventLogging(
        _ kinds: Set<OBDEventKind> = Set(OBDEventKind.allCases)
    ) throws(OBDGatewayError) -> Set<OBDEventKind> {
        try requireAuthentication()
        guard eventLog != nil else { throw .noEventLog }
        let (supported, connected) = state.withLock { ($0.supported, $0.client != nil) }
        guard connected else { throw .notConnected }
        guard supported.contains(OBDStandardPID.vehicleSpeed.id) else {
            throw .unsupportedPID(pid: 0x0D, name: OBDStandardPID.vehicleSpeed.name)
        }
        let hasEngineSpeed = supported.contains(OBDStandardPID.engineSpeed.id)
        let logged = hasEngineSpeed ? kinds : kinds.filter { !$0.needsEngineSpeed }
        state.withLock { $0.loggedKinds.formUnion(logged) }
        try startEventPollerIfNeeded(hasEngineSpeed: hasEngineSpeed)
        return logged
    }

    /// Stops logging unregistered kinds; the poller stops when no kind is registered either.
    ///
    /// Threading: any thread; waits for a poll in progress.
    public func stopEventLogging() {
        let poller = state.withLock { state -> OBDPoller? in
            state.loggedKinds = []
            guard state.eventKinds.isEmpty else { return nil }
            defer { state.eventPoller = nil }
            return state.eventPoller
        }
        poller?.stop()
    }

    /// The kinds logged whether registered or not (``startEventLogging(_:)``).
    public var loggedEvents: Set<OBDEventKind> { state.withLock { $0.loggedKinds } }
}
