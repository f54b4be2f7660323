import AxonBrainiac
import AxonStreams
import Testing

@Suite("BrainiacCodec")
struct BrainiacCodecTests {
    let encoder = BrainiacEncoder()

    @Test func crc8MatchesTheCatalogueCheckValue() {
        #expect(BrainiacPacketLayout.crc8(Array("123456789".utf8)) == 0xF4)
        #expect(BrainiacPacketLayout.crc8([]) == 0)
    }

    /// The worked examples of docs/brainiac-packet.md, byte for byte.
    @Test func documentedExamplesAreExact() throws {
        let time: UInt64 = 1_700_000_010_000
        let battery = try encoder.encodeBattery(header(order: 0x0102, counter: 2500, time: time), level: 87)
        #expect(battery == hexBytes("01 02 02 01 C4 09 00 00 10 8F E5 CF 8B 01 00 00 57 E4"))
        let eeg = try encoder.encodeEEG(header(order: 0x0103, counter: 2500, time: time), values: [10, -20.5, 3.25, 0])
        #expect(eeg == hexBytes(
            "01 01 03 01 C4 09 00 00 10 8F E5 CF 8B 01 00 00 01 C8 00 00 66 FE FF 41 00 00 00 00 00 D3"))
    }

    /// Every field survives encode → decode, for every sample count, including wrapping counters.
    @Test(arguments: 1...10)
    func eegRoundTripOfEveryField(samples: Int) throws {
        let first = UInt32.max - 3  // the counter wraps inside larger packets
        var packets: [BrainiacPacket] = []
        for i in 0..<samples {
            let time: UInt64 = deviceEpoch + 4 * UInt64(i)
            let ch1 = Double(21 * i) / 20
            let ch2 = -Double(407 * i + 1) / 20
            let ch3 = Double(8_388_607 - 20 * i) / 20
            let ch4 = Double(-8_388_608 + 10 * i) / 20
            packets.append(BrainiacPacket(
                hardwareOrderNumber: 0xBEEF, timeMilliseconds: time, counter: first &+ UInt32(i),
                ch1: ch1, ch2: ch2, ch3: ch3, ch4: ch4))
        }
        let bytes = try encoder.encode(packets)
        #expect(bytes.count == 18 + 12 * samples)
        #expect(bytes.count == BrainiacPacketLayout.eegSize(sampleCount: samples))
        #expect(try BrainiacDecoder.packets(in: bytes) == packets)

        let collector = FrameCollector()
        let decoder = BrainiacDecoder()
        let result = try decoder.decode(bytes, arrivalTime: 42.5, into: collector.writer)
        #expect(result == .eeg(header(order: 0xBEEF, counter: first, time: deviceEpoch), sampleCount: samples))
        let frames = collector.drain()
        #expect(frames.count == samples)
        for (i, frame) in frames.enumerated() {
            #expect(frame.arrival == 42.5)
            #expect(frame.counter == UInt64(first &+ UInt32(i)))
            #expect(frame.deviceTime == Double(deviceEpoch + 4 * UInt64(i)) / 1000)
            #expect(frame.values == packets[i].values)
        }
        #expect(decoder.statistics.eegNotifications == 1)
        #expect(decoder.statistics.samples == samples)
        #expect(decoder.statistics.rejectedNotifications == 0)
    }

    /// Arbitrary values come back within half a count (0.025 µV); out-of-range values saturate at ±2²³ counts.
    @Test func quantizationAndSaturation() throws {
        var random = SystemRandomNumberGenerator()
        var worst = 0.0
        for _ in 0..<200 {
            let values = (0..<40).map { _ in Double.random(in: -1000...1000, using: &random) }
            let decoded = try BrainiacDecoder.packets(in: encoder.encodeEEG(header(), values: values))
            for (i, packet) in decoded.enumerated() {
                for (c, value) in packet.values.enumerated() { worst = max(worst, abs(value - values[i * 4 + c])) }
            }
        }
        #expect(worst <= 0.025 + 1e-9)
        let saturated = try BrainiacDecoder.packets(in: encoder.encodeEEG(header(), values: [1e9, -1e9, 500_000, 0]))
        #expect(saturated[0].values == [419_430.35, -419_430.4, 419_430.35, 0])
    }

    @Test(arguments: [0, 37, 100])
    func batteryRoundTrip(level: Int) throws {
        let bytes = try encoder.encodeBattery(header(order: 9, counter: 123_456, time: deviceEpoch + 7), level: level)
        #expect(bytes.count == 18)
        let collector = FrameCollector()
        let decoder = BrainiacDecoder()
        let result = try decoder.decode(bytes, arrivalTime: 1, into: collector.writer)
        #expect(result == .battery(header(order: 9, counter: 123_456, time: deviceEpoch + 7), level: level))
        #expect(decoder.batteryLevel == level)
        #expect(decoder.statistics.batteryNotifications == 1)
        #expect(collector.drain().isEmpty)  // never on the ring
        #expect(try BrainiacDecoder.packets(in: bytes).isEmpty)
    }

    @Test(arguments: BrainiacStatus.allCases)
    func statusRoundTrip(status: BrainiacStatus) throws {
        let bytes = encoder.encodeStatus(header(order: 65_535, counter: 1, time: 0), status: status)
        #expect(bytes.count == 18)
        #expect(bytes[16] == status.rawValue)
        let collector = FrameCollector()
        let decoder = BrainiacDecoder()
        #expect(try decoder.decode(bytes, arrivalTime: 1, into: collector.writer)
                == .status(header(order: 65_535, counter: 1, time: 0), status))
        #expect(decoder.status == status)
        #expect(decoder.statistics.statusNotifications == 1)
        #expect(collector.drain().isEmpty)
    }

    @Test func encoderRejectsWhatTheLayoutCannotSay() throws {
        #expect(throws: BrainiacEncoderError.batteryOutOfRange(101)) {
            try encoder.encodeBattery(header(), level: 101)
        }
        #expect(throws: BrainiacEncoderError.batteryOutOfRange(-1)) { try encoder.encodeBattery(header(), level: -1) }
        #expect(throws: BrainiacEncoderError.invalidValueCount(0)) { try encoder.encodeEEG(header(), values: []) }
        #expect(throws: BrainiacEncoderError.invalidValueCount(6)) {
            try encoder.encodeEEG(header(), values: [1, 2, 3, 4, 5, 6])
        }
        #expect(throws: BrainiacEncoderError.invalidValueCount(44)) {
            try encoder.encodeEEG(header(), values: exactValues(samples: 11))
        }
        #expect(throws: BrainiacEncoderError.nonFiniteValue(index: 6)) {
            try encoder.encodeEEG(header(), values: [0, 0, 0, 0, 0, 0, .nan, 0])
        }
        var small = [UInt8](repeating: 0, count: 29)
        small.withUnsafeMutableBytes { buffer in
            let values: [Double] = [1, 2, 3, 4]
            #expect(throws: BrainiacEncoderError.bufferTooSmall(required: 30, available: 29)) {
                try values.withUnsafeBufferPointer { try encoder.encodeEEG(header(), values: $0, into: buffer) }
            }
        }
        let packets = try BrainiacDecoder.packets(in: encoder.encodeEEG(header(), values: exactValues(samples: 3)))
        var broken = packets
        broken[2].timeMilliseconds += 1
        #expect(throws: BrainiacEncoderError.nonConsecutivePackets(index: 2)) { try encoder.encode(broken) }
        broken = packets
        broken[1].counter += 2
        #expect(throws: BrainiacEncoderError.nonConsecutivePackets(index: 1)) { try encoder.encode(broken) }
        #expect(BrainiacEncoderError.batteryOutOfRange(101).description.contains("101"))
    }

    @Test func descriptorIsTheHeadsets() {
        let descriptor = BrainiacHeadset.descriptor(sourceID: "brainiac-00:11:22:33:44:55")
        #expect(descriptor.name == "Brainiac")
        #expect(descriptor.contentType == .eeg)
        #expect(descriptor.channels.map(\.label) == ["T3", "O1", "T4", "O2"])
        #expect(descriptor.channels.allSatisfy { $0.unit == "µV" && $0.range == -419_430.4...419_430.35 })
        #expect(descriptor.nominalRate == 250)
        #expect(descriptor.format == .int24)
        #expect(descriptor.sourceID == "brainiac-00:11:22:33:44:55")
        #expect(descriptor.metadata["packetLayout"] == "1")
        #expect(BrainiacHeadset.timelineConfiguration.counterModulus == 1 << 32)
    }
}
