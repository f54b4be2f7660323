import AxonBand
import AxonStreams
import Testing

/// Malformed band notifications and commands are typed errors, and seeded random and mutated bytes through every
/// decoder never trap: each input gives a value or a typed error.
struct BandDecoderFuzzTests {
    static let today = BandDate(year: 2026, month: 11, day: 22)!

    @Test(arguments: [
        ([UInt8](), BandDecodingError.tooShort(length: 0)),
        ([0x21, 0x00], .tooShort(length: 2)),
        ([0x21, 0x05, 0x00, 0x26], .lengthMismatch(declared: 5, actual: 1)),
        ([0x11, 0x01, 0x50, 0x00], .badChecksum(expected: 0x62, found: 0x00)),
        (BandFrame(type: 0x7E, payload: []).bytes, .unknownType(0x7E)),
        (
            BandFrame(type: 0x23, payload: [1, 0, 0, 0, 0xEA, 0x07, 11]).bytes,
            .truncated(type: 0x23, needed: 8, length: 7)
        ),
        (BandFrame(type: 0x11, payload: [50, 1]).bytes, .trailingBytes(type: 0x11, count: 1)),
        (BandFrame(type: 0x11, payload: [101]).bytes, .invalidField(type: 0x11, field: "battery", value: 101)),
        (
            BandFrame(type: 0x23, payload: [1, 0, 0, 0, 0xEA, 0x07, 13, 1, 0, 0, 10, 0, 3]).bytes,
            .invalidField(type: 0x23, field: "date", value: 20_261_301)
        ),
        (
            BandFrame(type: 0x23, payload: [1, 0, 0, 0, 0xEA, 0x07, 11, 1, 0xA0, 0x05, 10, 0, 3]).bytes,
            .invalidField(type: 0x23, field: "start minute", value: 1440)
        ),
        (
            BandFrame(type: 0x23, payload: [1, 0, 0, 0, 0xEA, 0x07, 11, 1, 0, 0, 10, 0, 7]).bytes,
            .invalidField(type: 0x23, field: "sleep type", value: 7)
        ),
        (
            BandFrame(type: 0x21, payload: [1, 0, 0, 0, 0xEA, 0x07, 11, 1, 0x07] + [UInt8](repeating: 0, count: 14))
                .bytes,
            .invalidField(type: 0x21, field: "sport", value: 7)
        ),
        (
            BandFrame(type: 0x20, payload: [1, 0, 0, 0, 0x07] + [UInt8](repeating: 0, count: 19)).bytes,
            .invalidField(type: 0x20, field: "sport", value: 7)
        ),
        (
            BandFrame(type: 0x25, payload: [1, 0, 0, 0, 5, 24, 24, 0x01, 0, 0]).bytes,
            .invalidField(type: 0x25, field: "sport index", value: 24)
        ),
        (
            BandFrame(type: 0x25, payload: [1, 0, 0, 0, 5, 0, 24, 0x01, 3, 0xE8, 0xB5]).bytes,
            .truncated(type: 0x25, needed: 12, length: 11)
        ),
        (
            BandFrame(type: 0x10, payload: [0x00, 0x00, 1, 0, 0, 0]).bytes,
            .invalidField(type: 0x10, field: "model", value: 0)
        ),
        (
            BandFrame(type: 0x10, payload: [0x90, 0x25, 1, 0, 0, 2, 0xC3, 0x28]).bytes,
            .invalidField(type: 0x10, field: "text", value: 2)
        ),
    ])
    func malformedNotificationsAreTypedErrors(_ bytes: [UInt8], _ expected: BandDecodingError) {
        #expect(throws: expected) { try BandNotification(decoding: bytes) }
    }

    @Test func everyRecordKindRoundTrips() throws {
        let records =
            SimulatedBand.week(today: Self.today) + SimulatedBand.todayTotals.map { .today($0) }
            + SimulatedBand.supportedSports.records.map { .supportedSport($0) }
        #expect(Set(records.map(\.kind)) == Set(BandRecordKind.allCases))
        for (index, content) in records.enumerated() {
            let notification = BandNotification.record(BandRecord(sequence: UInt32(index + 1), content: content))
            #expect(try BandNotification(decoding: notification.bytes) == notification)
        }
        for notification in [
            BandNotification.deviceInfo(BandDeviceInfo(model: .fitPulse, firmware: "2.0.17", name: "Fit Pulse ñ")),
            .battery(100), .syncDone(lastSequence: 70_000), .response(command: 0x43, accepted: false),
        ] {
            #expect(try BandNotification(decoding: notification.bytes) == notification)
        }
    }

    /// Seeded random bytes, and valid frames with bytes flipped, cut or appended: 40 000 inputs through the
    /// notification, command and heart-rate decoders.
    @Test func fuzzedBytesGiveAValueOrATypedError() {
        var random = SplitMix64(seed: 0xBA4D)
        let valid: [[UInt8]] =
            SimulatedBand.week(today: Self.today).prefix(40).enumerated().map {
                BandNotification.record(BandRecord(sequence: UInt32($0.offset), content: $0.element)).bytes
            } + BandCommandTransferTests.frames.map(\.1)
        var decoded = 0, rejected = 0
        for iteration in 0..<40_000 {
            var bytes: [UInt8]
            if iteration % 2 == 0 {
                bytes = (0..<Int(random.next() % 80)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = valid[Int(random.next() % UInt64(valid.count))]
                switch random.next() % 4 {
                case 0 where !bytes.isEmpty:
                    bytes[Int(random.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: random.next() | 1)
                case 1: bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
                case 2: bytes.append(UInt8(truncatingIfNeeded: random.next()))
                default:
                    // Flip a payload byte and repair length and checksum, so field checks are reached.
                    if bytes.count > 3 {
                        bytes[2 + Int(random.next() % UInt64(bytes.count - 3))] = UInt8(
                            truncatingIfNeeded: random.next())
                        bytes[bytes.count - 1] = UInt8(truncatingIfNeeded: bytes.dropLast().reduce(0) { $0 &+ Int($1) })
                    }
                }
            }
            do {
                _ = try BandNotification(decoding: bytes)
                decoded += 1
            } catch { rejected += 1 }
            do { _ = try BandCommand(decoding: bytes) } catch { rejected += 1 }
            do { _ = try HeartRateMeasurement(decoding: bytes) } catch { rejected += 1 }
        }
        #expect(decoded > 1_000, "mutated valid frames still decode often: \(decoded)")
        #expect(rejected > 40_000)
    }
}
