import Foundation

/// Why bytes from a ResearchBIT device are not a valid frame or event. Decoding never traps.
///
/// Threading: a value type; share freely.
public enum ResearchBITDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooShort(length: Int)
    case lengthMismatch(declared: Int, actual: Int)
    case badChecksum(expected: UInt8, found: UInt8)
    case unknownType(UInt8)
    /// The payload ends before its fields do, or has bytes after them.
    case badLength(type: UInt8, length: Int, expected: Int)
    /// An event type other than 1 (trigger pulls) or 2 (time awake).
    case unknownEventType(UInt8)
    /// The event's declared size does not match its fields.
    case sizeMismatch(declared: Int, actual: Int)
    /// A battery level over 100.
    case batteryOutOfRange(Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .tooShort(let n): "ResearchBIT frame of \(n) bytes (at least 3)"
        case .lengthMismatch(let d, let a): "ResearchBIT frame declares \(d) payload bytes, has \(a)"
        case .badChecksum(let e, let f):
            "ResearchBIT checksum 0x\(String(f, radix: 16)), expected 0x\(String(e, radix: 16))"
        case .unknownType(let t): "unknown ResearchBIT frame type 0x\(String(t, radix: 16))"
        case .badLength(let t, let l, let e): "ResearchBIT frame 0x\(String(t, radix: 16)) of \(l) bytes, expected \(e)"
        case .unknownEventType(let t): "unknown summary event type \(t)"
        case .sizeMismatch(let d, let a): "summary event declares \(d) bytes, has \(a)"
        case .batteryOutOfRange(let b): "battery \(b) % is over 100"
        }
    }
}

/// What a ResearchBIT device notifies (docs/researchbit-protocol.md): `type | length | payload | checksum`, the
/// checksum the sum of the previous bytes mod 256.
///
/// Threading: a value type; share freely.
public enum ResearchBITNotification: Sendable, Hashable {
    /// A summary event with the device's sequence number (what the acknowledgement names).
    case event(sequence: UInt32, SummaryEvent)
    /// Battery and how many events the device still holds.
    case status(battery: Int, pending: Int)
    /// Every event up to `lastSequence` was sent.
    case done(lastSequence: UInt32)

    static let eventType: UInt8 = 0x50
    static let statusType: UInt8 = 0x51
    static let doneType: UInt8 = 0x5F

    /// Decodes one notification value.
    ///
    /// - Throws: ``ResearchBITDecodingError``.
    public init(decoding bytes: [UInt8]) throws(ResearchBITDecodingError) {
        guard bytes.count >= 3 else { throw .tooShort(length: bytes.count) }
        let declared = Int(bytes[1])
        guard bytes.count == declared + 3 else { throw .lengthMismatch(declared: declared, actual: bytes.count - 3) }
        let sum = UInt8(truncatingIfNeeded: bytes.dropLast().reduce(0) { $0 &+ Int($1) })
        guard sum == bytes.last! else { throw .badChecksum(expected: sum, found: bytes.last!) }
        let type = bytes[0]
        let p = Array(bytes[2..<(bytes.count - 1)])
        func u32(_ i: Int) -> UInt32 {
            UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
        }
        switch type {
        case Self.eventType:
            // sequence (4) | size (2) | id (16) | type (1) | wake-up (4) | field count (1) | fields (4 each)
            guard p.count >= 28 else { throw .badLength(type: type, length: p.count, expected: 28) }
            let fieldCount = Int(p[27])
            guard p.count == 28 + 4 * fieldCount else {
                throw .badLength(type: type, length: p.count, expected: 28 + 4 * fieldCount)
            }
            let declaredSize = Int(p[4]) | Int(p[5]) << 8
            let actual = SummaryEvent.size(fieldCount: fieldCount)
            guard declaredSize == actual else { throw .sizeMismatch(declared: declaredSize, actual: actual) }
            guard let eventType = SummaryEvent.EventType(rawValue: p[22]) else { throw .unknownEventType(p[22]) }
            let id = UUID(
                uuid: (
                    p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20],
                    p[21]
                ))
            let fields = (0..<fieldCount).map { u32(28 + 4 * $0) }
            self = .event(sequence: u32(0), SummaryEvent(id: id, type: eventType, wakeupTime: u32(23), fields: fields))
        case Self.statusType:
            guard p.count == 3 else { throw .badLength(type: type, length: p.count, expected: 3) }
            guard p[0] <= 100 else { throw .batteryOutOfRange(Int(p[0])) }
            self = .status(battery: Int(p[0]), pending: Int(p[1]) | Int(p[2]) << 8)
        case Self.doneType:
            guard p.count == 4 else { throw .badLength(type: type, length: p.count, expected: 4) }
            self = .done(lastSequence: u32(0))
        default:
            throw .unknownType(type)
        }
    }

    /// The frame on the wire (the simulators' side).
    public var bytes: [UInt8] {
        var p: [UInt8] = []
        func u32(_ v: UInt32) { p += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        let type: UInt8
        switch self {
        case .event(let sequence, let e):
            type = Self.eventType
            u32(sequence)
            p += [UInt8(e.size & 0xFF), UInt8(e.size >> 8)]
            let u = e.id.uuid
            p += [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
            p.append(e.type.rawValue)
            u32(e.wakeupTime)
            p.append(UInt8(e.fields.count))
            for f in e.fields { u32(f) }
        case .status(let battery, let pending):
            type = Self.statusType
            p = [UInt8(battery), UInt8(pending & 0xFF), UInt8(pending >> 8 & 0xFF)]
        case .done(let last):
            type = Self.doneType
            u32(last)
        }
        let head = [type, UInt8(p.count)] + p
        return head + [UInt8(truncatingIfNeeded: head.reduce(0) { $0 &+ Int($1) })]
    }
}

/// Commands to a ResearchBIT device.
///
/// Threading: a value type; share freely.
public enum ResearchBITCommand: Sendable, Hashable {
    /// Send the events after sequence `after`, each after the previous one's acknowledgement, then `done`.
    case fetch(after: UInt32)
    /// The event `sequence` is stored: the device may forget it.
    case acknowledge(sequence: UInt32)
    /// Send a status frame.
    case status

    /// Bytes.
    public var bytes: [UInt8] {
        let (type, value): (UInt8, UInt32?) =
            switch self {
            case .fetch(let after): (0x01, after)
            case .acknowledge(let sequence): (0x02, sequence)
            case .status: (0x03, nil)
            }
        var head = [type, value == nil ? 0 : 4]
        if let v = value { head += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        return head + [UInt8(truncatingIfNeeded: head.reduce(0) { $0 &+ Int($1) })]
    }

    /// Decodes a command (the device's side); `nil` for anything else.
    public init?(decoding bytes: [UInt8]) {
        guard bytes.count >= 3, bytes.count == Int(bytes[1]) + 3,
            UInt8(truncatingIfNeeded: bytes.dropLast().reduce(0) { $0 &+ Int($1) }) == bytes.last!
        else { return nil }
        let v =
            bytes.count == 7
            ? UInt32(bytes[2]) | UInt32(bytes[3]) << 8 | UInt32(bytes[4]) << 16 | UInt32(bytes[5]) << 24 : nil
        switch (bytes[0], v) {
        case (0x01, let v?): self = .fetch(after: v)
        case (0x02, let v?): self = .acknowledge(sequence: v)
        case (0x03, nil) where bytes.count == 3: self = .status  // no payload: one would be a malformed frame
        default: return nil
        }
    }
}
