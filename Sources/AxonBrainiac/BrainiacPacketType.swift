/// What a Brainiac notification carries: byte 1 of the ``BrainiacPacketLayout``.
///
/// Threading: a value type; share freely.
public enum BrainiacPacketType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 1 to 10 EEG samples of the four channels.
    case eeg = 0x01
    /// The battery level in percent.
    case battery = 0x02
    /// A status message code (``BrainiacStatus``).
    case status = 0x03

    /// A short name ("EEG", "battery", "status").
    public var description: String {
        switch self {
        case .eeg: "EEG"
        case .battery: "battery"
        case .status: "status"
        }
    }
}
