import AxonDevices
import AxonRecording
import Foundation

/// One advertisement heard in a scan: what ``ResearchBITScanner`` filters on.
///
/// Threading: a value type; share freely.
public struct ResearchBITAdvertisement: Sendable, Hashable {
    /// The advertised name, if any.
    public var name: String?
    /// The Bluetooth address.
    public var address: String
    /// The advertised service UUIDs.
    public var serviceUUIDs: [BluetoothUUID]
    /// Manufacturer data by company id.
    public var manufacturerData: [UInt16: [UInt8]]
    /// Signal strength, dBm.
    public var rssi: Int?

    /// Creates a value from its fields.
    public init(
        name: String?, address: String, serviceUUIDs: [BluetoothUUID], manufacturerData: [UInt16: [UInt8]], rssi: Int?
    ) {
        self.name = name
        self.address = address
        self.serviceUUIDs = serviceUUIDs
        self.manufacturerData = manufacturerData
        self.rssi = rssi
    }
}

/// Where a scan hears advertisements: BlueZ's discovery (the command line adapts `AxonBluetooth`'s central), or a
/// simulated air (``SimulatedResearchBIT/air(_:)``).
///
/// Threading contract: `Sendable`; one scan at a time.
public protocol AdvertisementSource: Sendable {
    /// Every device heard within `seconds`.
    func advertisements(seconds: Double) async throws(TransportError) -> [ResearchBITAdvertisement]
}

/// The SDK's scan (`scanForBLEDevices` → `BLEDevice`s) as a library call: listens to an ``AdvertisementSource``,
/// keeps the ResearchBIT sensors and Nordic dongles (by service UUID; the name proves nothing), remembers each in
/// the store for a later fetch without a scan, and gives each its last sync time from the store.
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

    /// The ResearchBIT and Nordic devices among `advertisements`, remembered and with their last sync times, in
    /// the order heard.
    ///
    /// - Throws: ``ResearchBITError/store(_:)``.
    public func devices(in advertisements: [ResearchBITAdvertisement]) throws(ResearchBITError) -> [ResearchBITDevice] {
        var found: [ResearchBITDevice] = []
        for advertisement in advertisements {
            guard
                var device = ResearchBITDevice(
                    name: advertisement.name, address: advertisement.address,
                    serviceUUIDs: advertisement.serviceUUIDs, manufacturerData: advertisement.manufacturerData,
                    rssi: advertisement.rssi)
            else { continue }
            do {
                try store.remember(device)
                device.lastSyncTime = try store.lastSyncTime(of: device.address)
            } catch {
                throw .store(error)
            }
            found.append(device)
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
