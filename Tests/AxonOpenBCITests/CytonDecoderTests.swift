import AxonOpenBCI
import Testing

/// The decoder's framing: resynchronisation after faults, sample-number jumps, Daisy pairing, gains.
@Suite("Cyton decoder")
struct CytonDecoderTests {
    /// Counts of packet `index`, channel `channel`: distinct, signed, spread over the 24-bit range.
    static func count(_ index: Int, _ channel: Int) -> Int32 {
        Int32((index * 7919 + channel * 104_729) % 16_000_000 - 8_000_000)
    }

    static func packet(_ index: Int, footer: UInt8 = 0xC0) -> [UInt8] {
        CytonPacket(
            sampleNumber: UInt8(truncatingIfNeeded: index), counts: (0..<8).map { count(index, $0) },
            footer: footer
        ).bytes
    }

    /// Feeds `bytes` in chunks of varying size (1…61 bytes), as a serial port delivers them.
    static func decode(_ bytes: [UInt8], decoder: CytonDecoder) -> (frames: [[Double]], counters: [UInt64]) {
        var frames: [[Double]] = []
        var counters: [UInt64] = []
        var offset = 0
        var step = 1
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            bytes[offset..<end].withUnsafeBytes {
                decoder.consume($0) {
                    frames.append(Array($0)); counters.append($1)
                }
            }
            offset = end
            step = step % 61 + 7
        }
        decoder.flush {
            frames.append(Array($0)); counters.append($1)
        }
        return (frames, counters)
    }

    @Test("garbage, a truncated packet and a wrong footer: each counted, the next packet decoded")
    func resynchronisation() {
        var bytes: [UInt8] = []
        for index in 0..<60 {
            switch index {
            case 20: bytes += Self.packet(index).prefix(17)  // truncated: 17 of 33 bytes
            case 30: bytes += Self.packet(index, footer: 0x00)  // wrong footer
            default: bytes += Self.packet(index)
            }
            // Garbage after packet 10, with a header byte and a footer byte in it to mislead a naive scanner.
            if index == 10 { bytes += [0x13, 0xA0, 0x55, 0xC0, 0xA0, 0x00, 0xFF] }
        }
        let decoder = CytonDecoder(daisy: false)
        let (frames, counters) = Self.decode(bytes, decoder: decoder)
        let expected = (0..<60).filter { $0 != 20 && $0 != 30 }
        #expect(counters == expected.map { UInt64($0) })
        let scale = CytonGain.x24.microvoltsPerCount
        for (frame, index) in zip(frames, expected) {
            #expect(frame == (0..<8).map { Double(Self.count(index, $0)) * scale })
        }
        let s = decoder.statistics
        #expect(s.garbageRuns == 1)
        #expect(s.truncatedPackets == 1)
        #expect(s.wrongFooters == 1)
        #expect(s.faults == 3)
        #expect(s.missingPackets == 2)
        #expect(s.packets == 58 && s.frames == 58)
        #expect(s.discardedBytes == 7 + 17 + 33)
        #expect(s.bytesReceived == bytes.count)
    }

    @Test("a buffer's worth of garbage is skipped and the stream resumes")
    func longGarbage() {
        var bytes = (0..<5).flatMap { Self.packet($0) }
        bytes += (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
        bytes += (5..<12).flatMap { Self.packet($0) }
        let decoder = CytonDecoder(daisy: false)
        let (_, counters) = Self.decode(bytes, decoder: decoder)
        #expect(counters == (0..<12).map { UInt64($0) })
        #expect(decoder.statistics.garbageRuns == 1)
        #expect(decoder.statistics.discardedBytes == 10_000)
    }

    @Test("sample numbers wrap at 256 without a loss; a jump counts the packets missing")
    func sampleNumbers() {
        let bytes = (250..<262).flatMap { Self.packet($0) } + (270..<272).flatMap { Self.packet($0) }
        let decoder = CytonDecoder(daisy: false)
        let (_, counters) = Self.decode(bytes, decoder: decoder)
        #expect(counters == [250, 251, 252, 253, 254, 255, 0, 1, 2, 3, 4, 5, 14, 15])
        #expect(decoder.statistics.missingPackets == 8)
    }

    @Test("a Daisy's odd (board) and even (Daisy) packets make one 16-channel frame")
    func daisyPairs() {
        // Packets with sample numbers 1…10: pairs (1,2), (3,4), … ; then an even packet without its odd partner.
        var bytes = (1...10).flatMap { Self.packet($0) }
        bytes += Self.packet(14)
        bytes += (15...16).flatMap { Self.packet($0) }
        let decoder = CytonDecoder(daisy: true)
        let (frames, counters) = Self.decode(bytes, decoder: decoder)
        #expect(counters == [0, 1, 2, 3, 4, 7])
        #expect(frames.count == 6 && frames.allSatisfy { $0.count == 16 })
        let scale = CytonGain.x24.microvoltsPerCount
        #expect(
            frames[1]
                == ((0..<8).map { Double(Self.count(3, $0)) } + (0..<8).map { Double(Self.count(4, $0)) }).map {
                    $0 * scale
                })
        #expect(decoder.statistics.unpairedPackets == 1)
        #expect(decoder.counterModulus == 128)
    }

    @Test("a channel's gain scales its counts")
    func gains() {
        let decoder = CytonDecoder(daisy: false)
        decoder.setGain(.x8, channel: 3)
        decoder.setGain(.x1, channel: 8)
        let (frames, _) = Self.decode((0..<2).flatMap { Self.packet($0) }, decoder: decoder)
        #expect(frames[0][2] == Double(Self.count(0, 2)) * CytonGain.x8.microvoltsPerCount)
        #expect(frames[0][7] == Double(Self.count(0, 7)) * CytonGain.x1.microvoltsPerCount)
        #expect(frames[0][0] == Double(Self.count(0, 0)) * CytonGain.x24.microvoltsPerCount)
    }
}
