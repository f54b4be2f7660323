import AxonSensors
import Foundation
import Testing

/// Decodes `packet` (bytes or a text line), returning each sample's values, counter and device time, or the error.
func decodeAll(
    _ decoder: SensorPacketDecoder, _ packet: [UInt8]
) -> Result<[(values: [Double], counter: UInt64?, time: Double?)], SensorPacketError> {
    var samples: [(values: [Double], counter: UInt64?, time: Double?)] = []
    return packet.withUnsafeBytes { raw in
        Result { () throws(SensorPacketError) in
            try decoder.decode(raw) { values, counter, time in samples.append((Array(values), counter, time)) }
            return samples
        }
    }
}

func description(_ json: String) throws -> SensorDescription { try SensorDescription(json: Data(json.utf8)) }

/// ``SensorPacketDecoder`` on packets built by hand: every width, signedness, byte order and bit field, repeated
/// samples, counters and clocks, and the packets that do not fit.
struct SensorPacketDecoderTests {
    @Test("integers of 8 to 64 bits, both byte orders and signednesses, and floats, read as written")
    func fieldKinds() throws {
        let sensor = try description("""
            {"name": "kinds", "rate": 10, "transport": {"udp": {"port": 0}},
             "layout": {"binary": {"samples": {"stride": 37, "count": 1, "fields": [
                {"name": "u8", "offset": 0, "type": "uint8"}, {"name": "i8", "offset": 1, "type": "int8"},
                {"name": "i16be", "offset": 2, "type": "int16be"}, {"name": "u16le", "offset": 4, "type": "uint16le"},
                {"name": "i24le", "offset": 6, "type": "int24le"}, {"name": "i24be", "offset": 9, "type": "int24be"},
                {"name": "u32be", "offset": 12, "type": "uint32be"}, {"name": "f32le", "offset": 16, "type": "float32le"},
                {"name": "i64le", "offset": 20, "type": "int64le"}, {"name": "f64be", "offset": 28, "type": "float64be"},
                {"name": "u8b", "offset": 36, "type": "uint8"}]}}},
             "channels": [
                {"label": "a", "field": "u8"}, {"label": "b", "field": "i8"}, {"label": "c", "field": "i16be"},
                {"label": "d", "field": "u16le"}, {"label": "e", "field": "i24le"}, {"label": "f", "field": "i24be"},
                {"label": "g", "field": "u32be"}, {"label": "h", "field": "f32le"}, {"label": "i", "field": "i64le"},
                {"label": "j", "field": "f64be", "scale": 2, "offset": 1}]}
            """)
        var packet: [UInt8] = [200, 0xFE, 0xFF, 0x38, 0x34, 0x12, 0x00, 0x00, 0x80, 0x7F, 0xFF, 0xFF]
        packet += [0xDE, 0xAD, 0xBE, 0xEF]
        packet += withUnsafeBytes(of: Float(-1.5).bitPattern.littleEndian, Array.init)
        packet += withUnsafeBytes(of: Int64(-5_000_000_000).littleEndian, Array.init)
        packet += withUnsafeBytes(of: Double(0.25).bitPattern.bigEndian, Array.init)
        packet += [7]
        let samples = try decodeAll(SensorPacketDecoder(sensor), packet).get()
        #expect(samples.count == 1)
        #expect(samples.first?.values == [200, -2, -200, 0x1234, -8_388_608, 8_388_607, 0xDEAD_BEEF, -1.5, -5e9, 1.5])
    }

    @Test("bit fields: a Muse EEG packet's 12 samples of 12 bits, big-endian packed after a 16-bit index")
    func museStyleBitFields() throws {
        // The Muse layout: the index, then sample k at bit 12k of the rest; µV = (raw − 2048) × 0.48828125.
        let fields = (0..<12).map { k in
            "{\"name\": \"s\(k)\", \"offset\": \(2 + 12 * k / 8), \"bit\": \(12 * k % 8), \"bits\": 12, \"endian\": \"big\"}"
        }.joined(separator: ", ")
        let sensor = try description("""
            {"name": "muse-like", "rate": 256, "transport": {"udp": {"port": 0}},
             "layout": {"binary": {"fields": [{"name": "index", "offset": 0, "type": "uint16be"}],
                                    "samples": {"offset": 0, "stride": 20, "count": 1, "fields": [\(fields)]}}},
             "counter": {"field": "index"},
             "channels": [{"label": "first", "field": "s0", "scale": 0.48828125, "offset": -1000},
                          {"label": "last", "field": "s11", "scale": 0.48828125, "offset": -1000}]}
            """)
        // Built differently: the 12 raw values packed by hand, most significant bit first.
        let raws: [UInt16] = [0, 4095, 2048, 1, 1234, 3000, 17, 4000, 2047, 100, 2500, 3333]
        var bits: [UInt8] = []
        for raw in raws { for bit in (0..<12).reversed() { bits.append(UInt8((raw >> bit) & 1)) } }
        var packet: [UInt8] = [0x01, 0x02]
        for byte in 0..<18 { packet.append(bits[(8 * byte)..<(8 * byte + 8)].reduce(0) { $0 << 1 | $1 }) }
        let every = try description("""
            {"name": "muse-all", "rate": 256, "transport": {"udp": {"port": 0}},
             "layout": {"binary": {"samples": {"offset": 0, "stride": 20, "count": 1, "fields": [\(fields)]}}},
             "channels": [\((0..<12).map { "{\"label\": \"c\($0)\", \"field\": \"s\($0)\"}" }.joined(separator: ", "))]}
            """)
        let samples = try decodeAll(SensorPacketDecoder(every), packet).get()
        #expect(samples.first?.values == raws.map(Double.init))
        let scaled = try decodeAll(SensorPacketDecoder(sensor), packet).get()
        #expect(scaled.first?.counter == 0x0102)
        #expect(scaled.first?.values == [-1000, 3333 * 0.48828125 - 1000])
    }

    @Test("a packet counter: each sample's counter is packet × count + place, wrapping at 2^bits × count")
    func packetCounter() throws {
        let sensor = try description("""
            {"name": "counted", "rate": 250, "transport": {"udp": {"port": 0}},
             "layout": {"binary": {"fields": [{"name": "seq", "offset": 0, "type": "uint8"}],
                "samples": {"offset": 1, "stride": 2, "count": 3, "fields": [{"name": "v", "offset": 0, "type": "int16le"}]}}},
             "counter": {"field": "seq"},
             "channels": [{"label": "V", "field": "v", "unit": "µV", "scale": 0.5}]}
            """)
        let decoder = SensorPacketDecoder(sensor)
        #expect(decoder.sampleCounterModulus == 768)
        let samples = try decodeAll(decoder, [255, 2, 0, 0xFE, 0xFF, 0x10, 0x00]).get()
        #expect(samples.map(\.counter) == [765, 766, 767])
        #expect(samples.map(\.values) == [[1], [-1], [8]])
        #expect(decoder.statistics.packets == 1 && decoder.statistics.samples == 3)
    }

    @Test("packets that do not fit are typed rejections, counted, and decoding goes on")
    func rejections() throws {
        let sensor = try description("""
            {"name": "fill", "rate": 130, "transport": {"udp": {"port": 0}},
             "layout": {"binary": {"fields": [{"name": "type", "offset": 0, "type": "uint8", "equals": 0},
                                              {"name": "t", "offset": 1, "type": "uint32le"}],
                "samples": {"offset": 5, "stride": 3, "count": "fill", "fields": [{"name": "v", "offset": 0, "type": "int24le"}]}}},
             "time": {"field": "t", "unit": "ms", "sample": "last"},
             "channels": [{"label": "V", "field": "v"}]}
            """)
        let decoder = SensorPacketDecoder(sensor)
        #expect(throws: SensorPacketError.tooShort(length: 4, minimum: 8)) { try decodeAll(decoder, [0, 1, 2, 3]).get() }
        #expect(throws: SensorPacketError.partialSample(length: 9, stride: 3)) {
            try decodeAll(decoder, [0, 0, 0, 0, 0, 1, 2, 3, 4]).get()
        }
        #expect(throws: SensorPacketError.otherPacket(field: "type", value: 2)) {
            try decodeAll(decoder, [2, 0, 0, 0, 0, 1, 2, 3]).get()
        }
        // 2 samples, the last at 1300 ms: the first 1/130 s before it.
        let samples = try decodeAll(decoder, [0, 0x14, 0x05, 0, 0, 1, 0, 0, 0xFF, 0xFF, 0xFF]).get()
        #expect(samples.map(\.values) == [[1], [-1]])
        #expect(abs(samples[0].time! - (1.3 - 1.0 / 130)) < 1e-12 && samples[1].time == 1.3)
        #expect(decoder.statistics.rejected == 3 && decoder.statistics.packets == 1)
        #expect(decoder.statistics.lastRejection == .otherPacket(field: "type", value: 2))
    }

    @Test("text lines: delimited columns (skipped and spaced ones too), a header skipped, bad numbers rejected")
    func delimitedText() throws {
        let sensor = try description("""
            {"name": "csv", "rate": 500, "transport": {"udp": {"port": 0}},
             "layout": {"text": {"delimiter": ";", "columns": ["n", "", "x"], "skipLines": 1}},
             "counter": {"field": "n", "modulus": 100},
             "channels": [{"label": "X", "field": "x", "unit": "mV", "scale": 2, "offset": -1}]}
            """)
        let decoder = SensorPacketDecoder(sensor)
        #expect(try decodeAll(decoder, Array("n;junk;x".utf8)).get().isEmpty)
        let sample = try decodeAll(decoder, Array("99; ignored ; 2.5e1 ;extra".utf8)).get()
        #expect(sample.map(\.values) == [[49]] && sample.map(\.counter) == [99])
        #expect(throws: SensorPacketError.notANumber(field: "x")) { try decodeAll(decoder, Array("1;a;nan".utf8)).get() }
        #expect(throws: SensorPacketError.notANumber(field: "x")) { try decodeAll(decoder, Array("1;a;".utf8)).get() }
        #expect(throws: SensorPacketError.missingColumns(expected: 3, found: 2)) {
            try decodeAll(decoder, Array("1;a".utf8)).get()
        }
        #expect(throws: SensorPacketError.badCounter(-1)) { try decodeAll(decoder, Array("-1;a;2".utf8)).get() }
        // A counter at or past its modulus cannot be the device's (the fuzzer's regression-counter-beyond-modulus).
        #expect(throws: SensorPacketError.badCounter(100)) { try decodeAll(decoder, Array("100;a;2".utf8)).get() }
        #expect(decoder.statistics.skippedLines == 1 && decoder.statistics.rejected == 5)
    }

    @Test("text lines by a regular expression's named groups")
    func patternText() throws {
        let sensor = try description(#"""
            {"name": "re", "rate": "irregular", "transport": {"udp": {"port": 0}},
             "layout": {"text": {"pattern": "T=(?<temp>-?[0-9.]+)C H=(?<hum>[0-9.]+)%"}},
             "channels": [{"label": "Temperature", "field": "temp", "unit": "°C"},
                          {"label": "Humidity", "field": "hum", "unit": "%"}]}
            """#)
        #expect(sensor.nominalRate == 0)
        let decoder = SensorPacketDecoder(sensor)
        #expect(try decodeAll(decoder, Array("T=-3.5C H=41%".utf8)).get().map(\.values) == [[-3.5, 41]])
        #expect(throws: SensorPacketError.noMatch) { try decodeAll(decoder, Array("T=3C".utf8)).get() }
    }

    @Test("20,000 random packets through a binary and a text layout: rejections, never a crash")
    func randomPackets() throws {
        let binary = SensorPacketDecoder(try description("""
            {"name": "b", "rate": 10, "transport": {"udp": {"port": 0}},
             "layout": {"binary": {"fields": [{"name": "c", "offset": 0, "bits": 7, "bit": 1, "endian": "big"}],
                "samples": {"offset": 1, "stride": 5, "fields": [{"name": "v", "offset": 1, "bit": 3, "bits": 29, "signed": true, "endian": "little"}]}}},
             "counter": {"field": "c", "counts": "samples"},
             "channels": [{"label": "V", "field": "v"}]}
            """))
        let text = SensorPacketDecoder(try description("""
            {"name": "t", "rate": 10, "transport": {"udp": {"port": 0}},
             "layout": {"text": {"columns": ["a", "b"]}}, "channels": [{"label": "A", "field": "a"}]}
            """))
        var generator = SystemRandomNumberGenerator()
        var decoded = 0
        for _ in 0..<10_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let packet = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if case .success = decodeAll(binary, packet) { decoded += 1 }
            let line = (0..<length).map { _ in Array("0123456789,.-e x".utf8).randomElement(using: &generator)! }
            if case .success = decodeAll(text, line) { decoded += 1 }
        }
        #expect(binary.statistics.packets + binary.statistics.rejected == 10_000)
        #expect(text.statistics.packets + text.statistics.rejected == 10_000)
        #expect(decoded > 0)
    }
}
