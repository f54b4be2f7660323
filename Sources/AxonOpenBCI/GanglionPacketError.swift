/// Why a Ganglion notification could not be decoded.
///
/// Threading: a value type; share freely.
public enum GanglionPacketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A notification too short for its id (20 bytes for compressed packets).
    case wrongLength(Int)
    /// An id the format does not define.
    case unknownID(UInt8)
    /// An impedance notification that is not ASCII digits ending in `Z`.
    case malformedImpedance([UInt8])

    /// A sentence for people.
    public var description: String {
        switch self {
        case .wrongLength(let count): return "a Ganglion notification of \(count) bytes is too short for its id"
        case .unknownID(let id): return "packet id \(id) is not in the Ganglion's format"
        case .malformedImpedance(let bytes): return "impedance packet \(bytes) is not digits ending in Z"
        }
    }
}
