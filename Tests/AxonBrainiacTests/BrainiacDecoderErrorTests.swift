import AxonBrainiac
import AxonStreams
import Testing

/// One malformed notification and the error it must produce.
struct BadNotification: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var expected: BrainiacPacketError
    var testDescription: String { name }
}

@Suite("BrainiacDecoderErrors")
struct BrainiacDecoderErrorTests {
    static let encoder = BrainiacEncoder()

    /// A good 10-sample notification; sample `n` (counter `n`) holds `exactValues(samples: 1, offset: 4 * n)`.
    static func goodEEG(order: UInt16 = 2, counter: UInt32 = 10) -> [UInt8] {
        try! encoder.encodeEEG(header(order: order, counter: counter, time: deviceEpoch + 4 * UInt64(counter)),
                               values: exactValues(samples: 10, offset: 4 * Int(counter)))
    }

    static func resealed(_ bytes: [UInt8], _ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var copy = bytes
        change(&copy)
        copy[copy.count - 1] = BrainiacPacketLayout.crc8(Array(copy.dropLast()))
        return copy
    }

    static let cases: [BadNotification] = {
        let good = goodEEG()
        let crc = good[137]
        let battery = try! encoder.encodeBattery(header(order: 2), level: 100)
        let status = encoder.encodeStatus(header(order: 2), status: .ready)
        var flipped = good
        flipped[40] ^= 0x10
        return [
            .init(name: "empty", bytes: [], expected: .tooShort(length: 0, minimum: 18)),
            .init(name: "cut inside the header", bytes: Array(good[0..<10]),
                  expected: .tooShort(length: 10, minimum: 18)),
            .init(name: "longer than declared", bytes: good + [0, 0],
                  expected: .lengthMismatch(expected: 138, actual: 140)),
            .init(name: "shorter than declared", bytes: Array(good.dropLast()),
                  expected: .lengthMismatch(expected: 138, actual: 137)),
            .init(name: "declares 9 samples, carries 10", bytes: resealed(good) { $0[16] = 9 },
                  expected: .lengthMismatch(expected: 126, actual: 138)),
            .init(name: "wrong version", bytes: resealed(good) { $0[0] = 2 }, expected: .unsupportedVersion(2)),
            .init(name: "wrong version, short", bytes: [0, 1, 2, 3, 4], expected: .unsupportedVersion(0)),
            .init(name: "unknown type", bytes: resealed(good) { $0[1] = 7 }, expected: .unknownType(7)),
            .init(name: "zero samples", bytes: resealed(good) { $0[16] = 0 }, expected: .invalidSampleCount(0)),
            .init(name: "eleven samples", bytes: resealed(good) { $0[16] = 11 }, expected: .invalidSampleCount(11)),
            .init(name: "checksum byte wrong", bytes: Array(good.dropLast()) + [crc ^ 0xFF],
                  expected: .checksumMismatch(computed: crc, received: crc ^ 0xFF)),
            .init(name: "payload bit flipped", bytes: flipped,
                  expected: .checksumMismatch(computed: BrainiacPacketLayout.crc8(Array(flipped.dropLast())),
                                              received: crc)),
            .init(name: "battery 101", bytes: resealed(battery) { $0[16] = 101 }, expected: .batteryOutOfRange(101)),
            .init(name: "battery 255", bytes: resealed(battery) { $0[16] = 255 }, expected: .batteryOutOfRange(255)),
            .init(name: "battery too long", bytes: resealed(battery + [0]) { _ in },
                  expected: .lengthMismatch(expected: 18, actual: 19)),
            .init(name: "status 16", bytes: resealed(status) { $0[16] = 16 }, expected: .unknownStatusCode(16)),
        ]
    }()

    /// good → bad → good: the bad one throws its typed error and bumps exactly its counter; the good ones around
    /// it are decoded completely, and nothing of the bad one reaches the ring.
    @Test(arguments: cases)
    func badNotificationIsRejectedAndTheStreamContinues(bad: BadNotification) throws {
        let collector = FrameCollector()
        let decoder = BrainiacDecoder()
        _ = try decoder.decode(Self.goodEEG(order: 1, counter: 0), arrivalTime: 1, into: collector.writer)
        #expect(throws: bad.expected) { try decoder.decode(bad.bytes, arrivalTime: 2, into: collector.writer) }
        _ = try decoder.decode(Self.goodEEG(order: 3, counter: 20), arrivalTime: 3, into: collector.writer)

        let stats = decoder.statistics
        for kind in BrainiacPacketError.Kind.allCases {
            #expect(stats.rejected(kind) == (kind == bad.expected.kind ? 1 : 0), "\(kind)")
        }
        #expect(stats.rejectedNotifications == 1)
        #expect(stats.eegNotifications == 2)
        #expect(stats.decodedNotifications == 2)
        #expect(stats.samples == 20)
        #expect(stats.skippedOrderNumbers == 1)  // order number 2 never decoded
        #expect(decoder.lastError == bad.expected)
        #expect(decoder.batteryLevel == nil && decoder.status == nil)
        let frames = collector.drain()
        #expect(frames.map(\.counter) == (Array(0..<10) + Array(20..<30)).map { UInt64($0) })
        #expect(frames.map(\.arrival) == Array(repeating: 1.0, count: 10) + Array(repeating: 3.0, count: 10))
        #expect(frames[10].values == exactValues(samples: 1, offset: 4 * 20))
        #expect(!bad.expected.description.isEmpty)
    }

    /// Every prefix of a good notification is rejected (never crashes, never writes).
    @Test func everyTruncationIsRejected() {
        let good = Self.goodEEG()
        let collector = FrameCollector()
        let decoder = BrainiacDecoder()
        for length in 0..<good.count {
            #expect(throws: BrainiacPacketError.self) {
                try decoder.decode(Array(good[0..<length]), arrivalTime: 0, into: collector.writer)
            }
        }
        #expect(decoder.statistics.tooShort == 18)  // lengths 0…17
        #expect(decoder.statistics.lengthMismatch == 138 - 18)  // lengths 18…137
        #expect(decoder.statistics.rejectedNotifications == 138)
        #expect(collector.drain().isEmpty)
    }

    /// Random bytes of random lengths (0…244) between good notifications: all rejected and counted, every good
    /// notification still decoded exactly.
    @Test func randomGarbageIsRejectedAndCounted() throws {
        var random = SplitMix64(seed: 2024)
        let collector = FrameCollector(capacity: 1024)
        let decoder = BrainiacDecoder()
        var goodSent = 0
        var garbageSent = 0
        var kinds: [BrainiacPacketError.Kind: Int] = [:]
        for round in 0..<40 {
            for _ in 0..<50 {
                let length = Int.random(in: 0...244, using: &random)
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                garbageSent += 1
                do {
                    _ = try decoder.decode(bytes, arrivalTime: 0, into: collector.writer)
                    Issue.record("garbage of \(length) bytes was accepted")
                } catch {
                    kinds[error.kind, default: 0] += 1
                }
            }
            // Framed garbage: a valid v1 EEG header and length, random samples, a stale checksum.
            var framed = Self.goodEEG(order: UInt16(round), counter: UInt32(round * 10))
            for index in 17..<137 { framed[index] = UInt8.random(in: 0...255, using: &random) }
            framed[137] = BrainiacPacketLayout.crc8(Array(framed.dropLast())) ^ 0x01
            #expect(throws: BrainiacPacketError.self) {
                try decoder.decode(framed, arrivalTime: 0, into: collector.writer)
            }
            garbageSent += 1
            _ = try decoder.decode(Self.goodEEG(order: UInt16(round), counter: UInt32(round * 10)),
                                   arrivalTime: Double(round), into: collector.writer)
            goodSent += 1
        }
        let stats = decoder.statistics
        #expect(stats.rejectedNotifications == garbageSent)
        #expect(stats.checksumMismatch >= 40)
        #expect(kinds.values.reduce(0, +) == 2000)
        #expect(stats.unsupportedVersion >= 1900)  // 255 in 256 random first bytes are not version 1
        #expect(stats.eegNotifications == goodSent)
        let frames = collector.drain()
        #expect(frames.count == 10 * goodSent)
        #expect(frames.map(\.counter) == (0..<(10 * goodSent)).map { UInt64($0) })
        #expect(frames.enumerated().allSatisfy { index, frame in
            frame.values == Array(exactValues(samples: 1, offset: index * 4))
        })
    }
}
