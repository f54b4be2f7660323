/// A Polar Measurement Data measurement type: the first byte of a data frame and of most control-point commands
/// (Polar's SDK, `PmdMeasurementType`). The H10 streams ``ecg`` and ``accelerometer``.
///
/// Threading: a value type; share freely.
public enum PolarMeasurementType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Electrocardiogram, µV (H10: 130 Hz, 14-bit).
    case ecg = 0
    /// Photoplethysmogram (optical sensors, not the H10).
    case ppg = 1
    /// Accelerometer, mG per axis (H10: 25, 50, 100 or 200 Hz; ±2, 4 or 8 G; 16-bit).
    case accelerometer = 2
    /// Peak-to-peak intervals (optical sensors, not the H10).
    case ppi = 3
    /// Gyroscope (not the H10).
    case gyroscope = 5
    /// Magnetometer (not the H10).
    case magnetometer = 6

    /// The bit of this type in the feature read's second byte (`0F bits …`), as Polar's SDK reads it.
    public var featureBit: UInt8 {
        switch self {
        case .ecg: 0x01
        case .ppg: 0x02
        case .accelerometer: 0x04
        case .ppi: 0x08
        case .gyroscope: 0x20
        case .magnetometer: 0x40
        }
    }

    /// The measurement types a control point's feature read announces: `0F`, then bit fields; an unexpected first
    /// byte or a value shorter than two bytes announces none.
    public static func announced(byFeatures value: [UInt8]) -> Set<PolarMeasurementType> {
        guard value.count >= 2, value[0] == 0x0F else { return [] }
        return Set(allCases.filter { value[1] & $0.featureBit != 0 })
    }

    /// "ECG", "ACC", ….
    public var description: String {
        switch self {
        case .ecg: "ECG"
        case .ppg: "PPG"
        case .accelerometer: "ACC"
        case .ppi: "PPI"
        case .gyroscope: "GYRO"
        case .magnetometer: "MAG"
        }
    }
}

/// The settings of one measurement as a start command carries them: each a setting type, a count (1) and a
/// little-endian value (Polar's SDK, `PmdSetting`: sample rate 0, resolution 1, range 2 — two bytes each).
///
///     PolarSettings.h10ECG.bytes           // 00 01 82 00 01 01 0E 00
///     PolarSettings.h10Accelerometer(rate: 200, range: 8).bytes
///                                           // 00 01 C8 00 01 01 10 00 02 01 08 00
///
/// Threading: a value type; share freely.
public struct PolarSettings: Sendable, Hashable {
    /// Samples per second.
    public var sampleRate: UInt16
    /// Bits per sample.
    public var resolution: UInt16
    /// The full-scale range in G (accelerometer), `nil` for a measurement without one.
    public var range: UInt16?

    /// Settings from their values.
    public init(sampleRate: UInt16, resolution: UInt16, range: UInt16? = nil) {
        self.sampleRate = sampleRate
        self.resolution = resolution
        self.range = range
    }

    /// The H10's only ECG setting: 130 Hz, 14 bits.
    public static let h10ECG = PolarSettings(sampleRate: 130, resolution: 14)

    /// An H10 accelerometer setting: `rate` in 25, 50, 100, 200 Hz and `range` in 2, 4, 8 G, 16 bits.
    public static func h10Accelerometer(rate: UInt16 = 200, range: UInt16 = 8) -> PolarSettings {
        PolarSettings(sampleRate: rate, resolution: 16, range: range)
    }

    /// The serialized settings: type, count 1, value (uint16 LE) for the sample rate, resolution and range.
    public var bytes: [UInt8] {
        var out: [UInt8] = [0x00, 0x01, UInt8(sampleRate & 0xFF), UInt8(sampleRate >> 8)]
        out += [0x01, 0x01, UInt8(resolution & 0xFF), UInt8(resolution >> 8)]
        if let range { out += [0x02, 0x01, UInt8(range & 0xFF), UInt8(range >> 8)] }
        return out
    }

    /// Checks these settings against what an H10 offers for `type` (Polar's H10 page: ECG 130 Hz / 14 bit; ACC
    /// 25–200 Hz, ±2/4/8 G, 16 bit), before anything is sent.
    ///
    /// - Throws: ``PolarError/invalidSettings(_:_:)`` naming the setting the strap would refuse.
    public func validate(for type: PolarMeasurementType) throws(PolarError) {
        switch type {
        case .ecg:
            guard sampleRate == 130 else {
                throw .invalidSettings(type, "an H10 samples ECG at 130 Hz, not \(sampleRate)")
            }
            guard resolution == 14 else { throw .invalidSettings(type, "H10 ECG has 14 bits, not \(resolution)") }
            guard range == nil else { throw .invalidSettings(type, "ECG has no range setting") }
        case .accelerometer:
            guard [25, 50, 100, 200].contains(sampleRate) else {
                throw .invalidSettings(type, "an H10 accelerometer runs at 25, 50, 100 or 200 Hz, not \(sampleRate)")
            }
            guard resolution == 16 else { throw .invalidSettings(type, "H10 ACC has 16 bits, not \(resolution)") }
            guard let range, [2, 4, 8].contains(range) else {
                throw .invalidSettings(
                    type, "an H10 accelerometer's range is 2, 4 or 8 G, not \(range.map { "\($0)" } ?? "none")")
            }
        default:
            throw .invalidSettings(type, "an H10 streams ECG and ACC only")
        }
    }
}

/// The settings in a control-point answer's parameters (Polar's SDK, `PmdSetting.parsePmdSettingsData`): entries of
/// `type count value…`, the values little-endian of the type's size — sample rate 0, resolution 1 and range 2 two
/// bytes, range in milli-units 3 four, channels 4 one, factor 5 four (an IEEE float's bits), security 6 sixteen.
/// A settings answer (`01`) lists every value offered; a start answer may carry the factor that scales compressed
/// frames.
///
///     let offered = try PolarSettingsAnswer(parameters: [0x00, 0x01, 0x82, 0x00, 0x01, 0x01, 0x0E, 0x00])
///     // offered.values[0] == [130], offered.values[1] == [14]
///
/// Threading: a value type; share freely.
public struct PolarSettingsAnswer: Sendable, Hashable {
    /// The values per setting type, in the order sent (the factor as its float bits).
    public var values: [UInt8: [UInt32]]

    /// The factor (setting type 5), if the answer has one.
    public var factor: Float? { values[5]?.first.map { Float(bitPattern: $0) } }
    /// The sample rates offered (setting type 0).
    public var sampleRates: [UInt32] { values[0] ?? [] }
    /// The ranges offered (setting type 2).
    public var ranges: [UInt32] { values[2] ?? [] }

    /// Parses the parameters.
    ///
    /// - Throws: ``PolarError/malformedResponse(_:)`` for an unknown setting type or an entry cut short.
    public init(parameters: [UInt8]) throws(PolarError) {
        var values: [UInt8: [UInt32]] = [:]
        var offset = 0
        while offset < parameters.count {
            guard offset + 2 <= parameters.count else { throw .malformedResponse(parameters) }
            let type = parameters[offset]
            let count = Int(parameters[offset + 1])
            offset += 2
            let size: Int
            switch type {
            case 0, 1, 2: size = 2
            case 3, 5: size = 4
            case 4: size = 1
            case 6: size = 16
            default: throw .malformedResponse(parameters)
            }
            guard offset + size * count <= parameters.count else { throw .malformedResponse(parameters) }
            var list: [UInt32] = []
            for _ in 0..<count {
                var value: UInt32 = 0
                // A security key (16 bytes) is not a number: its first four bytes stand for it.
                for k in 0..<min(size, 4) { value |= UInt32(parameters[offset + k]) << (8 * UInt32(k)) }
                list.append(value)
                offset += size
            }
            values[type, default: []] += list
        }
        self.values = values
    }
}
