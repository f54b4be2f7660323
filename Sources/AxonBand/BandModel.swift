/// The band models the SDK covers, by their model number.
///
/// Threading: a value type; share freely.
public enum BandModel: UInt16, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Fit Pro 9614N.
    case fitPro = 9614
    /// Fit Pulse 9615N.
    case fitPulse = 9615
    /// Smartee Training 9616N, the only one with a choice of background colour.
    case smarteeTraining = 9616

    /// A sentence for people.
    public var description: String {
        switch self {
        case .fitPro: "Fit Pro 9614N"
        case .fitPulse: "Fit Pulse 9615N"
        case .smarteeTraining: "Smartee Training 9616N"
        }
    }

    /// Whether the band has a background colour option (9616 only).
    public var hasBackgroundColour: Bool { self == .smarteeTraining }
}

/// What the band says about itself (the SDK's `DeviceInfo`): model, firmware and name; battery separately.
///
/// Threading: a value type; share freely.
public struct BandDeviceInfo: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The band model.
    public var model: BandModel
    /// Firmware version as `major.minor.patch`.
    public var firmware: String
    /// The band's advertised name.
    public var name: String

    /// Creates a value from its fields.
    public init(model: BandModel, firmware: String, name: String) {
        self.model = model
        self.firmware = firmware
        self.name = name
    }

    /// A sentence for people.
    public var description: String { "\(name): \(model), firmware \(firmware)" }
}
