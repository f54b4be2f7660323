import AxonDevices
import AxonStreams
import Dispatch

/// An ELM327 dongle on Bluetooth LE: the serial-over-GATT service that BLE OBD dongles expose, over transports from
/// a ``AxonDevices/DeviceTransportFactory`` (BlueZ's, `AxonBluetooth.BlueZTransportFactory`, in the command line;
/// AxonOBD itself knows no Bluetooth stack).
/// Commands are written to the write characteristic without response; the dongle's output arrives as
/// notifications, in chunks (20 bytes with the default ATT MTU), and is handed out by ``read(deadline:)``.
///
/// The dongle is found by name or address, discovering by the known serial services when the stack does not know it
/// yet (``Profile/known``, tried in turn: 0xFFF0 with 0xFFF1/0xFFF2, the HM-10 style 0xFFE0 with 0xFFE1 for both, and 0x18F0 with
/// 0x2AF0/0x2AF1). A link loss ends the link (``AxonDevices/ByteLinkError/closed(endpoint:)`` from the next read or
/// write), so the gateway's own reconnection takes over, as it does for a vanished serial port.
///
/// Threading contract: see ``OBDByteLink`` — one owner at a time. Notifications arrive on the transport's delivery
/// thread and wait in a buffer under a lock.
public final class BLESerialLink: OBDByteLink, @unchecked Sendable {
    // Sendable invariant: `transport` and `profile` are touched by the owner only; `inbox` is locked.

    /// Where a dongle's serial port sits in its GATT database.
    public struct Profile: Sendable, Hashable {
        public var service: BluetoothUUID
        public var notify: BluetoothUUID
        public var write: BluetoothUUID

        public init(service: BluetoothUUID, notify: BluetoothUUID, write: BluetoothUUID) {
            self.service = service
            self.notify = notify
            self.write = write
        }

        /// The serial services BLE OBD dongles use, most common first.
        public static let known: [Profile] = [
            Profile(service: "fff0", notify: "fff1", write: "fff2"),
            Profile(service: "ffe0", notify: "ffe1", write: "ffe1"),
            Profile(service: "18f0", notify: "2af0", write: "2af1"),
        ]
    }

    /// The dongle's name or address.
    public let device: String
    /// Where the Bluetooth stack is reached (for BlueZ the D-Bus address of bluetoothd's bus); `nil` = the system's.
    public let bus: String?
    /// Where the transports come from; `nil`: no Bluetooth stack was given, and ``open()`` says so.
    public let factory: (any DeviceTransportFactory)?
    /// Seconds ``open()`` waits for discovery, connection and notifications.
    public let openTimeout: Double
    public var endpoint: String { "ble:\(device)" }

    private var transport: (any DeviceTransport)?
    private var profile: Profile?
    private let inbox = ThreadLocked(Inbox())
    private let arrived = DispatchSemaphore(value: 0)

    private struct Inbox {
        var bytes: [UInt8] = []
        var lost = false
    }

    /// Describes the link; nothing is opened until ``open()``.
    public init(
        device: String, bus: String? = nil, factory: (any DeviceTransportFactory)?, openTimeout: Double = 15
    ) {
        self.device = device
        self.bus = bus
        self.factory = factory
        self.openTimeout = openTimeout
    }

    deinit { close() }

    public func open() throws(OBDLinkError) {
        close()
        inbox.withLock { $0 = Inbox() }
        guard let factory else {
            throw .cannotOpen(
                endpoint: endpoint, code: 0,
                reason: "no Bluetooth stack was given to the gateway (OBDGateway's bluetooth: a DeviceTransportFactory)")
        }
        // Blocking calls: the gateway's threads are synchronous, and Swift's cooperative pool may be busy with
        // blocking work elsewhere.
        let services = Profile.known.map(\.service)
        var reasons: [String] = []
        // Which serial service the dongle has shows once it is connected: try each in turn.
        for profile in Profile.known {
            let transport: any DeviceTransport
            do throws(TransportError) {
                transport = try factory.makeTransport(
                    device: device, bus: bus, discovering: services, connectTimeout: min(10, openTimeout),
                    openTimeout: openTimeout)
            } catch {
                throw .transport(endpoint: endpoint, operation: "open", error)
            }
            do throws(TransportError) {
                try transport.openBlocking(
                    notifications: [GATTCharacteristicID(service: profile.service, characteristic: profile.notify)],
                    receiver: Receiver(link: self))
            } catch .characteristicMissing {
                transport.closeBlocking()
                reasons.append("no \(profile.service) serial service")
                continue
            } catch {
                transport.closeBlocking()
                throw .transport(endpoint: endpoint, operation: "open", error)
            }
            self.transport = transport
            self.profile = profile
            return
        }
        throw .cannotOpen(endpoint: endpoint, code: 0, reason: reasons.joined(separator: ", "))
    }

    public func write(_ bytes: [UInt8], deadline: Double) throws(OBDLinkError) {
        guard let transport, let profile else { throw .notOpen(endpoint: endpoint) }
        if inbox.withLock({ $0.lost }) { throw .closed(endpoint: endpoint) }
        let target = GATTCharacteristicID(service: profile.service, characteristic: profile.write)
        do throws(TransportError) {
            try transport.writeBlocking(bytes, to: target, withResponse: false)
        } catch .notConnected {
            throw .closed(endpoint: endpoint)
        } catch {
            throw .transport(endpoint: endpoint, operation: "write", error)
        }
    }

    public func read(deadline: Double) throws(OBDLinkError) -> [UInt8] {
        guard transport != nil else { throw .notOpen(endpoint: endpoint) }
        let start = HostClock.now()
        while true {
            let (bytes, lost) = inbox.withLock { inbox in
                defer { inbox.bytes.removeAll(keepingCapacity: true) }
                return (inbox.bytes, inbox.lost)
            }
            if !bytes.isEmpty { return bytes }
            if lost { throw .closed(endpoint: endpoint) }
            let remaining = deadline - HostClock.now()
            guard remaining > 0 else { throw .timeout(endpoint: endpoint, seconds: max(0, deadline - start)) }
            _ = arrived.wait(timeout: .now() + remaining)
        }
    }

    public func close() {
        guard let transport else { return }
        self.transport = nil
        self.profile = nil
        transport.closeBlocking()
    }

    fileprivate func deliver(_ value: [UInt8]) {
        inbox.withLock { $0.bytes += value }
        arrived.signal()
    }

    fileprivate func linkLost() {
        inbox.withLock { $0.lost = true }
        arrived.signal()
    }
}

/// Hands notifications and link losses from the Bluetooth client's thread to the link.
private final class Receiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: `link` is weak and the link's inbox is locked.
    weak var link: BLESerialLink?
    init(link: BLESerialLink) { self.link = link }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        link?.deliver(value)
    }

    func transport(didChange event: LinkEvent) {
        switch event {
        case .linkLost, .serviceVanished: link?.linkLost()
        default: break
        }
    }
}
