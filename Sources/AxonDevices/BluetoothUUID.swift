/// A Bluetooth UUID in its full 128-bit lowercase form (`0000180f-0000-1000-8000-00805f9b34fb`), the form BlueZ
/// reports. Short SIG forms (`180F`, `0x2a19`, 32-bit `0000180f`) expand on the Bluetooth base UUID.
///
/// Threading: a value type; share freely.
public struct BluetoothUUID: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The canonical 36-character lowercase string.
    public let string: String

    /// Parses a 16-, 32- or 128-bit UUID; `nil` for anything else.
    public init?(parsing text: String) {
        var hex = text.lowercased()
        if hex.hasPrefix("0x") { hex.removeFirst(2) }
        let isHex = { (s: Substring) in !s.isEmpty && s.allSatisfy { $0.isHexDigit } }
        switch hex.count {
        case 4 where isHex(Substring(hex)): string = "0000\(hex)-0000-1000-8000-00805f9b34fb"
        case 8 where isHex(Substring(hex)): string = "\(hex)-0000-1000-8000-00805f9b34fb"
        case 36:
            let groups = hex.split(separator: "-", omittingEmptySubsequences: false)
            guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy(isHex) else { return nil }
            string = hex
        default: return nil
        }
    }

    /// A literal that must be a valid UUID (a programming error otherwise).
    public init(stringLiteral value: String) {
        guard let uuid = BluetoothUUID(parsing: value) else { preconditionFailure("not a Bluetooth UUID: \(value)") }
        self = uuid
    }

    /// The 16-bit SIG number when the UUID is on the Bluetooth base, else `nil`.
    public var shortValue: UInt16? {
        guard string.hasPrefix("0000"), string.hasSuffix("-0000-1000-8000-00805f9b34fb") else { return nil }
        return UInt16(string.dropFirst(4).prefix(4), radix: 16)
    }

    public var description: String { shortValue.map(Self.shortForm) ?? string }

    /// `0x180F`.
    private static func shortForm(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    public static func < (lhs: BluetoothUUID, rhs: BluetoothUUID) -> Bool { lhs.string < rhs.string }

    /// Battery service 0x180F.
    public static let batteryService: BluetoothUUID = "180f"
    /// Battery Level 0x2A19 (one byte, percent).
    public static let batteryLevel: BluetoothUUID = "2a19"
    /// Device Information service 0x180A.
    public static let deviceInformationService: BluetoothUUID = "180a"
    /// Manufacturer Name String 0x2A29.
    public static let manufacturerName: BluetoothUUID = "2a29"
    /// Model Number String 0x2A24.
    public static let modelNumber: BluetoothUUID = "2a24"
    /// Serial Number String 0x2A25.
    public static let serialNumber: BluetoothUUID = "2a25"
    /// Firmware Revision String 0x2A26.
    public static let firmwareRevision: BluetoothUUID = "2a26"
}

/// A GATT characteristic named by UUIDs, never by object path or ATT handle (those differ between devices and
/// firmware versions).
public struct GATTCharacteristicID: Sendable, Hashable, CustomStringConvertible {
    /// The service it must belong to; `nil` accepts the first characteristic with the UUID in any service.
    public var service: BluetoothUUID?
    public var characteristic: BluetoothUUID

    public init(service: BluetoothUUID?, characteristic: BluetoothUUID) {
        self.service = service
        self.characteristic = characteristic
    }

    public var description: String { service.map { "\($0)/\(characteristic)" } ?? characteristic.description }

    /// Battery Level in the Battery service.
    public static let batteryLevel = GATTCharacteristicID(service: .batteryService, characteristic: .batteryLevel)
}
