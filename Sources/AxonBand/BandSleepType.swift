/// The quality of a sleep segment (the SDK's appendix I, codes 1–6).
///
/// Threading: a value type; share freely.
public enum BandSleepType: UInt8, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case startSleep = 1
    case endSleep = 2
    case deepSleep = 3
    case lightSleep = 4
    case placed = 5
    case wakeUp = 6

    /// A sentence for people.
    public var description: String {
        switch self {
        case .startSleep: "start sleep"
        case .endSleep: "end sleep"
        case .deepSleep: "deep sleep"
        case .lightSleep: "light sleep"
        case .placed: "placed"
        case .wakeUp: "wake up"
        }
    }
}
