/// Axon's own PIDs (numbers 256 and up, the seed's "custom PIDs"): values derived from several standard requests
/// or from the adapter. Each is read one request at a time (``OBDGateway/readBasic(pid:)``) and can never be
/// registered for continuous updates.
///
/// | id  | name | value |
/// |-----|------|-------|
/// | 256 | vin | the VIN (mode 09 PID 02), text |
/// | 257 | dtc_list | stored trouble codes (mode 03), text list ("P0133") |
/// | 258 | fuel_economy | instantaneous fuel economy, L/100 km, from MAF (0x10) and speed (0x0D) (below) |
/// | 259 | adapter_voltage | the supply voltage the adapter measures (`ATRV`), V |
/// | 260 | supported_pids | every standard PID the vehicle supports (bitmaps 0x00, 0x20, …), as a list |
///
/// Fuel economy: fuel flow = MAF ÷ 14.7 (the stoichiometric air/fuel ratio of petrol) ÷ 745 g/L (petrol's
/// density); L/100 km = fuel flow [L/h] × 100 ÷ speed [km/h]. Below 1 km/h there is no distance to divide by and the
/// read fails with ``OBDGatewayError/noValue(pid:reason:)``.
///
/// Threading: a value type; share freely.
public enum OBDCustomPID: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The vehicle identification number.
    case vin = 256
    /// The stored diagnostic trouble codes.
    case troubleCodes = 257
    /// Instantaneous fuel economy, L/100 km.
    case fuelEconomy = 258
    /// The adapter's supply voltage, V.
    case adapterVoltage = 259
    /// The supported standard PIDs.
    case supportedPIDs = 260

    /// A short name for tables ("fuel_economy").
    public var name: String {
        switch self {
        case .vin: return "vin"
        case .troubleCodes: return "dtc_list"
        case .fuelEconomy: return "fuel_economy"
        case .adapterVoltage: return "adapter_voltage"
        case .supportedPIDs: return "supported_pids"
        }
    }

    /// The unit of a numeric value, "" for text.
    public var unit: String {
        switch self {
        case .fuelEconomy: return "L/100 km"
        case .adapterVoltage: return "V"
        case .vin, .troubleCodes, .supportedPIDs: return ""
        }
    }

    /// "fuel_economy (custom PID 258)".
    public var description: String { "\(name) (custom PID \(rawValue))" }

    /// Grams of air per gram of petrol at the stoichiometric ratio.
    public static let airFuelRatio = 14.7
    /// Grams per litre of petrol.
    public static let fuelDensity = 745.0

    /// Fuel economy in L/100 km from mass air flow (g/s) and speed (km/h); `nil` below 1 km/h (standing still has no
    /// distance to divide by).
    public static func fuelEconomy(maf: Double, speed: Double) -> Double? {
        guard speed >= 1 else { return nil }
        let litresPerHour = maf / airFuelRatio / fuelDensity * 3600
        return litresPerHour * 100 / speed
    }
}

/// A PID as the seed numbers them: 0–255 standard (mode 01), 256 and up custom.
///
/// Threading: a value type; share freely.
public enum OBDPID: Sendable, Hashable, CustomStringConvertible {
    /// A standard mode-01 PID Axon decodes.
    case standard(OBDStandardPID)
    /// A standard PID number Axon has no formula for (read raw; refused for registration).
    case undecoded(UInt8)
    /// One of Axon's custom PIDs.
    case custom(OBDCustomPID)

    /// The seed's number: 0–255 standard, 256+ custom.
    public var number: Int {
        switch self {
        case .standard(let pid): return Int(pid.id)
        case .undecoded(let id): return Int(id)
        case .custom(let pid): return pid.rawValue
        }
    }

    /// The PID for people: "engine_speed (PID 0x0C)", "vin (custom PID 256)".
    public var description: String {
        switch self {
        case .standard(let pid): return pid.description
        case .undecoded(let id): return "PID 0x\(OBDResponseError.hex([id]))"
        case .custom(let pid): return pid.description
        }
    }

    /// The PID with the seed's number, or `nil` for a number that is neither standard (0–255) nor custom.
    public init?(number: Int) {
        if (0...255).contains(number) {
            let id = UInt8(number)
            self = OBDStandardPID.all[id].map { .standard($0) } ?? .undecoded(id)
        } else if let custom = OBDCustomPID(rawValue: number) {
            self = .custom(custom)
        } else {
            return nil
        }
    }

    /// Parses a command-line PID: a name (`rpm`, `speed`, `engine_speed`, `vin`, `dtc_list`), hex with `0x`
    /// (`0x0C`) or a decimal number in the seed's numbering (`12`, `256`).
    public init?(parsing text: String) {
        if let standard = OBDStandardPID.named(text) {
            self = .standard(standard)
        } else if let custom = OBDCustomPID.allCases.first(where: { $0.name == text.lowercased() }) {
            self = .custom(custom)
        } else if text.lowercased().hasPrefix("0x"), let number = Int(text.dropFirst(2), radix: 16) {
            self.init(number: number)
        } else if let number = Int(text) {
            self.init(number: number)
        } else {
            return nil
        }
    }
}
