/// What a scale notifies (docs/scale-protocol.md).
///
/// Threading: value types; encoding and decoding are pure functions.
public enum ScaleResponse: Sendable, Hashable {
    /// 0x81: model (3, 4, 5) and firmware major.minor.patch.
    case info(model: ScaleModel, firmware: FirmwareVersion)
    /// 0x82: a command succeeded (or, `false`, was refused without an error code): the command's type byte.
    case result(command: UInt8, success: Bool)
    /// 0x84: a memory transfer starts with `count` records (0…200).
    case memoryStart(count: Int)
    /// 0x85: stored record number `index`.
    case record(index: Int, ScaleRecord)
    /// 0x86: the memory transfer is done.
    case memoryFinish
    /// 0x8A: the user list.
    case users([HS5UserSlot])
    /// 0x90: the weight while it settles, kg.
    case unstableWeight(Double)
    /// 0x91: the stable weight, kg.
    case stableWeight(Double)
    /// 0x92: the weight measured with impedance (HS5), kg.
    case impedanceWeight(Double)
    /// 0x93: body composition (HS5).
    case bodyComposition(BodyComposition)
    /// 0xE0: the SDK error `code`, with a detail byte (an ``HS5UserRule`` detail, else 0) and, for a rule, its
    /// argument (position or serial number).
    case error(code: Int, detail: UInt8, argument: UInt32)

    /// The bytes the scale notifies.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        switch self {
        case .info(let model, let firmware):
            let number: UInt8 =
                switch model {
                case .hs3: 3
                case .hs4: 4
                case .hs5: 5
                case .standard: 0
                }
            out =
                [0x81, number]
                + (0..<3).map { UInt8(clamping: $0 < firmware.components.count ? firmware.components[$0] : 0) }
        case .result(let command, let success): out = [0x82, command, success ? 1 : 0]
        case .memoryStart(let count):
            out = [0x84]
            out.appendLE(UInt16(clamping: count))
        case .record(let index, let record):
            out = [0x85]
            out.appendLE(UInt16(clamping: index))
            out.appendLE(UInt32(clamping: record.time))
            out.appendLE(Self.centi(record.weightKg))
            if let c = record.bodyComposition { out += [1] + Self.compositionBytes(c) } else { out.append(0) }
        case .memoryFinish: out = [0x86]
        case .users(let slots):
            out = [0x8A, UInt8(clamping: slots.count)]
            for slot in slots {
                out.append(UInt8(clamping: slot.position))
                out.appendLE(slot.serialNumber)
            }
        case .unstableWeight(let kg): out = [0x90]; out.appendLE(Self.centi(kg))
        case .stableWeight(let kg): out = [0x91]; out.appendLE(Self.centi(kg))
        case .impedanceWeight(let kg): out = [0x92]; out.appendLE(Self.centi(kg))
        case .bodyComposition(let c): out = [0x93] + Self.compositionBytes(c)
        case .error(let code, let detail, let argument):
            out = [0xE0, UInt8(clamping: code), detail]
            out.appendLE(argument)
        }
        return out
    }

    /// Decodes a notified frame.
    ///
    /// - Throws: ``ScaleError/malformed(what:problem:)`` for an unknown type, a wrong length or a field out of
    ///   range.
    public init(decoding bytes: [UInt8]) throws(ScaleError) {
        var r = ByteReader(bytes, what: "scale frame")
        let type = try r.uint8()
        switch type {
        case 0x81:
            let number = try r.uint8()
            let model: ScaleModel
            switch number {
            case 3: model = .hs3
            case 4: model = .hs4
            case 5: model = .hs5
            default: throw .malformed(what: r.what, problem: .outOfRange("model \(number)"))
            }
            let parts = [try r.uint8(), try r.uint8(), try r.uint8()].map(Int.init)
            self = .info(model: model, firmware: FirmwareVersion(parts[0], parts[1], parts[2]))
        case 0x82:
            let command = try r.uint8(), success = try r.uint8()
            guard success <= 1 else { throw .malformed(what: r.what, problem: .outOfRange("result \(success)")) }
            self = .result(command: command, success: success == 1)
        case 0x84:
            let count = Int(try r.uint16())
            guard count <= ScaleModel.memoryCapacity else {
                throw .malformed(what: r.what, problem: .outOfRange("\(count) records (at most 200)"))
            }
            self = .memoryStart(count: count)
        case 0x85:
            let index = Int(try r.uint16())
            let time = Int(try r.uint32())
            let weight = Double(try r.uint16()) / 100
            let hasComposition = try r.uint8()
            guard hasComposition <= 1 else {
                throw .malformed(what: r.what, problem: .outOfRange("composition flag \(hasComposition)"))
            }
            let composition = hasComposition == 1 ? try Self.readComposition(&r) : nil
            self = .record(index: index, ScaleRecord(time: time, weightKg: weight, bodyComposition: composition))
        case 0x86: self = .memoryFinish
        case 0x8A:
            let count = Int(try r.uint8())
            guard count <= 20 else { throw .malformed(what: r.what, problem: .outOfRange("\(count) users")) }
            try r.require(count * 5)
            var slots: [HS5UserSlot] = []
            for _ in 0..<count {
                let position = Int(try r.uint8())
                guard position < 20 else {
                    throw .malformed(what: r.what, problem: .outOfRange("position \(position)"))
                }
                slots.append(HS5UserSlot(position: position, serialNumber: try r.uint32()))
            }
            self = .users(slots)
        case 0x90: self = .unstableWeight(Double(try r.uint16()) / 100)
        case 0x91: self = .stableWeight(Double(try r.uint16()) / 100)
        case 0x92: self = .impedanceWeight(Double(try r.uint16()) / 100)
        case 0x93: self = .bodyComposition(try Self.readComposition(&r))
        case 0xE0: self = .error(code: Int(try r.uint8()), detail: try r.uint8(), argument: try r.uint32())
        default: throw .malformed(what: r.what, problem: .unknownFrameType(type))
        }
        try r.requireEnd()
    }

    /// kg → 0.01 kg units.
    static func centi(_ kg: Double) -> UInt16 { UInt16(clamping: Int((kg * 100).rounded())) }

    /// weight 0.01 kg, fat/water/muscle 0.1 %, bone 0.01 kg (u16 each), visceral fat level u8, DCI kcal u16,
    /// impedance 0.1 Ω u16: 15 bytes. 0xFFFF (0xFF for the level) = not measured.
    static func compositionBytes(_ c: BodyComposition) -> [UInt8] {
        func word(_ value: Double?, _ scale: Double) -> UInt16 {
            value.map { UInt16(clamping: Int(($0 * scale).rounded())) } ?? 0xFFFF
        }
        var out: [UInt8] = []
        out.appendLE(word(c.weightKg, 100))
        out.appendLE(word(c.fatPercent, 10))
        out.appendLE(word(c.waterPercent, 10))
        out.appendLE(word(c.musclePercent, 10))
        out.appendLE(word(c.boneMassKg, 100))
        out.append(c.visceralFatLevel.map { UInt8(clamping: $0) } ?? 0xFF)
        out.appendLE(c.dciKcal.map { UInt16(clamping: $0) } ?? 0xFFFF)
        out.appendLE(word(c.impedanceOhm, 10))
        return out
    }

    static func readComposition(_ r: inout ByteReader) throws(ScaleError) -> BodyComposition {
        func value(_ raw: UInt16, _ scale: Double) -> Double? { raw == 0xFFFF ? nil : Double(raw) / scale }
        let weight = try r.uint16(), fat = try r.uint16(), water = try r.uint16(), muscle = try r.uint16()
        let bone = try r.uint16(), level = try r.uint8(), dci = try r.uint16(), impedance = try r.uint16()
        return BodyComposition(
            weightKg: value(weight, 100), fatPercent: value(fat, 10), waterPercent: value(water, 10),
            musclePercent: value(muscle, 10), boneMassKg: value(bone, 100),
            visceralFatLevel: level == 0xFF ? nil : Int(level), dciKcal: dci == 0xFFFF ? nil : Int(dci),
            impedanceOhm: value(impedance, 10))
    }
}
