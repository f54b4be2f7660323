import AxonStreams

extension OBDGateway {
    /// Registers driving events (the seed's `registerEventPid`; at most 5 of the 8 kinds at once): while any is
    /// registered, the gateway reads vehicle speed — and engine speed when the vehicle reports it — at
    /// ``Configuration/eventPollRate``, and the count of stored trouble codes (PID 0x01) every
    /// ``Configuration/troubleCodePollSeconds``, and runs ``DrivingEventDetector`` and ``VehicleStateDetector`` on
    /// them. Hard braking and acceleration are stored in the event log (when there is one) whenever detected; the
    /// vehicle-state kinds only while registered or logged (``startEventLogging(_:)``). Registered kinds are
    /// published on ``events``.
    ///
    /// - Throws: ``OBDGatewayError/tooManyEvents(count:limit:)``, ``OBDGatewayError/invalidRegistration(reason:)``
    ///   for a kind listed twice, ``OBDGatewayError/unsupportedPID(pid:name:)`` when the vehicle does not report
    ///   speed (or engine speed, for a kind that needs it), ``OBDGatewayError/notConnected``.
    public func registerEvents(_ kinds: [OBDEventKind]) throws(OBDGatewayError) {
        try requireAuthentication()
        guard Set(kinds).count == kinds.count else { throw .invalidRegistration(reason: "an event appears twice") }
        let (count, supported, connected) = state.withLock {
            ($0.eventKinds.union(kinds).count, $0.supported, $0.client != nil)
        }
        guard count <= Self.maximumRegisteredEvents else {
            throw .tooManyEvents(count: count, limit: Self.maximumRegisteredEvents)
        }
        guard connected else { throw .notConnected }
        guard supported.contains(OBDStandardPID.vehicleSpeed.id) else {
            throw .unsupportedPID(pid: 0x0D, name: OBDStandardPID.vehicleSpeed.name)
        }
        let hasEngineSpeed = supported.contains(OBDStandardPID.engineSpeed.id)
        if kinds.contains(where: \.needsEngineSpeed), !hasEngineSpeed {
            throw .unsupportedPID(pid: 0x0C, name: OBDStandardPID.engineSpeed.name)
        }
        state.withLock { $0.eventKinds.formUnion(kinds) }
        try startEventPollerIfNeeded(hasEngineSpeed: hasEngineSpeed)
    }

    /// Starts the event poller unless it runs: vehicle speed (and engine speed when the vehicle reports it) at
    /// ``Configuration/eventPollRate`` into the detectors; the stored-code count every
    /// ``Configuration/troubleCodePollSeconds`` while ``OBDEventKind/newTroubleCode`` is registered or logged. Each
    /// tick reads which kinds are registered and logged now.
    func startEventPollerIfNeeded(hasEngineSpeed: Bool) throws(OBDGatewayError) {
        let needsPoller = state.withLock { state -> Bool in
            state.eventPoller == nil && !(state.eventKinds.isEmpty && state.loggedKinds.isEmpty)
        }
        guard needsPoller else { return }
        let detector = DetectorBox(
            DrivingEventDetector(configuration: configuration.detector),
            VehicleStateDetector(configuration: configuration.vehicleState))
        let pids: [OBDStandardPID] = hasEngineSpeed ? [.vehicleSpeed, .engineSpeed] : [.vehicleSpeed]
        let codeTicks = UInt64(max(1, (configuration.troubleCodePollSeconds * configuration.eventPollRate).rounded()))
        let poller = try OBDPoller(name: "axon-obd-events", rate: configuration.eventPollRate) { [weak self] tick in
            guard let self, let values = self.poll(pids) else { return }
            let now = HostClock.unixNow()
            let detected = self.state.withLock { $0.eventKinds.union($0.loggedKinds) }
            for event in detector.add(time: now, speedKmh: values[0]) { self.handle(event) }
            var state = detector.addState(time: now, speedKmh: values[0], rpm: values.count > 1 ? values[1] : nil)
            if detected.contains(.newTroubleCode), tick % codeTicks == 0, let count = self.troubleCodeCount() {
                state += detector.addTroubleCodes(time: now, count: count, speedKmh: values[0])
            }
            for event in state where detected.contains(event.kind) { self.handle(event) }
        }
        let installed = state.withLock { state -> Bool in
            guard state.eventPoller == nil else { return false }
            state.eventPoller = poller
            return true
        }
        if !installed { poller.stop() }
    }

    /// Stops the given events; the speed poller stops with the last one, unless kinds are logged
    /// (``startEventLogging(_:)``).
    public func unregisterEvents(_ kinds: [OBDEventKind]) {
        let poller = state.withLock { state -> OBDPoller? in
            state.eventKinds.subtract(kinds)
            guard state.eventKinds.isEmpty, state.loggedKinds.isEmpty else { return nil }
            defer { state.eventPoller = nil }
            return state.eventPoller
        }
        poller?.stop()
    }

    /// The registered event kinds.
    public var registeredEvents: Set<OBDEventKind> { state.withLock { $0.eventKinds } }

    /// Stamps an event with the position source's fix, stores it and publishes it on ``events`` when its kind is
    /// registered.
    func handle(_ detected: OBDDrivingEvent) {
        var event = detected
        if event.position == nil { event.position = positionSource?.latestPosition }
        if let eventLog {
            do { try eventLog.record(event) } catch {
                statusContinuation.yield(.storeFailed(reason: error.description))
            }
        }
        if state.withLock({ $0.eventKinds.contains(event.kind) }) { eventContinuation.yield(event) }
    }

    // MARK: - Batches

    /// With `true` (the default) each delivered batch is acknowledged as soon as it is handed to ``batches``; with
    /// `false` the application calls ``acknowledge(_:)``, and a batch not acknowledged is delivered again on the next
    /// connection — after a crash too, since the log is durable.
    public func setAutoAcknowledgement(_ on: Bool) {
        state.withLock { $0.autoAcknowledge = on }
    }

    /// Acknowledges a delivered batch (the seed's `udpPacketReceivedAcknowledgement`): it is never delivered again.
    public func acknowledge(_ acknowledgementID: String) throws(OBDGatewayError) {
        guard let eventLog else { throw .unknownBatch(acknowledgementID) }
        try eventLog.acknowledge(acknowledgementID)
    }

    /// Hands the pending batches to ``batches``: with auto-acknowledgement every pending batch, each acknowledged;
    /// without it the oldest unacknowledged one only. Called on every (re)connection. Returns the batches handed over.
    @discardableResult
    public func deliverPendingBatches() -> [OBDEventBatch] {
        guard let eventLog else { return [] }
        var delivered: [OBDEventBatch] = []
        let automatic = state.withLock { $0.autoAcknowledge }
        while true {
            let batch: OBDEventBatch?
            do { batch = try eventLog.nextBatch() } catch {
                statusContinuation.yield(.storeFailed(reason: error.description))
                return delivered
            }
            guard let batch else { return delivered }
            batchContinuation.yield(batch)
            delivered.append(batch)
            guard automatic else { return delivered }
            do { try eventLog.acknowledge(batch.acknowledgementID) } catch {
                statusContinuation.yield(.storeFailed(reason: error.description))
                return delivered
            }
        }
    }
}

/// The event poller's detectors: used only on the poller's thread.
final class DetectorBox: @unchecked Sendable {
    // Sendable invariant: only the one poller thread calls the methods.
    private var detector: DrivingEventDetector
    private var state: VehicleStateDetector
    init(_ detector: DrivingEventDetector, _ state: VehicleStateDetector) {
        self.detector = detector
        self.state = state
    }
    func add(time: Double, speedKmh: Double) -> [OBDDrivingEvent] { detector.add(time: time, speedKmh: speedKmh) }
    func addState(time: Double, speedKmh: Double, rpm: Double?) -> [OBDDrivingEvent] {
        state.add(time: time, speedKmh: speedKmh, rpm: rpm)
    }
    func addTroubleCodes(time: Double, count: Int, speedKmh: Double) -> [OBDDrivingEvent] {
        state.add(time: time, troubleCodeCount: count, speedKmh: speedKmh)
    }
}

extension OBDGateway {
    /// The count of stored trouble codes (PID 0x01, byte A & 0x7F), or `nil` when it cannot be read now.
    func troubleCodeCount() -> Int? {
        guard let client = state.withLock({ $0.client }),
            let reading = try? readStandard(OBDStandardPID.monitorStatus, client: client), let value = reading.value
        else { return nil }
        return Int(value) & 0x7F
    }
}
