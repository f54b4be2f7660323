/// What went wrong with a Muse: a notification that is not a Muse packet, or a command that cannot be sent.
///
/// Threading: a value type; share freely.
public enum MuseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An EEG notification of the wrong length (20 bytes expected).
    case wrongLength(Int)
    /// A preset name that is not `p` and two hexadecimal digits.
    case invalidPreset(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .wrongLength(let count): return "a Muse EEG notification has 20 bytes, this one \(count)"
        case .invalidPreset(let name): return "\"\(name)\" is not a Muse preset (p and two hex digits, e.g. p21)"
        }
    }
}
