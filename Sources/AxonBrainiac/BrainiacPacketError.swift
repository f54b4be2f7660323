/// Why a Brainiac notification was rejected. The stream continues with the next notification; nothing of a
/// rejected notification reaches the ring.
///
/// Cases are listed in the order the decoder checks them (see ``BrainiacPacketLayout``).
///
/// Threading: a value type; share freely.
public enum BrainiacPacketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the smallest notification of the version (18), or none at all.
    case tooShort(length: Int, minimum: Int)
    /// The first byte is not a layout version this decoder reads.
    case unsupportedVersion(UInt8)
    /// The packet type byte is none of EEG, battery, status.
    case unknownType(UInt8)
    /// An EEG notification declares a sample count outside 1…10.
    case invalidSampleCount(Int)
    /// The length is not what the type and declared sample count imply (too long or too short).
    case lengthMismatch(expected: Int, actual: Int)
    /// The trailing CRC-8 does not match the bytes: the notification was damaged or is not a Brainiac packet.
    case checksumMismatch(computed: UInt8, received: UInt8)
    /// A battery notification's level is above 100.
    case batteryOutOfRange(Int)
    /// A status notification's code is not one of the SDK's sixteen.
    case unknownStatusCode(UInt8)

    /// The error without its details, for counting and matching.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// ``BrainiacPacketError/tooShort(length:minimum:)``
        case tooShort
        /// ``BrainiacPacketError/unsupportedVersion(_:)``
        case unsupportedVersion
        /// ``BrainiacPacketError/unknownType(_:)``
        case unknownType
        /// ``BrainiacPacketError/invalidSampleCount(_:)``
        case invalidSampleCount
        /// ``BrainiacPacketError/lengthMismatch(expected:actual:)``
        case lengthMismatch
        /// ``BrainiacPacketError/checksumMismatch(computed:received:)``
        case checksumMismatch
        /// ``BrainiacPacketError/batteryOutOfRange(_:)``
        case batteryOutOfRange
        /// ``BrainiacPacketError/unknownStatusCode(_:)``
        case unknownStatusCode
    }

    /// The error's kind.
    public var kind: Kind {
        switch self {
        case .tooShort: .tooShort
        case .unsupportedVersion: .unsupportedVersion
        case .unknownType: .unknownType
        case .invalidSampleCount: .invalidSampleCount
        case .lengthMismatch: .lengthMismatch
        case .checksumMismatch: .checksumMismatch
        case .batteryOutOfRange: .batteryOutOfRange
        case .unknownStatusCode: .unknownStatusCode
        }
    }

    /// A human message.
    public var description: String {
        switch self {
        case .tooShort(let length, let minimum):
            "Brainiac notification too short: \(length) bytes, a notification has at least \(minimum)"
        case .unsupportedVersion(let version):
            "Brainiac notification has layout version \(version); only version \(BrainiacPacketLayout.version) is "
                + "supported"
        case .unknownType(let type):
            "Brainiac notification has unknown packet type 0x\(hex(type)) (known: 0x01 EEG, 0x02 battery, "
                + "0x03 status)"
        case .invalidSampleCount(let count):
            "Brainiac EEG notification declares \(count) samples; a notification carries 1 to "
                + "\(BrainiacPacketLayout.maximumSamplesPerNotification)"
        case .lengthMismatch(let expected, let actual):
            "Brainiac notification is \(actual) bytes but its header implies \(expected)"
        case .checksumMismatch(let computed, let received):
            "Brainiac notification checksum mismatch: computed CRC-8 0x\(hex(computed)), received 0x\(hex(received))"
        case .batteryOutOfRange(let level):
            "Brainiac battery level \(level)% is outside 0…\(BrainiacPacketLayout.maximumBatteryLevel)%"
        case .unknownStatusCode(let code):
            "Brainiac status code \(code) is not a known status (0…15)"
        }
    }
}

/// Two uppercase hex digits.
private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 16 ? "0" + digits : digits
}
