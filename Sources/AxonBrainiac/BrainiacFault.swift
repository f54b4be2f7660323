/// A way a notification can arrive damaged, for ``SimulatedBrainiacHeadset`` to inject at chosen points.
///
/// Each fault replaces one EEG notification as it crosses the simulated link; the decoder rejects the damaged
/// bytes, so that notification's samples are lost (a counter gap of its sample count) and the stream goes on.
/// The comment on each case names the ``BrainiacPacketError`` the decoder reports.
///
/// Threading: a value type; share freely.
public enum BrainiacFault: Sendable, Hashable {
    /// Cut to the first `length` bytes: ``BrainiacPacketError/tooShort(length:minimum:)`` below 18 bytes,
    /// else ``BrainiacPacketError/lengthMismatch(expected:actual:)``.
    case truncated(length: Int)
    /// `extraBytes` zero bytes appended (up to the 244-byte notification limit):
    /// ``BrainiacPacketError/lengthMismatch(expected:actual:)``.
    case extended(extraBytes: Int)
    /// The version byte replaced (checksum recomputed): ``BrainiacPacketError/unsupportedVersion(_:)``.
    case wrongVersion(UInt8)
    /// The type byte replaced (checksum recomputed): ``BrainiacPacketError/unknownType(_:)`` for an unknown type.
    case wrongType(UInt8)
    /// The sample count byte replaced (checksum recomputed): ``BrainiacPacketError/invalidSampleCount(_:)``
    /// outside 1…10, else a length mismatch.
    case wrongSampleCount(UInt8)
    /// One bit of the first sample flipped: ``BrainiacPacketError/checksumMismatch(computed:received:)``.
    case flippedBit
    /// Replaced by `length` random bytes (at most 244): usually an unsupported version.
    case garbage(length: Int)
    /// Replaced by a checksummed battery notification with this level:
    /// ``BrainiacPacketError/batteryOutOfRange(_:)`` above 100.
    case battery(level: UInt8)
    /// Replaced by a checksummed status notification with this code:
    /// ``BrainiacPacketError/unknownStatusCode(_:)`` above 15.
    case status(code: UInt8)
}

extension BrainiacFault {
    /// Damages the `length`-byte notification in `buffer` in place and returns the damaged length.
    ///
    /// `buffer` must hold at least ``BrainiacPacketLayout/maximumNotificationSize`` bytes.
    func apply<Random: RandomNumberGenerator>(
        to buffer: UnsafeMutableRawBufferPointer, length: Int, random: inout Random
    ) -> Int {
        typealias Layout = BrainiacPacketLayout
        let limit = min(buffer.count, Layout.maximumNotificationSize)
        switch self {
        case .truncated(let newLength):
            return max(0, min(newLength, length))
        case .extended(let extraBytes):
            let newLength = min(limit, length + max(0, extraBytes))
            for index in length..<newLength { buffer[index] = 0 }
            return newLength
        case .wrongVersion(let version):
            buffer[Layout.versionOffset] = version
            Layout.seal(buffer, length: length)
            return length
        case .wrongType(let type):
            buffer[Layout.typeOffset] = type
            Layout.seal(buffer, length: length)
            return length
        case .wrongSampleCount(let count):
            buffer[Layout.bodyOffset] = count
            Layout.seal(buffer, length: length)
            return length
        case .flippedBit:
            buffer[Layout.firstValueOffset] ^= 0x01
            return length
        case .garbage(let garbageLength):
            let newLength = max(0, min(garbageLength, limit))
            for index in 0..<newLength { buffer[index] = UInt8(truncatingIfNeeded: random.next()) }
            return newLength
        case .battery(let level):
            buffer[Layout.typeOffset] = BrainiacPacketType.battery.rawValue
            buffer[Layout.bodyOffset] = level
            Layout.seal(buffer, length: Layout.eventSize)
            return Layout.eventSize
        case .status(let code):
            buffer[Layout.typeOffset] = BrainiacPacketType.status.rawValue
            buffer[Layout.bodyOffset] = code
            Layout.seal(buffer, length: Layout.eventSize)
            return Layout.eventSize
        }
    }
}
