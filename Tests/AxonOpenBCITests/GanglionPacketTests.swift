import AxonOpenBCI
import Testing

/// The Ganglion's packets against values published with its format: OpenBCI's own test vectors for the 18-bit delta
/// unpacking and the 19-bit sign rule, and packets written out by hand from the format's description.
@Suite("Ganglion packets")
struct GanglionPacketTests {
    /// The 18 data bytes of OpenBCI's published `decompressDeltas18Bit` test and the deltas it expects.
    static let published18Bit: [UInt8] = [
        0b0000_0000, 0b0000_0000, 0b0000_0000, 0b0000_0000, 0b0010_0000, 0b0000_0000, 0b0010_1000, 0b0000_0000,
        0b0000_0100, 0b1000_0000, 0b0000_0000, 0b1011_1100, 0b0000_0000, 0b0000_0111, 0b0000_0000, 0b0010_1000,
        0b1100_0000, 0b0000_1010,
    ]
    static let published18BitDeltas: [[Int32]] = [[0, 2, 10, 4], [131_074, 245_760, 114_698, 49_162]]

    @Test("18-bit deltas unpack as OpenBCI's published vector says")
    func eighteenBit() {
        #expect(GanglionPacket.deltas(Self.published18Bit, width: 18) == Self.published18BitDeltas)
    }

    @Test(
        "19-bit values take their sign from the least significant bit (OpenBCI's published cases)",
        arguments: [(0x00_0690, 1680), (0x02_C000, 180_224), (0x04_A101, -220_927), (0x7_FFFF, -1), (0x7_FFFD, -3)]
            as [(UInt32, Int32)])
    func nineteenBitSign(raw: UInt32, value: Int32) {
        #expect(GanglionPacket.signed(raw, width: 19) == value)
    }

    @Test("a raw packet, an 18-bit packet with an accelerometer axis, and a 19-bit packet rebuild the samples")
    func reconstruction() throws {
        // Raw: 1,000,000; −2,000,000; 8,388,607; −8,388,608 counts.
        let raw: [UInt8] =
            [0x00, 0x0F, 0x42, 0x40, 0xE1, 0x7B, 0x80, 0x7F, 0xFF, 0xFF, 0x80, 0x00, 0x00]
            + Array(
                repeating: 0, count: 7)
        // Packet 1: the published deltas, and accelerometer X = −2 in byte 19.
        let first: [UInt8] = [0x01] + Self.published18Bit + [0xFE]
        // Packet 2 written by hand as 19-bit deltas (id 101…200 range): 2, −3, 1680, 0 | 0, 0, 0, −1.
        let second: [UInt8] = [
            0x65, 0x00, 0x00, 0x5F, 0xFF, 0xF4, 0x03, 0x48, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
            0xFF, 0xFF,
        ]
        let decoder = GanglionDecoder()
        var frames: [[Double]] = []
        var counters: [UInt64] = []
        for packet in [raw, first, second] {
            try decoder.decode(packet) {
                frames.append($0); counters.append($1)
            }
        }
        let start: [Int32] = [1_000_000, -2_000_000, 8_388_607, -8_388_608]
        let s1 = zip(start, Self.published18BitDeltas[0]).map { $0 - $1 }
        let s2 = zip(s1, Self.published18BitDeltas[1]).map { $0 &- $1 }
        let s3 = zip(s2, [2, -3, 1680, 0] as [Int32]).map { $0 - $1 }
        let s4 = zip(s3, [0, 0, 0, -1] as [Int32]).map { $0 - $1 }
        let scale = GanglionPacket.microvoltsPerCount
        #expect(frames == [start, s1, s2, s3, s4].map { $0.map { Double($0) * scale } })
        // Raw = sample 199 of the cycle; packet 1 = samples 0, 1; packet 101 = samples 0, 1 of the 19-bit cycle.
        #expect(counters == [199, 0, 1, 0, 1])
        #expect(decoder.accelerometer == [-2, 0, 0])
        #expect(abs(scale - 0.001_869_949_862_927_649_6) < 1e-15)
    }

    @Test("lost packets are counted from the ids, and their samples are a counter jump")
    func lostPackets() throws {
        let raw: [UInt8] = [0x00] + Array(repeating: 0, count: 19)
        let decoder = GanglionDecoder()
        var counters: [UInt64] = []
        for id: UInt8 in [1, 2, 5, 100, 1] {
            let packet = [id] + Array(repeating: 0, count: 19)
            if id == 1 && counters.isEmpty { try decoder.decode(raw) { counters.append($1) } }
            try decoder.decode(packet) { counters.append($1) }
        }
        #expect(counters == [199, 0, 1, 2, 3, 8, 9, 198, 199, 0, 1])
        #expect(decoder.lostPackets == 2 + 94)
    }

    @Test("impedance readings, unknown ids and short packets")
    func otherPackets() throws {
        let decoder = GanglionDecoder()
        try decoder.decode([203] + Array("1234Z".utf8)) { _, _ in }
        try decoder.decode([205] + Array("77Z".utf8)) { _, _ in }
        #expect(decoder.impedance == [nil, nil, 1234, nil, 77])
        #expect(throws: GanglionPacketError.unknownID(210)) { try GanglionPacket(bytes: [210, 0]) }
        #expect(throws: GanglionPacketError.wrongLength(19)) {
            try GanglionPacket(bytes: Array(repeating: 5, count: 19))
        }
        #expect(throws: GanglionPacketError.malformedImpedance([201, 0x78, 0x5A])) {
            try GanglionPacket(bytes: [201, 0x78, 0x5A])
        }
        // A compressed packet before any raw packet has no reference: dropped and counted.
        try decoder.decode([7] + Array(repeating: 0, count: 19)) { _, _ in Issue.record("no sample without a reference")
        }
        #expect(decoder.packetsWithoutReference == 1)
    }

    @Test("impedance packets as the firmware sends them: unpadded, kΩ digits then Z, a bare Z for 0; the GUI's kΩ")
    func impedancePackets() throws {
        // OpenBCI_Ganglion_Library: serialBuffer[0] = ID_Z_1 + channel - 1, loadInt(kΩ), loadChar('Z'), sent as
        // 1 + n bytes. Channel 1 reads 10 kΩ, 4 reads 1801, the reference 0 (no digits).
        let notifications: [[UInt8]] = [
            [0xC9, 0x31, 0x30, 0x5A], [0xCA, 0x38, 0x30, 0x5A], [0xCB, 0x32, 0x34, 0x31, 0x5A],
            [0xCC, 0x31, 0x38, 0x30, 0x31, 0x5A], [0xCD, 0x5A],
        ]
        let decoder = GanglionDecoder()
        for bytes in notifications {
            try decoder.decode(bytes) { _, _ in Issue.record("no sample from an impedance packet") }
        }
        #expect(decoder.impedance == [10, 80, 241, 1801, 0])
        #expect(decoder.impedanceReadings == 5)
        // A padded 20-byte notification (what a relay might forward) decodes the same.
        let padded = try GanglionPacket(bytes: [0xCB] + Array("241Z".utf8) + Array(repeating: 0, count: 15))
        guard case .impedance(channel: 3, value: 241) = padded else {
            Issue.record("\(padded)")
            return
        }
        // No Z, a sign, or more digits than an Int32 kΩ has: malformed.
        let malformed: [[UInt8]] = [
            [0xC9, 0x31, 0x30], [0xC9, 0x2D, 0x31, 0x5A], [0xC9] + Array("1234567890Z".utf8), [0xC9],
        ]
        for bytes in malformed {
            #expect(throws: GanglionPacketError.malformedImpedance(bytes)) { try GanglionPacket(bytes: bytes) }
        }
        // The GUI halves the board's value (electrode in series with D_G) and colours it.
        let shown = decoder.impedance.enumerated().map { ElectrodeImpedance.ganglion(channel: $0 + 1, boardValue: $1!) }
        #expect(shown.map(\.channel) == ["1", "2", "3", "4", "REF"])
        #expect(shown.map(\.kiloohms) == [5, 40, 120.5, 900.5, 0])
        #expect(shown.map(\.grade) == [.veryGood, .good, .questionable, .bad, nil])
        let threshold = ElectrodeImpedance.ganglionThreshold
        #expect(shown.map { $0.passes(threshold: threshold) } == [true, true, false, false, false])
        #expect(ElectrodeImpedance.ganglionGrade(kiloohms: 100) == .acceptable)
        #expect(ElectrodeImpedance.ganglionGrade(kiloohms: 100.5) == .questionable)
        #expect(ElectrodeImpedance.cytonGrade(kiloohms: 749) == .good)
        #expect(ElectrodeImpedance.cytonGrade(kiloohms: 2600) == .bad)
    }
}
