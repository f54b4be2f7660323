import AxonOpenBCI
import Testing

/// The Cyton's 33-byte packet, its scale and its channel-settings command, byte for byte.
@Suite("Cyton packet")
struct CytonPacketTests {
    /// A packet written out by hand from the published layout.
    static let handWritten: [UInt8] = [
        0xA0, 0x05,
        0x7F, 0xFF, 0xFF,  // +8388607: full scale
        0x80, 0x00, 0x00,  // −8388608
        0xFF, 0xFF, 0xFF,  // −1
        0x00, 0x00, 0x01,  // +1
        0x12, 0x34, 0x56,  // 1193046
        0xFF, 0xED, 0xCC,  // −4660
        0x00, 0x00, 0x00,
        0x01, 0x00, 0x00,  // 65536
        0x00, 0x10, 0xFF, 0xF0, 0x01, 0x00,  // accelerometer 16, −16, 256 counts
        0xC0,
    ]

    @Test("µV per count is 4.5 V / gain / (2²³ − 1)")
    func scale() {
        #expect(abs(CytonGain.x24.microvoltsPerCount - 0.022_351_744_455_307_063) < 1e-16)
        #expect(abs(CytonGain.x1.microvoltsPerCount - 0.536_441_866_927_369_5) < 1e-15)
        #expect(abs(CytonGain.x8.microvoltsPerCount - 0.067_055_233_365_921_19) < 1e-16)
        #expect(CytonGain.allCases.map(\.commandCode) == ["0", "1", "2", "3", "4", "5", "6"])
    }

    @Test("a hand-written packet decodes field by field")
    func handWrittenPacket() throws {
        let packet = try #require(Self.handWritten.withUnsafeBytes { CytonPacket(bytes: $0) })
        #expect(packet.sampleNumber == 5)
        #expect(packet.counts == [8_388_607, -8_388_608, -1, 1, 1_193_046, -4660, 0, 65_536])
        #expect(packet.footer == 0xC0)
        let acceleration = try #require(packet.acceleration)
        #expect(acceleration.x == 0.002 && acceleration.y == -0.002 && acceleration.z == 0.032)
        #expect(packet.bytes == Self.handWritten)
    }

    @Test("the decoder turns the hand-written packet into µV")
    func decodedMicrovolts() {
        let decoder = CytonDecoder(daisy: false)
        var frames: [[Double]] = []
        var counters: [UInt64] = []
        // The packet, then the next one's header: a packet is decoded once the byte after it is seen.
        Self.handWritten.withUnsafeBytes {
            decoder.consume($0) {
                frames.append(Array($0)); counters.append($1)
            }
        }
        #expect(frames.isEmpty)
        [UInt8(0xA0)].withUnsafeBytes {
            decoder.consume($0) {
                frames.append(Array($0)); counters.append($1)
            }
        }
        let scale = CytonGain.x24.microvoltsPerCount
        #expect(counters == [5])
        #expect(frames.first?[0] == 8_388_607 * scale)
        #expect(abs((frames.first?[0] ?? 0) - 187_500) < 1e-9)
        #expect(frames.first?[1] == -8_388_608 * scale)
        #expect(frames.first?[2] == -scale)
        #expect(frames.first?[5] == -4660 * scale)
        #expect(decoder.statistics.accelerometerReadings == 1)
    }

    @Test("a footer outside 0xC0…0xC6 or a wrong header is no packet")
    func framing() {
        var bytes = Self.handWritten
        for footer: UInt8 in [0xC1, 0xC6] {
            bytes[32] = footer
            #expect(bytes.withUnsafeBytes { CytonPacket(bytes: $0) }?.footer == footer)
        }
        for footer: UInt8 in [0xBF, 0xC7, 0x00] {
            bytes[32] = footer
            #expect(bytes.withUnsafeBytes { CytonPacket(bytes: $0) } == nil)
        }
        bytes = Self.handWritten
        bytes[0] = 0xA1
        #expect(bytes.withUnsafeBytes { CytonPacket(bytes: $0) } == nil)
    }

    @Test(
        "channel settings round-trip through their command text",
        arguments: [
            ("x1060110X", CytonChannelSettings(channel: 1)),
            ("x3030110X", CytonChannelSettings(channel: 3, gain: .x6)),
            ("x8100000X", CytonChannelSettings(channel: 8, poweredDown: true, gain: .x1, bias: false, srb2: false)),
            ("xQ065111X", CytonChannelSettings(channel: 9, input: 5, srb1: true)),
            ("xI040110X", CytonChannelSettings(channel: 16, gain: .x8)),
        ])
    func channelSettings(text: String, settings: CytonChannelSettings) throws {
        #expect(try settings.command() == text)
        #expect(try CytonChannelSettings(command: text) == settings)
    }

    @Test(
        "bad channel settings are typed errors",
        arguments: ["x9060110X", "x1070110X", "x1060210X", "x106011X", "y1060110X"])
    func badChannelSettings(text: String) {
        #expect(throws: CytonError.self) { try CytonChannelSettings(command: text) }
    }

    @Test("the banner tells a Daisy apart")
    func banner() {
        let plain = CytonBanner(text: CytonBanner.text(daisy: false))
        let daisy = CytonBanner(text: CytonBanner.text(daisy: true))
        #expect(!plain.hasDaisy && daisy.hasDaisy)
        #expect(plain.firmware == "v3.1.2")
        let v2 = CytonBanner(
            text: "OpenBCI V3 8-16 channel\nADS1299 Device ID: 0x3E\nLIS3DH Device ID: 0x33\nFirmware: v2.0.0\n$$$")
        #expect(!v2.hasDaisy && v2.firmware == "v2.0.0" && v2.lines.count == 4)
    }
}
