/// Why ``BrainiacEncoder`` refused to build a notification.
///
/// Threading: a value type; share freely.
public enum BrainiacEncoderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// EEG values must be 4 per sample for 1 to 10 samples (4 to 40 values).
    case invalidValueCount(Int)
    /// The value at this index (sample × 4 + channel) is NaN or infinite.
    case nonFiniteValue(index: Int)
    /// A battery level outside 0…100.
    case batteryOutOfRange(Int)
    /// The output buffer is smaller than the notification.
    case bufferTooSmall(required: Int, available: Int)
    /// The packet at this index does not continue the first one: same order number, counter +1, time +4 ms.
    case nonConsecutivePackets(index: Int)

    /// A human message.
    public var description: String {
        switch self {
        case .invalidValueCount(let count):
            "A Brainiac EEG notification needs 4 values per sample for 1 to "
                + "\(BrainiacPacketLayout.maximumSamplesPerNotification) samples; got \(count) values"
        case .nonFiniteValue(let index):
            "EEG value \(index) (sample \(index / 4), channel \(index % 4)) is not finite"
        case .batteryOutOfRange(let level):
            "Battery level \(level)% is outside 0…\(BrainiacPacketLayout.maximumBatteryLevel)%"
        case .bufferTooSmall(let required, let available):
            "The output buffer holds \(available) bytes; the notification needs \(required)"
        case .nonConsecutivePackets(let index):
            "Packet \(index) does not continue packet 0 (same order number, counter + \(index), time + "
                + "\(index * 4) ms)"
        }
    }
}
