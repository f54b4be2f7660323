import AxonStreams

extension OBDGateway {
    /// Registers up to 5 standard PIDs for continuous updates under `requestID` (the seed's `registerDataPid`):
    /// they are polled `rate` times a second, one request at a time, and published as one numeric stream — one
    /// channel per PID with its unit, the tick number as counter — through a ``AxonStreams/StreamPipeline`` into
    /// `sinks` (``AxonRecording/CSVSink``, ``AxonRecording/EDFSink``, your own).
    ///
    /// The whole request is refused, and nothing is registered, when any PID is wrong; the error names it:
    /// ``OBDGatewayError/tooManyPIDs(count:limit:)``, ``OBDGatewayError/customPIDNotRegistrable(pid:name:)``,
    /// ``OBDGatewayError/unsupportedPID(pid:name:)`` (not in the vehicle's bitmap, or no formula),
    /// ``OBDGatewayError/unknownPID(_:)``, ``OBDGatewayError/invalidRegistration(reason:)``,
    /// ``OBDGatewayError/requestIDInUse(_:)``, ``OBDGatewayError/invalidRate(_:)``, ``OBDGatewayError/notConnected``.
    ///
    /// The registration survives link loss: ticks during the outage are missing samples (a gap record), and polling
    /// resumes when the gateway reconnects to the favourite.
    @discardableResult
    public func registerDataPIDs(
        requestID: Int, pids numbers: [Int], rate: Double, sinks: sending [any SampleSink]
    ) throws(OBDGatewayError) -> OBDDataRegistration {
        try requireAuthentication()
        guard rate.isFinite, rate > 0, rate <= Self.maximumRate else { throw .invalidRate(rate) }
        guard !numbers.isEmpty else { throw .invalidRegistration(reason: "no PIDs") }
        guard numbers.count <= Self.maximumRegisteredPIDs else {
            throw .tooManyPIDs(count: numbers.count, limit: Self.maximumRegisteredPIDs)
        }
        guard Set(numbers).count == numbers.count else {
            throw .invalidRegistration(reason: "a PID appears twice in \(numbers)")
        }
        var pids: [OBDStandardPID] = []
        for number in numbers {
            switch OBDPID(number: number) {
            case nil: throw .unknownPID(number)
            case .custom(let custom)?: throw .customPIDNotRegistrable(pid: number, name: custom.name)
            case .undecoded?: throw .unsupportedPID(pid: number, name: "no formula in Axon")
            case .standard(let pid)?: pids.append(pid)
            }
        }
        let (supported, device, inUse) = try state.withLock { state throws(OBDGatewayError) in
            guard state.client != nil, let device = state.device else { throw OBDGatewayError.notConnected }
            return (state.supported, device, state.registrations[requestID] != nil)
        }
        guard !inUse else { throw .requestIDInUse(requestID) }
        if let missing = pids.first(where: { !supported.contains($0.id) }) {
            throw .unsupportedPID(pid: Int(missing.id), name: missing.name)
        }
        let descriptor = StreamDescriptor(
            name: "OBD request \(requestID)", contentType: .obd,
            channels: pids.map { ChannelInfo(label: $0.name, unit: $0.unit, range: $0.range) }, nominalRate: rate,
            format: .float32, sourceID: "obd:\(device.identifier)",
            metadata: [
                "device": device.name, "pids": pids.map { "0x" + OBDResponseError.hex([$0.id]) }.joined(separator: ","),
            ])
        let pipeline = StreamPipeline(
            descriptor: descriptor, sinks: sinks,
            configuration: .init(ringCapacity: 1024, overflow: .dropOldest, timeline: .init(clock: nil)))
        let registration = OBDDataRegistration(
            requestID: requestID, pids: pids, rate: rate, descriptor: descriptor, pipeline: pipeline)
        let claimed = state.withLock { state -> Bool in
            guard state.registrations[requestID] == nil else { return false }
            state.registrations[requestID] = registration
            return true
        }
        guard claimed else { throw .requestIDInUse(requestID) }
        do {
            try registration.start { [weak self] pids in self?.poll(pids) }
        } catch {
            _ = state.withLock { $0.registrations.removeValue(forKey: requestID) }
            throw error
        }
        return registration
    }

    /// Stops the registration `requestID` (the seed's `unregisterDataPid`): polling stops, what is buffered reaches
    /// the sinks, and they are closed before this returns.
    public func unregisterDataPIDs(requestID: Int) throws(OBDGatewayError) {
        guard let registration = state.withLock({ $0.registrations.removeValue(forKey: requestID) }) else {
            throw .unknownRequestID(requestID)
        }
        registration.stop()
    }

    /// Stops polling some of the PIDs of registration `requestID` (the seed's `unregisterDataPid(DPid:pids:)`): the
    /// others go on in the same stream, whose channels for these PIDs carry NaN from the next tick on. Unregistering
    /// the last PIDs still polled stops the whole registration, as ``unregisterDataPIDs(requestID:)`` does.
    ///
    /// - Throws: ``OBDGatewayError/unknownRequestID(_:)``; ``OBDGatewayError/invalidRegistration(reason:)`` when a
    ///   PID is not in the registration or was unregistered already (then nothing changes).
    public func unregisterDataPIDs(requestID: Int, pids numbers: [Int]) throws(OBDGatewayError) {
        guard let registration = state.withLock({ $0.registrations[requestID] }) else {
            throw .unknownRequestID(requestID)
        }
        let active = Set(registration.activePIDs.map { Int($0.id) })
        var slots: [Int] = []
        for number in numbers {
            guard active.contains(number), let slot = registration.pids.firstIndex(where: { Int($0.id) == number })
            else { throw .invalidRegistration(reason: "PID \(number) is not polled by request \(requestID)") }
            slots.append(slot)
        }
        if registration.deactivate(slots) == 0 { try unregisterDataPIDs(requestID: requestID) }
    }

    /// The registrations in force, by request id.
    public var registrations: [Int: OBDDataRegistration] { state.withLock { $0.registrations } }

    /// One tick of a registration: every PID in order, or `nil` if any read fails.
    func poll(_ pids: [OBDStandardPID]) -> [Double]? {
        guard let client = state.withLock({ $0.client }) else { return nil }
        var values: [Double] = []
        values.reserveCapacity(pids.count)
        for pid in pids {
            guard let reading = try? readStandard(pid, client: client), let value = reading.value else { return nil }
            values.append(value)
        }
        return values
    }
}
