import AxonMuse
import Testing

/// The Muse's wire format, byte for byte: EEG notifications, control commands, the decoder's packet assembly.
@Suite("Muse packets")
struct MusePacketTests {
    /// Index 0x1234 and raw samples 0, 4095, 2048, 2049, 1, 4094, 0x123, 0xABC, 2047, 100, 3000, 42, packed by hand.
    static let handWritten: [UInt8] = [
        0x12, 0x34, 0x00, 0x0F, 0xFF, 0x80, 0x08, 0x01, 0x00, 0x1F, 0xFE, 0x12, 0x3A, 0xBC, 0x7F, 0xF0, 0x64, 0xBB,
        0x80, 0x2A,
    ]
    static let handRaw: [UInt16] = [0, 4095, 2048, 2049, 1, 4094, 0x123, 0xABC, 2047, 100, 3000, 42]

    @Test("a hand-packed notification decodes sample by sample, and encodes back")
    func eegPacket() throws {
        let packet = try MuseEEGPacket(bytes: Self.handWritten)
        #expect(packet.index == 0x1234)
        #expect(packet.raw == Self.handRaw)
        #expect(packet.bytes == Self.handWritten)
        let microvolts = packet.microvolts
        #expect(microvolts[0] == -1000)
        #expect(microvolts[1] == 999.51171875)
        #expect(microvolts[2] == 0)
        #expect(microvolts[3] == 0.48828125)
        #expect(MuseEEGPacket.raw(microvolts: 0.3) == 2049 && MuseEEGPacket.raw(microvolts: -2000) == 0)
        #expect(throws: MuseError.wrongLength(19)) { try MuseEEGPacket(bytes: Array(Self.handWritten.prefix(19))) }
    }

    @Test(
        "commands are length-prefixed ASCII ending in a newline",
        arguments: [
            (MuseCommand.halt, [0x02, 0x68, 0x0A]), (.start, [0x02, 0x64, 0x0A]), (.status, [0x02, 0x73, 0x0A]),
            (.keepAlive, [0x02, 0x6B, 0x0A]), (.version, [0x03, 0x76, 0x31, 0x0A]),
            (.preset("p21"), [0x04, 0x70, 0x32, 0x31, 0x0A]), (.preset("p50"), [0x04, 0x70, 0x35, 0x30, 0x0A]),
        ] as [(MuseCommand, [UInt8])])
    func commands(command: MuseCommand, bytes: [UInt8]) throws {
        #expect(try command.bytes() == bytes)
    }

    @Test("a preset that is not p and two hex digits is refused", arguments: ["p2", "x21", "p2g", "p210"])
    func badPreset(name: String) {
        #expect(throws: MuseError.invalidPreset(name)) { try MuseCommand.preset(name).bytes() }
    }

    @Test("the profile's UUIDs are muse-lsl's")
    func profile() {
        #expect(MuseGATTProfile.control.string == "273e0001-4c4d-454d-96be-f03bac821358")
        #expect(
            MuseGATTProfile.eeg.map(\.string) == [
                "273e0003-4c4d-454d-96be-f03bac821358", "273e0004-4c4d-454d-96be-f03bac821358",
                "273e0005-4c4d-454d-96be-f03bac821358", "273e0006-4c4d-454d-96be-f03bac821358",
                "273e0007-4c4d-454d-96be-f03bac821358",
            ])
        #expect(MuseGATTProfile.telemetry.string == "273e000b-4c4d-454d-96be-f03bac821358")
        #expect(MuseGATTProfile(includesAux: false).eegCharacteristics.count == 4)
    }

    @Test("telemetry and motion notifications decode with muse-lsl's scales")
    func auxiliary() throws {
        let telemetry = try MuseAuxiliaryPacket.Telemetry(bytes: [
            0x00, 0x07, 0xA0, 0x00, 0x06, 0x90, 0x0B, 0xB8, 0x00, 0x1E, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ])
        #expect(telemetry.index == 7 && telemetry.batteryPercent == 80)  // 0xA000 / 512
        #expect(abs(telemetry.fuelGaugeMillivolts - 0x0690 * 2.2) < 1e-9 && telemetry.adcVolts == 3000)
        #expect(telemetry.temperature == 30)
        // X, Y, Z = 0, −1, 16384 counts three times.
        let bytes: [UInt8] = [0x01, 0x02] + Array(repeating: [0x00, 0x00, 0xFF, 0xFF, 0x40, 0x00], count: 3).joined()
        let motion = try MuseAuxiliaryPacket.Motion(bytes: bytes, scale: MuseAuxiliaryPacket.accelerometerScale)
        #expect(motion.index == 0x0102 && motion.samples.count == 3)
        #expect(motion.samples[2] == [0, -0.0000610352, 16384 * 0.0000610352])
        #expect(throws: MuseError.wrongLength(19)) {
            try MuseAuxiliaryPacket.Motion(bytes: Array(bytes.prefix(19)), scale: 1)
        }
    }

    static func notification(index: UInt16, channel: Int) -> [UInt8] {
        MuseEEGPacket(index: index, raw: (0..<12).map { UInt16(1000 + Int(index) * 10 + channel * 100 + $0) }).bytes
    }

    @Test("a packet index becomes 12 frames once all channels are in; lost and incomplete indices are counted")
    func decoder() throws {
        let decoder = MuseDecoder(channelCount: 5)
        var frames: [[Double]] = []
        var counters: [UInt64] = []
        func feed(_ index: UInt16, channels: Range<Int> = 0..<5) throws {
            for channel in channels {
                try decoder.decode(Self.notification(index: index, channel: channel), channel: channel) {
                    frames.append(Array($0))
                    counters.append($1)
                }
            }
        }
        try feed(10)
        try feed(11)
        try feed(13)  // 12 lost on the radio
        try feed(14, channels: 0..<3)  // AF8's and TP10's notifications of 14 lost
        try feed(15)
        let expected: [UInt64] = Array(120..<144) + Array(156..<168) + Array(180..<192)
        #expect(counters == expected)
        let second: [Double] = (0..<5).map { MuseEEGPacket.microvolts(raw: UInt16(1000 + 100 + $0 * 100 + 1)) }
        #expect(frames[1] == second)
        let s = decoder.statistics
        #expect(s.packets == 4 && s.frames == 48)
        #expect(s.missingPackets == 2)
        #expect(s.incompletePackets == 1)
        #expect(s.notifications == 23)
        #expect(throws: MuseError.wrongLength(3)) { try decoder.decode([1, 2, 3], channel: 0) { _, _ in } }
        #expect(decoder.statistics.rejected == 1)
    }
}
