import AxonDevices
import AxonStreams
import Dispatch
import Foundation

/// A ResearchBIT sensor as a ``AxonDevices/DeviceTransport``: it holds summary events of a number of sessions
/// (a trigger-pull and a time-awake event sharing a wake-up time), answers docs/researchbit-protocol.md — one event
/// at a time, the next after the acknowledgement, forgetting only acknowledged events — and can lose the link
/// after chosen events, coming back (`linkLossAfterEvents`) or not until the next `open` (`vanishAfterEvents`,
/// a device carried out of range). As a Nordic dongle (``Configuration/nordicDongle``) it also has the dongle's
/// battery, LED, name and button characteristics (``NordicDongleCharacteristic``): the LED follows writes, the
/// button follows ``setButton(pressed:)`` and the battery ``setBattery(_:)``, each notified while subscribed.
///
/// Threading contract: `Sendable`; methods from any task. Everything happens on one serial queue, which is also
/// the receiver's delivery thread.
public final class SimulatedResearchBIT: DeviceTransport, @unchecked Sendable {
    // Sendable invariant: every mutable property is touched on `queue` only.

    /// Configuration.
    public struct Configuration: Sendable {
        /// The name the device gives itself.
        public var name: String
        /// The Bluetooth address.
        public var address: String
        /// Battery level in percent.
        public var battery: Int
        /// Sessions.
        public var sessions: Int
        /// Seed of the deterministic data.
        public var seed: UInt64
        /// Wake-up time of the first session (Unix seconds); sessions follow every few hours.
        public var firstWakeup: UInt32
        /// Link loss after events.
        public var linkLossAfterEvents: Set<Int>
        /// Vanish after events.
        public var vanishAfterEvents: Int?
        /// A Nordic dongle (its service, and its battery, LED, name and button characteristics) rather than a
        /// ResearchBIT sensor.
        public var nordicDongle: Bool
        /// Creates a value from its fields.
        public init(
            name: String = "ResearchBIT-0001", address: String = "C0:FF:EE:00:00:20", battery: Int = 91,
            sessions: Int = 12, seed: UInt64 = 11, firstWakeup: UInt32 = 1_763_800_000,
            linkLossAfterEvents: Set<Int> = [], vanishAfterEvents: Int? = nil, nordicDongle: Bool = false
        ) {
            self.nordicDongle = nordicDongle
            self.name = name
            self.address = address
            self.battery = battery
            self.sessions = sessions
            self.seed = seed
            self.firstWakeup = firstWakeup
            self.linkLossAfterEvents = linkLossAfterEvents
            self.vanishAfterEvents = vanishAfterEvents
        }
    }

    /// What the simulated device is.
    public let configuration: Configuration
    /// Where its characteristics are.
    public let profile: ResearchBITProfile
    /// Link events of every connection (see ``AxonDevices/DeviceTransport``).
    public let events: AsyncStream<LinkEvent>
    /// How the device is named in reports.
    public var deviceDescription: String { "sim:researchbit (\(configuration.name))" }

    private let continuation: AsyncStream<LinkEvent>.Continuation
    private let queue = DispatchQueue(label: "axon.simulated-researchbit")
    private var receiver: (any TransportReceiver)?
    private var linkUp = false
    private var vanished = false
    private var pending: [(UInt32, SummaryEvent)] = []
    private var inFlight: UInt32?
    private var sent = 0
    private var battery: Int
    private var ledOn = false
    private var buttonDown = false
    private var subscribed: Set<GATTCharacteristicID> = []

    /// Creates a value from its fields.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        profile = ResearchBITProfile(
            service: configuration.nordicDongle ? ResearchBITProfile.nordicService : ResearchBITProfile.researchBITService)
        battery = configuration.battery
        (events, continuation) = AsyncStream.makeStream()
        pending = Self.events(configuration).enumerated().map { (UInt32($0.offset + 1), $0.element) }
    }

    /// The events the simulated device starts with: per session a trigger-pull and a time-awake event, the
    /// time-awake events of even sessions sent after the next session's trigger pulls (pairing must not rely on
    /// order).
    public static func events(_ configuration: Configuration) -> [SummaryEvent] {
        var random = SplitMix64(seed: configuration.seed)
        func uuid() -> UUID {
            let a = random.next(), b = random.next()
            let bytes =
                (0..<8).map { UInt8(truncatingIfNeeded: a >> (8 * $0)) }
                + (0..<8).map { UInt8(truncatingIfNeeded: b >> (8 * $0)) }
            return UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                    bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
        }
        var events: [SummaryEvent] = []
        var held: SummaryEvent?
        for session in 0..<configuration.sessions {
            let wakeup = configuration.firstWakeup + UInt32(session) * 3 * 3600 + UInt32(random.next() % 600)
            let pulls = SummaryEvent(
                id: uuid(), type: .triggerPulls, wakeupTime: wakeup, fields: [UInt32(5 + random.next() % 60)])
            let awake = SummaryEvent(
                id: uuid(), type: .timeAwake, wakeupTime: wakeup, fields: [UInt32(30 + random.next() % 900)])
            events.append(pulls)
            if let h = held { events.append(h); held = nil }
            if session % 2 == 0 { held = awake } else { events.append(awake) }
        }
        if let h = held { events.append(h) }
        return events
    }

    /// Events not yet acknowledged.
    public var pendingCount: Int { queue.sync { pending.count } }
    /// Event notifications sent (re-sends included).
    public var eventsSent: Int { queue.sync { sent } }
    /// Whether the Nordic dongle's LED is on.
    public var isLEDOn: Bool { queue.sync { ledOn } }

    /// The dongle's button goes down or up; notified when the button is subscribed and the link is up.
    public func setButton(pressed: Bool) {
        queue.sync {
            buttonDown = pressed
            notifyDongle(.button(pressed: pressed))
        }
    }

    /// The battery level changes (clamped to 0–100); on a dongle, notified when subscribed.
    public func setBattery(_ level: Int) {
        queue.sync {
            battery = min(100, max(0, level))
            notifyDongle(.battery(battery))
        }
    }

    /// The dongle characteristics this device has (none on a ResearchBIT sensor).
    private var dongleCharacteristics: [NordicDongleCharacteristic] {
        configuration.nordicDongle ? NordicDongleCharacteristic.allCases : []
    }

    private func notifyDongle(_ value: NordicDongleValue) {
        let id = value.characteristic.id
        guard linkUp, subscribed.contains(id) else { return }
        receiver?.transport(
            didReceive: value.bytes, from: id, arrivalTime: Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
    }

    /// Connects the simulated link (see ``AxonDevices/DeviceTransport``).
    public func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver)
        async throws(TransportError)
    {
        let error: TransportError? = queue.sync {
            let notifying = [profile.summary] + dongleCharacteristics.filter(\.notifies).map(\.id)
            for id in notifications where !notifying.contains(id) { return .characteristicMissing(id) }
            self.receiver = receiver
            subscribed = Set(notifications)
            linkUp = true
            vanished = false
            for event in [LinkEvent.connecting(attempt: 1), .connected, .servicesResolved]
                + notifications.map(LinkEvent.notifying) + [.ready]
            {
                deliver(event)
            }
            return nil
        }
        if let error { throw error }
    }

    /// Reads a characteristic (see ``AxonDevices/DeviceTransport``).
    public func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8] {
        let result: Result<[UInt8], TransportError> = queue.sync {
            guard let which = NordicDongleCharacteristic(characteristic), dongleCharacteristics.contains(which) else {
                return .failure(.characteristicMissing(characteristic))
            }
            guard linkUp else { return .failure(.notConnected) }
            let value: NordicDongleValue =
                switch which {
                case .battery: .battery(battery)
                case .led: .led(ledOn)
                case .name: .name(configuration.name)
                case .button: .button(pressed: buttonDown)
                }
            return .success(value.bytes)
        }
        return try result.get()
    }

    /// Handles a write as the device would (see ``AxonDevices/DeviceTransport``).
    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        async throws(TransportError)
    {
        let error: TransportError? = queue.sync {
            guard linkUp else { return .notConnected }
            if characteristic == NordicDongleCharacteristic.led.id, configuration.nordicDongle {
                guard value.count == 1, value[0] <= 1 else {
                    return .operationFailed("org.bluez.Error.InvalidValueLength: the LED is one byte, 0 or 1")
                }
                ledOn = value[0] == 1
                return nil
            }
            guard characteristic == profile.command, let command = ResearchBITCommand(decoding: value) else {
                return .operationFailed("org.bluez.Error.InvalidValueLength: not a ResearchBIT command")
            }
            switch command {
            case .status: notify(.status(battery: battery, pending: pending.count))
            case .fetch(let after):
                pending.removeAll { $0.0 <= after }
                sendNext()
            case .acknowledge(let sequence):
                pending.removeAll { $0.0 == sequence }
                if inFlight == sequence { inFlight = nil; sendNext() }
            }
            return nil
        }
        if let error { throw error }
    }

    /// Disconnects (see ``AxonDevices/DeviceTransport``); the device keeps what was not acknowledged.
    public func close() async {
        queue.sync {
            linkUp = false
            inFlight = nil
            subscribed = []
            deliver(.closed)
            receiver = nil
        }
    }

    private func sendNext() {
        guard linkUp else { return }
        guard let (sequence, event) = pending.first else {
            notify(.done(lastSequence: UInt32(Self.events(configuration).count)))
            return
        }
        inFlight = sequence
        sent += 1
        notify(.event(sequence: sequence, event))
        if configuration.vanishAfterEvents == sent {
            linkUp = false
            vanished = true
            deliver(.linkLost(reason: "out of range"))
        } else if configuration.linkLossAfterEvents.contains(sent) {
            linkUp = false
            inFlight = nil
            deliver(.linkLost(reason: "simulated link loss"))
            queue.asyncAfter(deadline: .now() + 0.05) { [self] in
                guard receiver != nil, !vanished else { return }
                linkUp = true
                for e in [LinkEvent.connecting(attempt: 1), .connected, .servicesResolved, .ready] { deliver(e) }
            }
        }
    }

    private func notify(_ notification: ResearchBITNotification) {
        receiver?.transport(
            didReceive: notification.bytes, from: profile.summary,
            arrivalTime: Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
    }

    private func deliver(_ event: LinkEvent) {
        continuation.yield(event)
        receiver?.transport(didChange: event)
    }
}
