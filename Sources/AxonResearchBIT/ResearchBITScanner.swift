import AxonDevices
import AxonRecording
import Foundation

/// One advertisement heard in a scan: what ``ResearchBITScanner`` filters on and recognises remembered devices by.
///
/// Threading: a value type; share freely.
public struct ResearchBITAdvertisement: Sendable, Hashable {
    /// The advertised name, if any.
    public var name: String?
    /// The Bluetooth address BlueZ reports: for a bonded device that uses resolvable private addresses, its
    /// identity address.
    public var address: String
    /// The advertised service UUIDs.
    public var serviceUUIDs: [BluetoothUUID]
    /// Manufacturer data by company id.
    public var manufacturerData: [UInt16: [UInt8]]
    /// Signal strength, dBm.
    public var rssi: Int?
    /// The kind of ``address`` (whether it lasts), when known.
    public var addressKind: BluetoothAddressKind?
    /// Whether BlueZ holds a bond with the device (`Device1.Bonded`).
    public var isBonded: Bool
    /// The address BlueZ first knew the device by, when it differs from ``address``: bonding revealed the identity
    /// address of a device found at a resolvable private address (BlueZ's object path keeps the first address).
    public var firstAddress: String?

    /// Creates a value from its fields.
    public init(
        name: String?, address: String, serviceUUIDs: [BluetoothUUID], manufacturerData: [UInt16: [UInt8]], rssi: Int?,
        addressKind: BluetoothAddressKind? = nil, isBonded: Bool = false, firstAddress: String? = nil
    ) {
        self.name = name
        self.address = address
        self.serviceUUIDs = serviceUUIDs
        self.manufacturerData = manufacturerData
        self.rssi = rssi
        self.addressKind = addressKind
        self.isBonded = isBonded
        self.firstAddress = firstAddress.flatMap { $0.caseInsensitiveCompare(address) == .orderedSame ? nil : $0 }
    }
}

/// Where a scan hears advertisements: BlueZ's discovery (the command line adapts `AxonBluetooth`'s central), or a
/// simulated air (`SimulatedResearchBIT.air(_:)`).
///
/// Threading contract: `Sendable`; one scan at a time.
public protocol AdvertisementSource: Sendable {
    /// Every device heard within `seconds`.
    func advertisements(seconds: Double) async throws(TransportError) -> [ResearchBITAdvertisement]
}

/// The SDK's scan (`scanForBLEDevices` → `BLEDevice`s) as a library call: listens to an ``AdvertisementSource``,
/// keeps the ResearchBIT sensors and Nordic dongles (by service UUID; the name proves nothing), recognises devices
/// remembered earlier, remembers each in the store for a later fetch without a scan, and gives each its last sync
/// time from the store.
///
/// A device is recognised as a remembered one by its address — for a bonded device BlueZ's identity address, which
/// stays the same whatever resolvable private address the device uses — or, right after bonding, by the address
/// BlueZ first knew it at (``ResearchBITAdvertisement/firstAddress``). Nothing else: an unbonded device that moved
/// to a new resolvable private address is a new device, because nothing it advertises identifies it (the name is
/// not unique). ``locate(_:in:seconds:)`` says so when it looks for such a device.
///
///     let devices = try await ResearchBITScanner(store: store).scan(source, seconds: 5)
///
/// Threading: `Sendable`; any task.
public struct ResearchBITScanner: Sendable {
    /// Where found devices are remembered and sync times are read.
    public let store: ResearchBITStore

    /// A scanner that remembers into `store`.
    public init(store: ResearchBITStore) { self.store = store }

    /// Scans `source` for `seconds`.
    ///
    /// - Throws: ``ResearchBITError/transport(_:)``, ``ResearchBITError/store(_:)``.
    public func scan(_ source: any AdvertisementSource, seconds: Double) async throws(ResearchBITError)
        -> [ResearchBITDevice]
    {
        let heard: [ResearchBITAdvertisement]
        do { heard = try await source.advertisements(seconds: seconds) } catch { throw .transport(error) }
        return try devices(in: heard)
    }

    /// Finds a remembered device again: scans `source` for `seconds` and returns the device as heard now (its
    /// current address, battery and data flag; remembered again).
    ///
    /// - Throws: ``ResearchBITError/notHeard(name:address:seconds:addressChanges:)`` when it was not recognised —
    ///   `addressChanges` is true for an unbonded device with a private address, which cannot be recognised at a
    ///   new one; ``ResearchBITError/transport(_:)``, ``ResearchBITError/store(_:)``.
    public func locate(_ remembered: ResearchBITDevice, in source: any AdvertisementSource, seconds: Double)
        async throws(ResearchBITError) -> ResearchBITDevice
    {
        let found = try await scan(source, seconds: seconds)
        if let device = found.first(where: { $0.storeKey.caseInsensitiveCompare(remembered.storeKey) == .orderedSame })
        {
            return device
        }
        throw .notHeard(
            name: remembered.name, address: remembered.address, seconds: seconds,
            addressChanges: !remembered.isBonded && remembered.addressKind.map { !$0.isStable } == true)
    }

    /// The ResearchBIT and Nordic devices among `advertisements`, recognised, remembered and with their last sync
    /// times, in the order heard.
    ///
    /// - Throws: ``ResearchBITError/store(_:)``.
    public func devices(in advertisements: [ResearchBITAdvertisement]) throws(ResearchBITError) -> [ResearchBITDevice] {
        var found: [ResearchBITDevice] = []
        do {
            let known = try store.knownDevices()
            func remembered(at address: String?) -> ResearchBITDevice? {
                guard let address else { return nil }
                return known.first { $0.address.caseInsensitiveCompare(address) == .orderedSame }
            }
            for advertisement in advertisements {
                guard var device = ResearchBITDevice(advertisement) else { continue }
                if let same = remembered(at: advertisement.address) ?? remembered(at: advertisement.firstAddress) {
                    device.storeKey = same.storeKey
                }
                try store.remember(device)
                device.lastSyncTime = try store.lastSyncTime(of: device.storeKey)
                found.append(device)
            }
        } catch {
            throw .store(error)
        }
        return found
    }
}

extension SimulatedResearchBIT {
    /// A simulated air: the ResearchBIT of `configuration`, a Nordic dongle and a heart-rate band (which a scan
    /// leaves out).
    public struct Air: AdvertisementSource {
        /// What is heard.
        public let advertisements: [ResearchBITAdvertisement]

        /// The air around a simulated ResearchBIT.
        public init(_ configuration: SimulatedResearchBIT.Configuration = .init()) {
            advertisements = [
                ResearchBITAdvertisement(
                    name: configuration.name, address: configuration.address,
                    serviceUUIDs: [ResearchBITProfile.researchBITService],
                    manufacturerData: [
                        ResearchBITProfile.companyID: ResearchBITDevice.manufacturerData(
                            battery: configuration.battery, dataAvailable: true)
                    ], rssi: -48),
                ResearchBITAdvertisement(
                    name: "Nordic-0021", address: "C0:FF:EE:00:00:21", serviceUUIDs: [ResearchBITProfile.nordicService],
                    manufacturerData: [
                        ResearchBITProfile.companyID: ResearchBITDevice.manufacturerData(battery: 40, dataAvailable: false)
                    ], rssi: -61),
                ResearchBITAdvertisement(
                    name: "Heartband-0023", address: "C0:FF:EE:00:00:23", serviceUUIDs: ["180d", "180f"],
                    manufacturerData: [:], rssi: -55),
            ]
        }

        public func advertisements(seconds: Double) async throws(TransportError) -> [ResearchBITAdvertisement] {
            advertisements
        }
    }
}
