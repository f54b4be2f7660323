/// One Body Composition Measurement indication (0x2A9C, service 0x181B): a uint16 of flags and the fields they
/// announce, every flag combination. A measurement longer than one indication is split into packets with the
/// Multiple Packet bit (12) set on every packet but the last; ``BodyCompositionAssembler`` joins them.
///
/// Mass fields are raw (0.005 kg SI, 0.01 lb imperial); see ``BodyCompositionMeasurement`` for physical values.
///
/// Threading: a value type; decoding is a pure function.
public struct BodyCompositionPacket: Sendable, Hashable, Codable {
    /// Bits 0–12 are defined; 13–15 are reserved.
    public static let knownFlags: UInt16 = 0x1FFF

    /// Imperial units (0.01 lb, 0.1 in) rather than SI (0.005 kg, 0.001 m).
    public var imperial: Bool
    /// More packets of the same measurement follow (flag bit 12).
    public var continues: Bool
    /// Body fat percentage, 0.1 %; 0xFFFF = unsuccessful. Mandatory in every packet.
    public var rawBodyFat: UInt16
    /// When the scale measured, if it sent a time stamp.
    public var timestamp: GATTDateTime?
    /// The scale's user index, if sent (0xFF = unknown).
    public var userID: UInt8?
    /// Basal metabolism, kJ.
    public var basalMetabolism: UInt16?
    /// Muscle percentage, 0.1 %.
    public var rawMusclePercentage: UInt16?
    /// Muscle mass, raw mass units.
    public var rawMuscleMass: UInt16?
    /// Fat-free mass, raw mass units.
    public var rawFatFreeMass: UInt16?
    /// Soft lean mass, raw mass units.
    public var rawSoftLeanMass: UInt16?
    /// Body water mass, raw mass units.
    public var rawBodyWaterMass: UInt16?
    /// Impedance, 0.1 Ω.
    public var rawImpedance: UInt16?
    /// Weight, raw mass units.
    public var rawWeight: UInt16?
    /// Height, 0.001 m or 0.1 in.
    public var rawHeight: UInt16?

    /// Creates a value from its fields (each documented on its property).
    public init(
        imperial: Bool = false, continues: Bool = false, rawBodyFat: UInt16, timestamp: GATTDateTime? = nil,
        userID: UInt8? = nil, basalMetabolism: UInt16? = nil, rawMusclePercentage: UInt16? = nil,
        rawMuscleMass: UInt16? = nil, rawFatFreeMass: UInt16? = nil, rawSoftLeanMass: UInt16? = nil,
        rawBodyWaterMass: UInt16? = nil, rawImpedance: UInt16? = nil, rawWeight: UInt16? = nil,
        rawHeight: UInt16? = nil
    ) {
        self.imperial = imperial
        self.continues = continues
        self.rawBodyFat = rawBodyFat
        self.timestamp = timestamp
        self.userID = userID
        self.basalMetabolism = basalMetabolism
        self.rawMusclePercentage = rawMusclePercentage
        self.rawMuscleMass = rawMuscleMass
        self.rawFatFreeMass = rawFatFreeMass
        self.rawSoftLeanMass = rawSoftLeanMass
        self.rawBodyWaterMass = rawBodyWaterMass
        self.rawImpedance = rawImpedance
        self.rawWeight = rawWeight
        self.rawHeight = rawHeight
    }

    /// The uint16 fields after user id, in wire order with their flag bit.
    private static var wordFields: [(bit: UInt16, path: WritableKeyPath<BodyCompositionPacket, UInt16?>)] {
        [
            (3, \.basalMetabolism), (4, \.rawMusclePercentage), (5, \.rawMuscleMass), (6, \.rawFatFreeMass),
            (7, \.rawSoftLeanMass), (8, \.rawBodyWaterMass), (9, \.rawImpedance), (10, \.rawWeight), (11, \.rawHeight),
        ]
    }

    /// The byte length the flags announce.
    public static func length(flags: UInt16) -> Int {
        var n = 4
        if flags & 1 << 1 != 0 { n += 7 }
        if flags & 1 << 2 != 0 { n += 1 }
        for field in wordFields where flags & 1 << field.bit != 0 { n += 2 }
        return n
    }

    /// Decodes one indication.
    ///
    /// - Throws: ``ScaleError/malformed(what:problem:)``: reserved flags, a length that does not match the flags,
    ///   an impossible date.
    public init(decoding bytes: [UInt8]) throws(ScaleError) {
        var reader = ByteReader(bytes, what: "Body Composition Measurement")
        let flags = try reader.uint16()
        guard flags & ~Self.knownFlags == 0 else {
            throw .malformed(what: reader.what, problem: .reservedFlags(flags & ~Self.knownFlags))
        }
        try reader.require(Self.length(flags: flags) - 2)
        self.init(imperial: flags & 1 != 0, continues: flags & 1 << 12 != 0, rawBodyFat: try reader.uint16())
        if flags & 1 << 1 != 0 { timestamp = try GATTDateTime.read(&reader) }
        if flags & 1 << 2 != 0 { userID = try reader.uint8() }
        for field in Self.wordFields where flags & 1 << field.bit != 0 {
            self[keyPath: field.path] = try reader.uint16()
        }
        try reader.requireEnd()
    }

    /// The flags these fields announce.
    public var flags: UInt16 {
        var flags: UInt16 = imperial ? 1 : 0
        if timestamp != nil { flags |= 1 << 1 }
        if userID != nil { flags |= 1 << 2 }
        for field in Self.wordFields where self[keyPath: field.path] != nil { flags |= 1 << field.bit }
        if continues { flags |= 1 << 12 }
        return flags
    }

    /// The characteristic value.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.appendLE(flags)
        out.appendLE(rawBodyFat)
        if let timestamp { out += timestamp.bytes }
        if let userID { out.append(userID) }
        for field in Self.wordFields { if let value = self[keyPath: field.path] { out.appendLE(value) } }
        return out
    }
}
