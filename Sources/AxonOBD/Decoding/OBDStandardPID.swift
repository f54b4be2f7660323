/// A standard mode-01 PID (SAE J1979): its number, name, unit, answer length and formula.
///
///     OBDStandardPID.engineSpeed.decode([0x1A, 0xF8])   // 1726.0 rpm: (256A + B) / 4
///
/// Threading: a value type; share freely.
public struct OBDStandardPID: Sendable, Hashable, CustomStringConvertible {
    /// The PID number (0x0C).
    public let id: UInt8
    /// A short name for tables and CSV columns ("engine_speed").
    public let name: String
    /// The physical unit of the decoded value ("rpm").
    public let unit: String
    /// Data bytes in the answer after the `41 PP` echo.
    public let byteCount: Int
    /// The formula, in the words of the standard ("(256A + B) / 4").
    public let formula: String
    /// The range the formula can produce (for EDF scaling).
    public let range: ClosedRange<Double>
    private let kind: Kind

    enum Kind: Sendable, Hashable {
        case percent  // A × 100 / 255
        case temperature  // A − 40
        case raw1  // A
        case raw2  // 256A + B
        case quarter2  // (256A + B) / 4
        case hundredth2  // (256A + B) / 100
    }

    init(_ id: UInt8, _ name: String, _ unit: String, _ kind: Kind) {
        self.id = id
        self.name = name
        self.unit = unit
        self.kind = kind
        switch kind {
        case .percent: (byteCount, formula, range) = (1, "A × 100 / 255", 0...100)
        case .temperature: (byteCount, formula, range) = (1, "A − 40", -40...215)
        case .raw1: (byteCount, formula, range) = (1, "A", 0...255)
        case .raw2: (byteCount, formula, range) = (2, "256A + B", 0...65_535)
        case .quarter2: (byteCount, formula, range) = (2, "(256A + B) / 4", 0...16_383.75)
        case .hundredth2: (byteCount, formula, range) = (2, "(256A + B) / 100", 0...655.35)
        }
    }

    /// The value of the data bytes (after the echo); `bytes` must hold at least ``byteCount``.
    public func decode(_ bytes: some Collection<UInt8>) -> Double {
        precondition(bytes.count >= byteCount, "PID \(id) needs \(byteCount) data bytes")
        let a = Double(bytes[bytes.startIndex])
        let b = byteCount > 1 ? Double(bytes[bytes.index(after: bytes.startIndex)]) : 0
        switch kind {
        case .percent: return a * 100 / 255
        case .temperature: return a - 40
        case .raw1: return a
        case .raw2: return 256 * a + b
        case .quarter2: return (256 * a + b) / 4
        case .hundredth2: return (256 * a + b) / 100
        }
    }

    /// "engine_speed (PID 0x0C)".
    public var description: String { "\(name) (PID 0x\(OBDResponseError.hex([id])))" }

    /// Monitor status since DTCs cleared: byte A holds the MIL (bit 7) and the count of stored codes (bits 0–6).
    /// Read by the event poller for ``OBDEventKind/newTroubleCode``; not in the command line's PID names.
    static let monitorStatus = Self(0x01, "monitor_status", "", .raw1)

    /// Calculated engine load, %.
    public static let engineLoad = Self(0x04, "engine_load", "%", .percent)
    /// Engine coolant temperature, °C.
    public static let coolantTemperature = Self(0x05, "coolant_temperature", "°C", .temperature)
    /// Intake manifold absolute pressure, kPa.
    public static let manifoldPressure = Self(0x0B, "manifold_pressure", "kPa", .raw1)
    /// Engine speed, rpm.
    public static let engineSpeed = Self(0x0C, "engine_speed", "rpm", .quarter2)
    /// Vehicle speed, km/h.
    public static let vehicleSpeed = Self(0x0D, "vehicle_speed", "km/h", .raw1)
    /// Intake air temperature, °C.
    public static let intakeTemperature = Self(0x0F, "intake_temperature", "°C", .temperature)
    /// Mass air flow, g/s.
    public static let massAirFlow = Self(0x10, "maf", "g/s", .hundredth2)
    /// Throttle position, %.
    public static let throttlePosition = Self(0x11, "throttle", "%", .percent)
    /// Run time since engine start, s.
    public static let runTime = Self(0x1F, "run_time", "s", .raw2)
    /// Fuel tank level input, %.
    public static let fuelLevel = Self(0x2F, "fuel_level", "%", .percent)
    /// Ambient air temperature, °C.
    public static let ambientTemperature = Self(0x46, "ambient_temperature", "°C", .temperature)
    /// Engine oil temperature, °C.
    public static let oilTemperature = Self(0x5C, "oil_temperature", "°C", .temperature)

    /// Every PID Axon decodes, by number.
    public static let all: [UInt8: OBDStandardPID] = Dictionary(
        uniqueKeysWithValues: [
            engineLoad, coolantTemperature, manifoldPressure, engineSpeed, vehicleSpeed, intakeTemperature,
            massAirFlow, throttlePosition, runTime, fuelLevel, ambientTemperature, oilTemperature,
        ].map { ($0.id, $0) })

    /// The PID with this number or name (`"0C"`, `"0x0c"`, `"12"`, `"engine_speed"`, `"rpm"`, `"speed"`).
    public static func named(_ text: String) -> OBDStandardPID? {
        let lower = text.lowercased()
        let aliases: [String: UInt8] = [
            "load": 0x04, "coolant": 0x05, "map": 0x0B, "rpm": 0x0C, "speed": 0x0D, "intake": 0x0F,
            "throttle": 0x11, "runtime": 0x1F, "fuel": 0x2F, "ambient": 0x46, "oil": 0x5C,
        ]
        if let id = aliases[lower] { return all[id] }
        if let pid = all.values.first(where: { $0.name == lower }) { return pid }
        if lower.hasPrefix("0x"), let id = UInt8(lower.dropFirst(2), radix: 16) { return all[id] }
        return nil
    }
}
