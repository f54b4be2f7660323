/// What a ``BrainiacDecoder`` has seen: valid notifications by type, samples written, rejections by kind.
///
/// `decodedNotifications + rejectedNotifications` is every notification offered to the decoder.
///
/// Threading: a value type; share freely (the decoder hands out copies).
public struct BrainiacDecoderStatistics: Sendable, Hashable {
    /// Valid EEG notifications.
    public var eegNotifications = 0
    /// Valid battery notifications.
    public var batteryNotifications = 0
    /// Valid status notifications.
    public var statusNotifications = 0
    /// EEG samples written to the frame writer.
    public var samples = 0
    /// Hardware order numbers skipped between consecutive valid notifications: notifications lost on the link
    /// or rejected here. A device restart that resets the numbering counts as a skip up to the wrap.
    public var skippedOrderNumbers = 0
    /// Rejections: ``BrainiacPacketError/Kind/tooShort``.
    public var tooShort = 0
    /// Rejections: ``BrainiacPacketError/Kind/unsupportedVersion``.
    public var unsupportedVersion = 0
    /// Rejections: ``BrainiacPacketError/Kind/unknownType``.
    public var unknownType = 0
    /// Rejections: ``BrainiacPacketError/Kind/invalidSampleCount``.
    public var invalidSampleCount = 0
    /// Rejections: ``BrainiacPacketError/Kind/lengthMismatch``.
    public var lengthMismatch = 0
    /// Rejections: ``BrainiacPacketError/Kind/checksumMismatch``.
    public var checksumMismatch = 0
    /// Rejections: ``BrainiacPacketError/Kind/batteryOutOfRange``.
    public var batteryOutOfRange = 0
    /// Rejections: ``BrainiacPacketError/Kind/unknownStatusCode``.
    public var unknownStatusCode = 0

    /// Creates empty statistics.
    public init() {}

    /// Valid notifications of every type.
    public var decodedNotifications: Int { eegNotifications + batteryNotifications + statusNotifications }

    /// Rejected notifications of every kind.
    public var rejectedNotifications: Int {
        tooShort + unsupportedVersion + unknownType + invalidSampleCount + lengthMismatch + checksumMismatch
            + batteryOutOfRange + unknownStatusCode
    }

    /// Rejections of one kind.
    public func rejected(_ kind: BrainiacPacketError.Kind) -> Int {
        switch kind {
        case .tooShort: tooShort
        case .unsupportedVersion: unsupportedVersion
        case .unknownType: unknownType
        case .invalidSampleCount: invalidSampleCount
        case .lengthMismatch: lengthMismatch
        case .checksumMismatch: checksumMismatch
        case .batteryOutOfRange: batteryOutOfRange
        case .unknownStatusCode: unknownStatusCode
        }
    }

    /// Counts one rejection.
    mutating func recordRejection(_ kind: BrainiacPacketError.Kind) {
        switch kind {
        case .tooShort: tooShort += 1
        case .unsupportedVersion: unsupportedVersion += 1
        case .unknownType: unknownType += 1
        case .invalidSampleCount: invalidSampleCount += 1
        case .lengthMismatch: lengthMismatch += 1
        case .checksumMismatch: checksumMismatch += 1
        case .batteryOutOfRange: batteryOutOfRange += 1
        case .unknownStatusCode: unknownStatusCode += 1
        }
    }
}
