import AxonDevices
import Foundation

/// A ResearchBIT sensor or Nordic dongle found by a scan (the SDK's `BLEDevice`): name, battery and whether it
/// holds summary data not yet fetched, all read from its advertisement without connecting.
///
/// Threading: a value type; share freely.
public struct ResearchBITDevice: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which family the advertised service says it is.
    public enum Kind: String, Sendable, Hashable, Codable { case researchBIT, nordicDongle }

    /// The name the device gives itself.
    public var name: String
    /// The Bluetooth address to reach it at: for a bonded device BlueZ's identity address (stable whatever
    /// private address it advertises), else the address it was heard at.
    public var address: String
    /// Kind.
    public var kind: Kind
    /// 0–100, `nil` when the advertisement did not carry it.
    public var batteryPercentage: Int?
    /// Summary data waiting to be fetched.
    public var dataIsAvailable: Bool
    /// Rssi.
    public var rssi: Int?
    /// When its data was last fetched completely into the store (the SDK's `lastSyncTime`), `nil` if never; set by
    /// ``ResearchBITScanner`` and ``ResearchBITStore/knownDevice(_:)`` from ``ResearchBITStore/lastSyncTime(of:)``.
    public var lastSyncTime: Date?
    /// The kind of ``address`` (whether it lasts), when the scan knew it.
    public var addressKind: BluetoothAddressKind?
    /// Whether BlueZ holds a bond with it: then ``address`` is its identity address.
    public var isBonded: Bool
    /// The key of its data in the store (summary events, syncs): the address it was first remembered at. It stays
    /// when ``address`` changes (bonding revealed the identity address), so its data stays in one place.
    public var storeKey: String

    /// Creates a value from its fields.
    public init(
        name: String, address: String, kind: Kind, batteryPercentage: Int?, dataIsAvailable: Bool, rssi: Int? = nil,
        addressKind: BluetoothAddressKind? = nil, isBonded: Bool = false, storeKey: String? = nil
    ) {
        self.name = name
        self.address = address
        self.kind = kind
        self.batteryPercentage = batteryPercentage
        self.dataIsAvailable = dataIsAvailable
        self.rssi = rssi
        self.addressKind = addressKind
        self.isBonded = isBonded
        self.storeKey = storeKey ?? address
    }

    /// Decodes a stored device; rows stored before address kinds, bonds and store keys were kept decode with none
    /// known, not bonded, and the address as the store key (where their data is).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name), address: try c.decode(String.self, forKey: .address),
            kind: try c.decode(Kind.self, forKey: .kind),
            batteryPercentage: try c.decodeIfPresent(Int.self, forKey: .batteryPercentage),
            dataIsAvailable: try c.decode(Bool.self, forKey: .dataIsAvailable),
            rssi: try c.decodeIfPresent(Int.self, forKey: .rssi),
            addressKind: try c.decodeIfPresent(BluetoothAddressKind.self, forKey: .addressKind),
            isBonded: try c.decodeIfPresent(Bool.self, forKey: .isBonded) ?? false,
            storeKey: try c.decodeIfPresent(String.self, forKey: .storeKey))
        lastSyncTime = try c.decodeIfPresent(Date.self, forKey: .lastSyncTime)
    }

    /// The device an advertisement describes (see ``init(name:address:serviceUUIDs:manufacturerData:rssi:)``),
    /// with the address's kind and bond; its store key is its address until a scan recognises it.
    public init?(_ advertisement: ResearchBITAdvertisement) {
        self.init(
            name: advertisement.name, address: advertisement.address, serviceUUIDs: advertisement.serviceUUIDs,
            manufacturerData: advertisement.manufacturerData, rssi: advertisement.rssi)
        addressKind = advertisement.addressKind
        isBonded = advertisement.isBonded
    }

    /// The device an advertisement describes, or `nil` when it is not a ResearchBIT or Nordic device (the scan's
    /// filter: by service UUID only, whatever the name says).
    ///
    /// The manufacturer data under Nordic's company id (0x0059) is `battery (0–100) | flags (bit 0: data
    /// available)`; missing or malformed, battery is `nil` and data is assumed available.
    public init?(
        name: String?, address: String, serviceUUIDs: [BluetoothUUID], manufacturerData: [UInt16: [UInt8]], rssi: Int?
    ) {
        let kind: Kind
        if serviceUUIDs.contains(ResearchBITProfile.researchBITService) {
            kind = .researchBIT
        } else if serviceUUIDs.contains(ResearchBITProfile.nordicService) {
            kind = .nordicDongle
        } else {
            return nil
        }
        let data = manufacturerData[ResearchBITProfile.companyID] ?? []
        let battery = data.count == 2 && data[0] <= 100 ? Int(data[0]) : nil
        self.init(
            name: name ?? address, address: address, kind: kind, batteryPercentage: battery,
            dataIsAvailable: data.count == 2 ? data[1] & 1 != 0 : true, rssi: rssi)
    }

    /// The manufacturer data a device advertises (the simulators' side).
    public static func manufacturerData(battery: Int, dataAvailable: Bool) -> [UInt8] {
        [UInt8(clamping: battery), dataAvailable ? 1 : 0]
    }

    /// The profile of its service.
    public var profile: ResearchBITProfile {
        ResearchBITProfile(
            service: kind == .researchBIT ? ResearchBITProfile.researchBITService : ResearchBITProfile.nordicService)
    }

    /// A sentence for people.
    public var description: String {
        "\(name) (\(address)) \(kind == .researchBIT ? "ResearchBIT" : "Nordic dongle"), battery "
            + (batteryPercentage.map { "\($0) %" } ?? "unknown") + (dataIsAvailable ? ", data available" : ", synced")
    }
}
