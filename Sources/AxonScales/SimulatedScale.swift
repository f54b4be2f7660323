import AxonDevices
import AxonStreams
import Dispatch
import Foundation

/// A simulated HS3, HS4, HS5 or standard WSS/BCS scale that is its own ``AxonDevices/DeviceTransport``: commands
/// written to it are answered in Axon's scale framing (docs/scale-protocol.md) on the response characteristic; a
/// standard scale sends Weight Measurement and Body Composition Measurement indications when someone
/// ``stepOn(weightKg:)``s. It keeps HS5 users by the seed's rules, refuses an HS4 memory transfer until the user
/// is validated, answers an injected error code instead of the next command, and can drop its link once in the
/// middle of a memory transfer.
///
///     let scale = SimulatedScale(.init(model: .hs3, records: SimulatedScale.Configuration.records(200, model: .hs3)))
///     let session = ScaleSession(transport: scale, model: .hs3)
///
/// Threading contract: `Sendable`; methods from any task. Its state is behind a lock; everything it sends
/// reaches the receiver on one serial dispatch queue, in order, as a transport's delivery thread does.
public final class SimulatedScale: DeviceTransport, @unchecked Sendable {
    // Sendable invariant: `state` is lock-protected (`ThreadLocked`); `queue` is the only thread that calls the receiver.
    /// The name given at creation (`sim:hs5` by default).
    public let deviceDescription: String
    /// Link events, also delivered to the receiver. One consumer.
    public let events: AsyncStream<LinkEvent>
    private let eventContinuation: AsyncStream<LinkEvent>.Continuation
    private let queue = DispatchQueue(label: "axon.simulated-scale")
    private let state: ThreadLocked<State>

    private struct State {
        var configuration: Configuration
        var receiver: (any TransportReceiver)?
        var notifications: [GATTCharacteristicID] = []
        var connected = false
        var closed = false
        var validated = false
        var bluetoothOn = true
        var injectedErrors: [Int] = []
        var recordsSent = 0
        var linkLossArmed = true
        var commands: [ScaleCommand] = []
    }

    /// A scale holding `configuration`, named `name` (default `sim:<model>`). Not connected until opened.
    public init(_ configuration: Configuration, name: String? = nil) {
        deviceDescription = name ?? "sim:\(configuration.model.rawValue)"
        state = ThreadLocked(State(configuration: configuration))
        (events, eventContinuation) = AsyncStream.makeStream(
            of: LinkEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// The commands the scale received, in order (for tests).
    public var receivedCommands: [ScaleCommand] { state.withLock { $0.commands } }
    /// The HS5's users now.
    public var users: HS5UserTable { state.withLock { $0.configuration.users } }
    /// Whether the HS3's Bluetooth connection is switched on.
    public var bluetoothOn: Bool { state.withLock { $0.bluetoothOn } }

    /// Answers the next command with the SDK error `code` instead (error injection).
    public func injectError(code: Int) { state.withLock { $0.injectedErrors.append(code) } }

    /// Connects at once (connecting, connected, services resolved, notifying, ready); a standard scale then indicates its stored records.
    public func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver)
        async throws(TransportError)
    {
        let closed = state.withLock { state -> Bool in
            state.receiver = receiver
            state.notifications = notifications
            return state.closed
        }
        guard !closed else { throw .closed }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                self.bringLinkUp(attempt: 1)
                done.resume()
            }
        }
        let standardRecords = state.withLock { $0.configuration.model == .standard ? $0.configuration.records : [] }
        for record in standardRecords {
            sendStandard(weightKg: record.weightKg, time: record.time, composition: record.bodyComposition)
        }
    }

    /// Reads the Weight Scale Feature (a standard scale) or the battery level.
    public func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8] {
        let (connected, model) = state.withLock { ($0.connected, $0.configuration.model) }
        guard connected else { throw .notConnected }
        switch characteristic.characteristic {
        case ScaleGATT.weightScaleFeature.characteristic where model == .standard:
            // Time stamp, multiple users, BMI; weight resolution 0.005 kg (7); height 0.001 m (3).
            var bytes: [UInt8] = []
            bytes.appendLE(UInt32(0b111) | 7 << 3 | 3 << 7)
            return bytes
        case AxonDevices.BluetoothUUID.batteryLevel: return [90]
        default: throw .characteristicMissing(characteristic)
        }
    }

    /// Takes a command on the command characteristic and queues its answer frames.
    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        async throws(TransportError)
    {
        guard characteristic == ScaleGATT.command else { throw .characteristicMissing(characteristic) }
        let connected = state.withLock { $0.connected }
        guard connected else { throw .notConnected }
        let command: ScaleCommand
        do throws(ScaleError) {
            command = try ScaleCommand(decoding: value)
        } catch {
            throw .operationFailed("the scale rejected the write: \(error)", cause: error)
        }
        let frames = state.withLock { state in Self.answer(command, &state) }
        for frame in frames { deliver(frame) }
    }

    /// Disconnects for good; the receiver hears `closed` and nothing more.
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                let receiver = self.state.withLock { state -> (any TransportReceiver)? in
                    state.closed = true
                    state.connected = false
                    defer { state.receiver = nil }
                    return state.receiver
                }
                receiver?.transport(didChange: .closed)
                self.eventContinuation.yield(.closed)
                self.eventContinuation.finish()
                done.resume()
            }
        }
    }

    /// Someone steps on the scale: an iHealth model sends unstable weights, the stable weight and (HS5) impedance
    /// weight and body composition; a standard scale sends a Weight Measurement (time-stamped now, user 1) and,
    /// when configured with body composition, a two-packet Body Composition Measurement.
    public func stepOn(weightKg: Double? = nil) {
        let (model, configured, composition) = state.withLock {
            ($0.configuration.model, $0.configuration.weightKg, $0.configuration.bodyComposition)
        }
        let kg = weightKg ?? configured
        if model == .standard {
            sendStandard(weightKg: kg, time: Int(Date().timeIntervalSince1970), composition: composition)
        } else {
            for frame in Self.measurementFrames(model: model, kg: kg) { deliver(.response(frame)) }
        }
    }

    /// A standard scale's failed measurement: a Weight Measurement with the weight 0xFFFF ("measurement
    /// unsuccessful"), as when someone steps off too soon.
    public func stepOnUnsuccessfully() {
        let weight = WeightMeasurement(imperial: false, rawWeight: 0xFFFF, userID: 1)
        queue.async { self.notify(weight.bytes, on: ScaleGATT.weightMeasurement) }
    }

    /// Drops the link now and brings it back after the configured outage.
    public func dropLink() { queue.async { self.linkDown() } }

    // MARK: - Delivery

    private enum Outgoing {
        case response(ScaleResponse)
        case dropLink
    }

    private func deliver(_ frame: Outgoing) {
        queue.async {
            switch frame {
            case .dropLink: self.linkDown()
            case .response(let response): self.notify(response.bytes, on: ScaleGATT.response)
            }
        }
    }

    /// On the queue: hands a value to the receiver if the link is up and the characteristic subscribed.
    private func notify(_ bytes: [UInt8], on characteristic: GATTCharacteristicID) {
        let receiver = state.withLock { state -> (any TransportReceiver)? in
            state.connected && state.notifications.contains(characteristic) ? state.receiver : nil
        }
        receiver?.transport(didReceive: bytes, from: characteristic, arrivalTime: ProcessInfo.processInfo.systemUptime)
    }

    private func link(_ event: LinkEvent) {
        let receiver = state.withLock { $0.receiver }
        receiver?.transport(didChange: event)
        eventContinuation.yield(event)
    }

    /// On the queue.
    private func bringLinkUp(attempt: Int) {
        let notifications = state.withLock { state -> [GATTCharacteristicID]? in
            guard !state.closed else { return nil }
            state.connected = true
            return state.notifications
        }
        guard let notifications else { return }
        link(.connecting(attempt: attempt))
        link(.connected)
        link(.servicesResolved)
        for id in notifications { link(.notifying(id)) }
        link(.ready)
    }

    /// On the queue.
    private func linkDown() {
        let outage = state.withLock { state -> Double? in
            guard state.connected else { return nil }
            state.connected = false
            return state.configuration.outageSeconds
        }
        guard let outage else { return }
        link(.linkLost(reason: "simulated link loss"))
        queue.asyncAfter(deadline: .now() + outage) { self.bringLinkUp(attempt: 1) }
    }

    private func sendStandard(weightKg: Double, time: Int, composition: BodyComposition?) {
        let imperial = state.withLock { $0.configuration.imperial }
        let raw =
            imperial
            ? UInt16(clamping: Int((WeightConversion.pounds(fromKilograms: weightKg) * 100).rounded()))
            : UInt16(clamping: Int((weightKg / 0.005).rounded()))
        let stamp = GATTDateTime(unixTime: time)
        let weight = WeightMeasurement(
            imperial: imperial, rawWeight: raw, timestamp: stamp, userID: 1, rawBMI: 233,
            rawHeight: imperial ? 689 : 1750)
        var packets: [BodyCompositionPacket] = []
        if let composition {
            let fat = UInt16(clamping: Int(((composition.fatPercent ?? 0) * 10).rounded()))
            packets.append(
                BodyCompositionPacket(
                    imperial: false, continues: true, rawBodyFat: fat, timestamp: stamp, userID: 1,
                    rawMusclePercentage: composition.musclePercent.map { UInt16(clamping: Int(($0 * 10).rounded())) },
                    rawImpedance: composition.impedanceOhm.map { UInt16(clamping: Int(($0 * 10).rounded())) }))
            packets.append(
                BodyCompositionPacket(
                    imperial: false, continues: false, rawBodyFat: fat,
                    rawBodyWaterMass: composition.waterPercent.map {
                        UInt16(clamping: Int(($0 / 100 * weightKg / 0.005).rounded()))
                    },
                    rawWeight: UInt16(clamping: Int((weightKg / 0.005).rounded()))))
        }
        queue.async { [packets] in
            for packet in packets { self.notify(packet.bytes, on: ScaleGATT.bodyCompositionMeasurement) }
            self.notify(weight.bytes, on: ScaleGATT.weightMeasurement)
        }
    }

    // MARK: - The scale's firmware

    private static func answer(_ command: ScaleCommand, _ state: inout State) -> [Outgoing] {
        state.commands.append(command)
        let model = state.configuration.model
        if !state.injectedErrors.isEmpty {
            return [.response(.error(code: state.injectedErrors.removeFirst(), detail: 0, argument: 0))]
        }
        func ok() -> [Outgoing] { [.response(.result(command: command.type, success: true))] }
        func code(hs3: HS3Error, hs4: HS4Error, hs5: HS5Error) -> Int {
            switch model {
            case .hs3: hs3.rawValue
            case .hs4: hs4.rawValue
            case .hs5, .standard: hs5.rawValue
            }
        }
        func refuse(_ error: ScaleError) -> [Outgoing] {
            guard case .userRule(let rule) = error else { return [] }
            let argument: UInt32 =
                switch rule {
                case .positionOccupied(let p), .positionOutOfRange(let p), .positionUsedBefore(let p): UInt32(clamping: p)
                case .unknownUser(let s), .alreadyExists(let s): s
                case .full: 0
                }
            return [.response(.error(code: rule.seedError.rawValue, detail: rule.detail, argument: argument))]
        }
        switch command {
        case .identify:
            return [.response(.info(model: model, firmware: state.configuration.firmware))]
        case .authorise(let result):
            state.validated = result.permitsMeasurement
            return ok()
        case .measure(_, let serial):
            if model == .hs5, state.configuration.users.position(of: serial) == nil {
                return [.response(.error(code: HS5Error.userInvalid.rawValue, detail: 0, argument: 0))]
            }
            return ok() + measurementFrames(model: model, kg: state.configuration.weightKg).map { .response($0) }
        case .memory(let from, let serial):
            // The seed's HS3 and HS4 transfer memory only after the user's authentication (commandInitWithUser).
            if model == .hs3 || model == .hs4, !state.validated {
                let code = model == .hs3 ? HS3Error.userInvalid.rawValue : HS4Error.userInvalid.rawValue
                return [.response(.error(code: code, detail: 0, argument: 0))]
            }
            if model == .hs5, state.configuration.users.position(of: serial) == nil {
                return [.response(.error(code: HS5Error.userInvalid.rawValue, detail: 0, argument: 0))]
            }
            let records = Array(state.configuration.records.prefix(ScaleModel.memoryCapacity))
            guard !records.isEmpty else {
                return [
                    .response(
                        .error(code: code(hs3: .noMemory, hs4: .noMemory, hs5: .noMemory), detail: 0, argument: 0))
                ]
            }
            var out: [Outgoing] = [.response(.memoryStart(count: records.count))]
            for index in from..<max(from, records.count) {
                if let times = state.configuration.lostRecords[index], times > 0 {
                    state.configuration.lostRecords[index] = times - 1
                } else {
                    out.append(.response(.record(index: index, records[index])))
                }
                state.recordsSent += 1
                if state.linkLossArmed, let after = state.configuration.linkLossAfterRecords, state.recordsSent == after
                {
                    state.linkLossArmed = false
                    out.append(.dropLink)
                }
            }
            out.append(.response(.memoryFinish))
            return out
        case .bluetooth(let on):
            guard model == .hs3 else { return [.response(.result(command: command.type, success: false))] }
            state.bluetoothOn = on
            return ok()
        case .listUsers:
            return [.response(.users(state.configuration.users.slots))]
        case .createUser(let user, let position):
            do throws(ScaleError) { try state.configuration.users.create(user, at: position) } catch {
                return refuse(error)
            }
            return ok()
        case .modifyUser(let user):
            do throws(ScaleError) { try state.configuration.users.modify(user) } catch { return refuse(error) }
            return ok()
        case .deleteUser(let serial):
            do throws(ScaleError) { try state.configuration.users.delete(serial) } catch { return refuse(error) }
            return ok()
        }
    }

    /// What an iHealth model sends while measuring `kg`: HS3 only the stable weight (seed §3.1); HS4 three
    /// unstable weights approaching it, then it; HS5 also impedance weight and body composition.
    static func measurementFrames(model: ScaleModel, kg: Double) -> [ScaleResponse] {
        var frames: [ScaleResponse] = []
        if model != .hs3 { frames += [0.6, 0.9, 0.98].map { .unstableWeight(($0 * kg * 100).rounded() / 100) } }
        frames.append(.stableWeight(kg))
        if model == .hs5 {
            frames.append(.impedanceWeight(kg))
            frames.append(.bodyComposition(Configuration.hs5Composition(weightKg: kg)))
        }
        return frames
    }
}
