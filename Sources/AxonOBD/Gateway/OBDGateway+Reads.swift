import AxonStreams
import Dispatch

extension OBDGateway {
    /// Reads one PID once (the seed's basic channel): a standard PID (0–255) with mode 01, or a custom PID (256+)
    /// from the requests it is derived from. The basic channel executes reads one at a time in the order they
    /// arrive, as the seed's does: a read that arrives while another is in flight waits in a FIFO queue of at most
    /// ``maximumQueuedBasicReads`` reads; one more is refused at once with
    /// ``OBDGatewayError/basicQueueFull(pid:limit:)``. On the dongle, the read goes after any registration's poll in
    /// flight.
    ///
    /// - Throws: ``OBDGatewayError/basicQueueFull(pid:limit:)``, ``OBDGatewayError/unknownPID(_:)``,
    ///   ``OBDGatewayError/notConnected``,
    ///   ``OBDGatewayError/adapter(_:)`` (NO DATA for a PID the vehicle does not answer, malformed answers, link
    ///   loss — which also starts reconnection to the favourite), ``OBDGatewayError/noValue(pid:reason:)``.
    ///
    /// Threading: any thread but Swift's cooperative pool; blocks while earlier reads run (each bounded by the
    /// request timeout), then for its own.
    public func readBasic(pid number: Int) throws(OBDGatewayError) -> OBDReading {
        try requireAuthentication()
        return try withBasicChannel(pid: number) { () throws(OBDGatewayError) -> OBDReading in
            try readBasicNow(pid: number)
        }
    }

    /// How many basic reads may wait behind the one in flight (the basic channel's FIFO queue).
    public static let maximumQueuedBasicReads = 16

    /// Runs `body` holding the basic channel: at once when it is free, else after the reads queued before it; throws
    /// ``OBDGatewayError/basicQueueFull(pid:limit:)`` when ``maximumQueuedBasicReads`` are waiting already.
    func withBasicChannel<T>(pid: Int, _ body: () throws(OBDGatewayError) -> T) throws(OBDGatewayError) -> T {
        let turn = DispatchSemaphore(value: 0)
        let admission = state.withLock { state -> BasicAdmission in
            guard state.basicInFlight else {
                state.basicInFlight = true
                return .now
            }
            guard state.basicQueue.count < Self.maximumQueuedBasicReads else { return .full }
            state.basicQueue.append(turn)
            return .queued
        }
        switch admission {
        case .full: throw .basicQueueFull(pid: pid, limit: Self.maximumQueuedBasicReads)
        case .queued: turn.wait()  // the previous holder handed the channel over
        case .now: break
        }
        defer {
            // Hand the channel to the oldest waiting read, or free it.
            let next = state.withLock { state -> DispatchSemaphore? in
                guard !state.basicQueue.isEmpty else {
                    state.basicInFlight = false
                    return nil
                }
                return state.basicQueue.removeFirst()
            }
            next?.signal()
        }
        return try body()
    }

    /// Basic reads waiting behind the one in flight.
    var queuedBasicReads: Int { state.withLock { $0.basicQueue.count } }

    private func readBasicNow(pid number: Int) throws(OBDGatewayError) -> OBDReading {
        guard let pid = OBDPID(number: number) else { throw .unknownPID(number) }
        let client = try connectedClient()
        switch pid {
        case .standard(let standard):
            return try readStandard(standard, client: client)
        case .undecoded(let id):
            let command = "01" + OBDResponseError.hex([id])
            let messages = try request(command, client: client)
            guard let message = messages.first(where: { $0.starts(with: [0x41, id]) }) else {
                throw .adapter(
                    .response(
                        .wrongEcho(
                            command: command, expected: [0x41, id], received: Array((messages.first ?? []).prefix(2)))))
            }
            let raw = Array(message.dropFirst(2))
            return OBDReading(
                pid: number, name: pid.description, value: nil, text: OBDResponseError.hex(raw), unit: "", raw: raw,
                time: HostClock.now())
        case .custom(let custom):
            return try readCustom(custom, client: client)
        }
    }

    /// The standard PIDs the vehicle supports, from the bitmaps read when connecting (0x00, 0x20, … while each
    /// says the next range exists).
    public func supportedPIDs() throws(OBDGatewayError) -> Set<UInt8> {
        try requireAuthentication()
        _ = try connectedClient()
        return state.withLock { $0.supported }
    }

    /// Reads and decodes one standard PID.
    func readStandard(_ pid: OBDStandardPID, client: ELM327Client) throws(OBDGatewayError) -> OBDReading {
        let command = "01" + OBDResponseError.hex([pid.id])
        let messages = try request(command, client: client)
        let data: [UInt8]
        do {
            data = try OBDDecoder.mode01Data(messages, pid: pid.id, byteCount: pid.byteCount, command: command)
        } catch { throw .adapter(.response(error)) }
        return OBDReading(
            pid: Int(pid.id), name: pid.name, value: pid.decode(data), text: nil, unit: pid.unit, raw: data,
            time: HostClock.now())
    }

    func readCustom(_ pid: OBDCustomPID, client: ELM327Client) throws(OBDGatewayError) -> OBDReading {
        let now = { HostClock.now() }
        switch pid {
        case .vin:
            let messages = try request("0902", client: client, timeout: configuration.requestTimeout * 2)
            do {
                let vin = try OBDDecoder.vin(messages)
                return OBDReading(
                    pid: pid.rawValue, name: pid.name, value: nil, text: vin, unit: "", raw: messages.first ?? [],
                    time: now())
            } catch { throw .adapter(.response(error)) }
        case .troubleCodes:
            let messages = try request("03", client: client)
            do {
                let codes = try OBDDecoder.troubleCodes(messages)
                return OBDReading(
                    pid: pid.rawValue, name: pid.name, value: Double(codes.count), text: codes.joined(separator: ","),
                    unit: "", raw: messages.flatMap { $0 }, time: now())
            } catch { throw .adapter(.response(error)) }
        case .fuelEconomy:
            let maf = try readStandard(.massAirFlow, client: client)
            let speed = try readStandard(.vehicleSpeed, client: client)
            guard let economy = OBDCustomPID.fuelEconomy(maf: maf.value ?? 0, speed: speed.value ?? 0) else {
                throw .noValue(pid: pid.rawValue, reason: "the vehicle is standing still (\(speed.value ?? 0) km/h)")
            }
            return OBDReading(
                pid: pid.rawValue, name: pid.name, value: economy, text: nil, unit: pid.unit,
                raw: maf.raw + speed.raw, time: now())
        case .adapterVoltage:
            let answer = try exchange("ATRV", client: client)
            let lines: [String]
            do { lines = try ELM327ResponseParser.lines(answer, command: "ATRV") } catch {
                throw .adapter(.response(error))
            }
            let text = lines.first ?? ""
            guard let volts = Double(text.uppercased().filter { $0 != "V" }) else {
                throw .adapter(.response(.garbage(command: "ATRV", line: text)))
            }
            return OBDReading(
                pid: pid.rawValue, name: pid.name, value: volts, text: nil, unit: "V", raw: Array(text.utf8),
                time: now())
        case .supportedPIDs:
            let supported = state.withLock { $0.supported }.sorted()
            return OBDReading(
                pid: pid.rawValue, name: pid.name, value: Double(supported.count),
                text: supported.map { "0x" + OBDResponseError.hex([$0]) }.joined(separator: ","), unit: "",
                raw: supported, time: now())
        }
    }

    /// The connected client, or ``OBDGatewayError/notConnected``.
    func connectedClient() throws(OBDGatewayError) -> ELM327Client {
        guard let client = state.withLock({ $0.client }) else { throw .notConnected }
        return client
    }

    /// One OBD request; a link loss is reported to the reconnection logic before it is thrown.
    func request(_ command: String, client: ELM327Client, timeout: Double? = nil) throws(OBDGatewayError) -> [[UInt8]] {
        do {
            let messages = try client.request(command, timeout: timeout)
            answered(client)
            return messages
        } catch {
            failed(client, error)
            throw .adapter(error)
        }
    }

    /// One raw exchange; a link loss is reported like ``request(_:client:timeout:)``'s.
    func exchange(_ command: String, client: ELM327Client) throws(OBDGatewayError) -> String {
        do {
            let answer = try client.exchange(command, timeout: configuration.requestTimeout)
            answered(client)
            return answer
        } catch {
            failed(client, error)
            throw .adapter(error)
        }
    }

    /// The dongle answered: its silent streak ends.
    func answered(_ client: ELM327Client) {
        state.withLock { if $0.client === client { $0.consecutiveTimeouts = 0 } }
    }

    /// A lost link, or ``OBDGateway/maximumConsecutiveTimeouts`` timeouts in a row (a dongle that hung with its
    /// socket or port still open), drop the connection and start reconnecting.
    func failed(_ client: ELM327Client, _ error: ELM327Error) {
        if error.isLinkLoss {
            linkLost(client, reason: error.description)
            return
        }
        guard case .link(.timeout) = error else { return }
        let hung = state.withLock { state -> Bool in
            guard state.client === client else { return false }
            state.consecutiveTimeouts += 1
            return state.consecutiveTimeouts >= Self.maximumConsecutiveTimeouts
        }
        if hung { linkLost(client, reason: "\(Self.maximumConsecutiveTimeouts) requests in a row timed out") }
    }

    /// Reads the supported-PID bitmaps: 0x00, then 0x20, 0x40, … while the last bit of the previous one is set.
    static func readSupportedPIDs(_ client: ELM327Client) throws(ELM327Error) -> Set<UInt8> {
        var supported: Set<UInt8> = []
        var base: UInt8 = 0x00
        while true {
            let command = "01" + OBDResponseError.hex([base])
            // The first request may wait for the protocol search (SEARCHING...).
            let messages = try client.request(command, timeout: base == 0 ? client.slowTimeout : nil)
            let data: [UInt8]
            do {
                data = try OBDDecoder.mode01Data(messages, pid: base, byteCount: 4, command: command)
            } catch { throw .response(error) }
            supported.formUnion(OBDDecoder.supportedPIDs(base: base, data: data))
            guard base < 0xE0, supported.contains(base + 0x20) else { break }
            base += 0x20
        }
        return supported
    }
}
