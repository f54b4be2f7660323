/// What kind of Bluetooth LE address a device uses, which says whether the address lasts (Bluetooth Core
/// specification, Vol 6, Part B, 1.3): a public or static random address is the device's for good; a resolvable
/// private address changes from time to time (its privacy timer, typically every 15 minutes) and only a central
/// that holds the device's identity resolving key — given when the two bond — can tie the new address to the
/// device; a non-resolvable private address cannot be tied to anything.
///
/// BlueZ reports `Device1.AddressType` (`public` or `random`); a random address's kind is in its two most
/// significant bits: `11` static, `01` resolvable private, `00` non-resolvable private.
///
/// Threading: a value type; share freely.
public enum BluetoothAddressKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// An IEEE-assigned public address: stable.
    case `public`
    /// A static random address: stable until the device is reset.
    case staticRandom
    /// A resolvable private address: changes; resolvable only with the identity resolving key of a bond.
    case resolvablePrivate
    /// A non-resolvable private address: changes; never resolvable.
    case nonResolvablePrivate

    /// The kind of `address` (`C0:FF:EE:00:00:20`) given BlueZ's `AddressType` (`public`/`random`); `nil` for an
    /// unknown type or an address that is not six hex octets.
    public init?(address: String, type: String?) {
        let octets = address.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        guard octets.count == 6, address.split(separator: ":").count == 6 else { return nil }
        switch type {
        case "public": self = .public
        case "random":
            switch octets[0] >> 6 {
            case 0b11: self = .staticRandom
            case 0b01: self = .resolvablePrivate
            case 0b00: self = .nonResolvablePrivate
            default: return nil  // 0b10 is reserved
            }
        default: return nil
        }
    }

    /// Whether the device keeps this address (public or static random).
    public var isStable: Bool { self == .public || self == .staticRandom }

    public var description: String {
        switch self {
        case .public: "public"
        case .staticRandom: "static random"
        case .resolvablePrivate: "resolvable private"
        case .nonResolvablePrivate: "non-resolvable private"
        }
    }
}
