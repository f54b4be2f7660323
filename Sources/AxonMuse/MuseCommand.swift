/// A command to a Muse's control characteristic. On the wire: the length of what follows, the ASCII text, and a
/// newline — `h` is `02 68 0A`, `p21` is `04 70 32 31 0A`.
///
/// Threading: a value type; share freely.
public enum MuseCommand: Sendable, Hashable {
    /// `h`: stop streaming.
    case halt
    /// `s`: reply with the status (JSON on the control characteristic).
    case status
    /// `d`: start streaming.
    case start
    /// `k`: keep the stream going (muse-lsl sends it periodically).
    case keepAlive
    /// `v1`: reply with the firmware version.
    case version
    /// A preset: `p20` (4 EEG + right AUX), `p21`, `p22`, `p50` … (4 EEG). Validated by ``bytes()``.
    case preset(String)

    /// The command's text.
    public var text: String {
        switch self {
        case .halt: "h"
        case .status: "s"
        case .start: "d"
        case .keepAlive: "k"
        case .version: "v1"
        case .preset(let name): name
        }
    }

    /// The bytes to write. A preset must be `p` and two hexadecimal digits (``MuseError/invalidPreset(_:)``).
    public func bytes() throws(MuseError) -> [UInt8] {
        if case .preset(let name) = self {
            let digits = name.dropFirst()
            guard name.first == "p", digits.count == 2, digits.allSatisfy(\.isHexDigit), name.allSatisfy(\.isASCII)
            else {
                throw .invalidPreset(name)
            }
        }
        let ascii = Array(text.utf8)
        return [UInt8(ascii.count + 1)] + ascii + [0x0A]
    }

    /// Whether a preset streams the right AUX channel (`p20` only, as muse-lsl documents).
    public static func presetIncludesAux(_ name: String) -> Bool { name == "p20" }
}
