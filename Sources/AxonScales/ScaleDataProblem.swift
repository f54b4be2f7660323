/// What is wrong with bytes that do not decode.
///
/// Threading: a value type; share freely.
public enum ScaleDataProblem: Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the flags or the frame type require.
    case tooShort(needed: Int, got: Int)
    /// More bytes than the flags or the frame type account for.
    case tooLong(expected: Int, got: Int)
    /// Flag bits the specification reserves are set.
    case reservedFlags(UInt16)
    /// A frame type Axon's scale framing does not define.
    case unknownFrameType(UInt8)
    /// A field value outside its defined range (month 13, a user position of 40, …).
    case outOfRange(String)
    /// A continuation packet with no measurement to continue, or a measurement that never ended.
    case orphanContinuation

    /// A sentence for people.
    public var description: String {
        switch self {
        case .tooShort(let needed, let got): "\(got) bytes, needs \(needed)"
        case .tooLong(let expected, let got): "\(got) bytes, expected \(expected)"
        case .reservedFlags(let bits): "reserved flag bits set: 0x\(String(bits, radix: 16))"
        case .unknownFrameType(let type): "unknown frame type 0x\(String(type, radix: 16))"
        case .outOfRange(let what): what
        case .orphanContinuation: "a continuation packet without the packet it continues"
        }
    }
}
