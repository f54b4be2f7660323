/// The Bluetooth SIG Weight Measurement characteristic (0x2A9D, Weight Scale service 0x181D), every flag
/// combination: SI (0.005 kg) or imperial (0.01 lb) weight, optional time stamp, user id, BMI and height.
///
///     let m = try WeightMeasurement(decoding: [0x00, 0xA0, 0x3C])   // 77.600 kg
///
/// Threading: a value type; decoding is a pure function.
public struct WeightMeasurement: Sendable, Hashable, Codable {
    /// The flag bits this decoder knows (bits 4–7 are reserved).
    public static let knownFlags: UInt8 = 0x0F

    /// Imperial units (lb, in) rather than SI (kg, m).
    public var imperial: Bool
    /// The raw weight field; 0xFFFF means the measurement was unsuccessful.
    public var rawWeight: UInt16
    /// The measurement time, when the flags say it is present.
    public var timestamp: GATTDateTime?
    /// The user index, when present (0xFF = unknown user).
    public var userID: UInt8?
    /// Raw BMI (0.1 kg/m²) and height (0.001 m or 0.1 in), present together.
    public var rawBMI: UInt16?
    /// Height, raw (0.001 m or 0.1 in).
    public var rawHeight: UInt16?

    /// Creates a value from its fields (each documented on its property).
    public init(
        imperial: Bool, rawWeight: UInt16, timestamp: GATTDateTime? = nil, userID: UInt8? = nil,
        rawBMI: UInt16? = nil, rawHeight: UInt16? = nil
    ) {
        precondition((rawBMI == nil) == (rawHeight == nil), "BMI and height come together")
        self.imperial = imperial
        self.rawWeight = rawWeight
        self.timestamp = timestamp
        self.userID = userID
        self.rawBMI = rawBMI
        self.rawHeight = rawHeight
    }

    /// Decodes one characteristic value.
    ///
    /// - Throws: ``ScaleError/malformed(what:problem:)``: reserved flags, a length that does not match the flags,
    ///   an impossible date.
    public init(decoding bytes: [UInt8]) throws(ScaleError) {
        var reader = ByteReader(bytes, what: "Weight Measurement")
        let flags = try reader.uint8()
        guard flags & ~Self.knownFlags == 0 else {
            throw .malformed(what: reader.what, problem: .reservedFlags(UInt16(flags & ~Self.knownFlags)))
        }
        let expected = 3 + (flags & 2 != 0 ? 7 : 0) + (flags & 4 != 0 ? 1 : 0) + (flags & 8 != 0 ? 4 : 0)
        try reader.require(expected - 1)
        imperial = flags & 1 != 0
        rawWeight = try reader.uint16()
        timestamp = flags & 2 != 0 ? try GATTDateTime.read(&reader) : nil
        userID = flags & 4 != 0 ? try reader.uint8() : nil
        if flags & 8 != 0 {
            rawBMI = try reader.uint16()
            rawHeight = try reader.uint16()
        } else {
            rawBMI = nil
            rawHeight = nil
        }
        try reader.requireEnd()
    }

    /// The characteristic value (what a scale sends).
    public var bytes: [UInt8] {
        var flags: UInt8 = imperial ? 1 : 0
        if timestamp != nil { flags |= 2 }
        if userID != nil { flags |= 4 }
        if rawBMI != nil { flags |= 8 }
        var out = [flags]
        out.appendLE(rawWeight)
        if let timestamp { out += timestamp.bytes }
        if let userID { out.append(userID) }
        if let rawBMI, let rawHeight {
            out.appendLE(rawBMI)
            out.appendLE(rawHeight)
        }
        return out
    }

    /// Whether the scale measured (weight field not 0xFFFF).
    public var isSuccessful: Bool { rawWeight != 0xFFFF }

    /// The weight in the message's own unit (kg or lb), or `nil` when unsuccessful.
    public var weight: Double? { isSuccessful ? Double(rawWeight) / (imperial ? 100 : 200) : nil }

    /// The weight in kilograms (converted exactly from pounds), or `nil` when unsuccessful.
    public var kilograms: Double? {
        guard let weight else { return nil }
        return imperial ? WeightConversion.kilograms(fromPounds: weight) : weight
    }

    /// BMI in kg/m².
    public var bmi: Double? { rawBMI.map { Double($0) / 10 } }

    /// Height in the message's unit (m or in).
    public var height: Double? { rawHeight.map { Double($0) / (imperial ? 10 : 1000) } }

    /// Height in metres (1 in = 0.0254 m exactly).
    public var heightMeters: Double? {
        guard let height else { return nil }
        return imperial ? height * 0.0254 : height
    }

    /// The user is unknown to the scale (user id 0xFF).
    public var isUnknownUser: Bool { userID == 0xFF }
}
