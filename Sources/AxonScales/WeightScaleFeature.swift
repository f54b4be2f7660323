/// The Weight Scale Feature characteristic (0x2A9E): what the scale's measurements may contain.
///
/// Threading: a value type; share freely.
public struct WeightScaleFeature: Sendable, Hashable, Codable {
    /// The feature bits.
    public var rawValue: UInt32

    /// The feature with these bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Decodes the 4-byte value.
    ///
    /// - Throws: ``ScaleError/malformed(what:problem:)`` unless exactly 4 bytes.
    public init(decoding bytes: [UInt8]) throws(ScaleError) {
        var reader = ByteReader(bytes, what: "Weight Scale Feature")
        rawValue = try reader.uint32()
        try reader.requireEnd()
    }

    /// Measurements may carry a time stamp.
    public var timeStampSupported: Bool { rawValue & 1 != 0 }
    /// Measurements may carry a user id.
    public var multipleUsersSupported: Bool { rawValue & 2 != 0 }
    /// Measurements may carry BMI and height.
    public var bmiSupported: Bool { rawValue & 4 != 0 }

    /// Bits 3–6: 0 not specified, 1…7 = 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005 kg.
    public var weightResolutionCode: Int { Int(rawValue >> 3 & 0xF) }
    /// Bits 7–9: 0 not specified, 1…3 = 0.01, 0.005, 0.001 m.
    public var heightResolutionCode: Int { Int(rawValue >> 7 & 0x7) }

    /// The weight resolution in kilograms, when the code is one the Weight Scale Service defines.
    public var weightResolutionKilograms: Double? {
        let table = [0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005]
        let code = weightResolutionCode
        return (1...7).contains(code) ? table[code - 1] : nil
    }

    /// The height resolution in metres, when the code is one the service defines.
    public var heightResolutionMeters: Double? {
        let table = [0.01, 0.005, 0.001]
        let code = heightResolutionCode
        return (1...3).contains(code) ? table[code - 1] : nil
    }
}
