import AxonRecording
import AxonSensors
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

/// OSC 1.0 packets built byte by byte, as the specification lays them out.
enum OSCBytes {
    /// An OSC-string: the bytes, a NUL, padding to 4.
    static func string(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    static func int32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    static func float32(_ value: Float) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init) }

    static func message(_ address: String, tags: String, _ data: [UInt8] = []) -> [UInt8] {
        string(address) + string("," + tags) + data
    }

    static func bundle(_ elements: [[UInt8]], timeTag: UInt64 = 1) -> [UInt8] {
        string("#bundle") + withUnsafeBytes(of: timeTag.bigEndian, Array.init)
            + elements.flatMap { int32(Int32($0.count)) + $0 }
    }
}

/// What a reader hands out, copied out of the views: address, tags, numbers and texts.
struct ReadMessage: Equatable {
    var address: String
    var tags: String
    var values: [String]
    var timeTag: UInt64?
}

/// Every message of `packet`, or the reader's error.
func readAll(_ packet: [UInt8]) throws(OSCDecodingError) -> [ReadMessage] {
    var messages: [ReadMessage] = []
    try readPacket(packet) { message in
        var values: [String] = []
        message.forEachArgument { argument in
            switch argument {
            case .string(let text): values.append("s:" + String(decoding: text, as: UTF8.self))
            case .blob(let blob): values.append("b:" + blob.map { String($0) }.joined(separator: " "))
            case .null: values.append("nil")
            case .impulse: values.append("impulse")
            default: values.append(argument.number.map { "\($0)" } ?? "?")
            }
        }
        messages.append(ReadMessage(
            address: message.addressString, tags: String(decoding: message.typeTags, as: UTF8.self),
            values: values, timeTag: message.timeTag))
    }
    return messages
}

/// ``OSCPacketReader/forEachMessage(in:_:)`` on an array's bytes, its error kept typed.
func readPacket(_ packet: [UInt8], _ body: (OSCMessageView) -> Void) throws(OSCDecodingError) {
    let outcome: Result<Void, OSCDecodingError> = packet.withUnsafeBytes { bytes in
        do throws(OSCDecodingError) {
            try OSCPacketReader.forEachMessage(in: bytes, body)
            return .success(())
        } catch {
            return .failure(error)
        }
    }
    try outcome.get()
}

@Suite struct OSCPacketReaderTests {
    @Test("a message with every argument kind: numbers big-endian, strings and blobs padded to 4")
    func everyArgumentKind() throws {
        let data = OSCBytes.int32(-7) + OSCBytes.float32(1.5) + OSCBytes.string("hello")
            + OSCBytes.int32(3) + [1, 2, 3, 0] + withUnsafeBytes(of: Int64(-9).bigEndian, Array.init)
            + withUnsafeBytes(of: (2.25).bitPattern.bigEndian, Array.init)
        let packet = OSCBytes.message("/a/b", tags: "ifsbhdTFNI", data)
        let read = try readAll(packet)
        #expect(read == [ReadMessage(
            address: "/a/b", tags: "ifsbhdTFNI",
            values: ["-7.0", "1.5", "s:hello", "b:1 2 3", "-9.0", "2.25", "1.0", "0.0", "nil", "impulse"], timeTag: nil)])
    }

    @Test("bundles open in order, nested ones too, each message with its innermost bundle's time tag")
    func nestedBundles() throws {
        let first = OSCBytes.message("/one", tags: "i", OSCBytes.int32(1))
        let second = OSCBytes.message("/two", tags: "f", OSCBytes.float32(2))
        let third = OSCBytes.message("/three", tags: "")
        let packet = OSCBytes.bundle([first, OSCBytes.bundle([second], timeTag: 99), third], timeTag: 7)
        let read = try readAll(packet)
        #expect(read.map(\.address) == ["/one", "/two", "/three"])
        #expect(read.map(\.timeTag) == [7, 99, 7])
        #expect(read[1].values == ["2.0"])
    }

    @Test("malformed packets are typed errors and hand out nothing, even when a first message was fine")
    func malformedPackets() {
        let good = OSCBytes.message("/ok", tags: "i", OSCBytes.int32(1))
        let cases: [(String, [UInt8], OSCDecodingError)] = [
            ("empty", [], .badLength(0)),
            ("not a multiple of 4", Array("/ab".utf8) + [0, 0], .badLength(5)),
            ("no NUL", Array("/abc".utf8), .unterminatedString(offset: 0)),
            ("no slash", OSCBytes.message("abc", tags: "i", OSCBytes.int32(1)), .badAddress(offset: 0)),
            ("no type tags", OSCBytes.string("/abc") + OSCBytes.int32(1), .missingTypeTags(offset: 8)),
            ("unknown tag", OSCBytes.message("/abc", tags: "iq", OSCBytes.int32(1) + OSCBytes.int32(2)),
             .unknownTypeTag(UInt8(ascii: "q"), offset: 10)),
            ("argument missing", OSCBytes.message("/abc", tags: "ii", OSCBytes.int32(1)),
             .truncated(offset: 16, part: "argument 2")),
            ("blob longer than the packet", OSCBytes.message("/b", tags: "b", OSCBytes.int32(40) + [1, 2, 3, 4]),
             .truncated(offset: 8, part: "argument 1")),
            ("element size too big", OSCBytes.string("#bundle") + [UInt8](repeating: 0, count: 8) + OSCBytes.int32(64) + good,
             .badElementSize(64, offset: 16)),
            ("second element bad", OSCBytes.bundle([good]) + OSCBytes.int32(3) + [0, 0, 0, 0],
             .badElementSize(3, offset: 32)),
        ]
        for (name, packet, expected) in cases {
            var handedOut = 0
            do throws(OSCDecodingError) {
                try readPacket(packet) { _ in handedOut += 1 }
                Issue.record("\(name): accepted")
            } catch {
                #expect(error == expected, "\(name): \(error)")
            }
            #expect(handedOut == 0, "\(name)")
        }
        var deep = OSCBytes.message("/deep", tags: "")
        for _ in 0..<(OSCPacketReader.maximumDepth + 1) { deep = OSCBytes.bundle([deep]) }
        #expect(throws: OSCDecodingError.nestedTooDeep(offset: 16 * OSCPacketReader.maximumDepth + 4 * OSCPacketReader.maximumDepth)) {
            _ = try readAll(deep)
        }
    }

    @Test("random bytes never crash the reader: each packet is read or rejected")
    func randomBytes() {
        var state: UInt64 = 0x05C0_FFEE
        var accepted = 0
        for round in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var packet = round % 2 == 0
                ? OSCBytes.message("/muse/eeg", tags: "ffff", (0..<4).flatMap { OSCBytes.float32(Float($0)) })
                : OSCBytes.bundle([OSCBytes.message("/x", tags: "sb", OSCBytes.string("t") + OSCBytes.int32(2) + [9, 9, 0, 0])])
            let flips = Int(state >> 60) + 1
            for flip in 0..<flips {
                let index = Int((state >> UInt64(8 * (flip % 7))) % UInt64(packet.count))
                packet[index] ^= UInt8(truncatingIfNeeded: state >> UInt64(flip % 56))
            }
            if (try? readAll(packet)) != nil { accepted += 1 }
        }
        #expect(accepted > 0 && accepted < 20_000, "\(accepted) of 20000 mutated packets read")
    }
}

/// A real OSC sender (python-osc) streams a Mind Monitor recording's RAW EEG as the app does, to an
/// ``OSCSampleSource`` on loopback.
@Suite(.serialized)
struct OSCSampleSourceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = root.appendingPathComponent(".venv-peers/bin/python").path
    static let sender = root.appendingPathComponent("scripts/osc-sender.py").path
    static let recording = root.appendingPathComponent("datasets/muse-p300/mindMonitor-2017-format-first4s.csv").path
    static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

    @Test(
        "Mind Monitor's /muse/eeg over OSC: every RAW row a frame equal to the CSV's (float32), bundles opened, other addresses ignored, a datagram that is not OSC counted",
        .enabled(if: available))
    func mindMonitorRecordingOverOSC() throws {
        let expected = try MindMonitorCSVReader().read(bytes: Array(FileManager.default.contents(atPath: Self.recording)!),
            sourceName: "mind monitor").eeg!
        let source = try OSCSampleSource(mapping: .mindMonitorEEG, port: 0)
        #expect(source.descriptor.channels.map(\.label) == ["TP9", "AF7", "AF8", "TP10"])
        #expect(source.descriptor.nominalRate == 256)
        let sink = CollectingSink()
        let pipeline = StreamPipeline(source: source, sinks: [sink], configuration: .init(ringCapacity: 16_384))
        try pipeline.start()
        defer { pipeline.stop() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.sender, Self.recording, String(source.port), "--rate", "1024"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let rows = expected.frameCount
        #expect(text.contains("\"rows\": \(rows)"), "\(text)")

        waitUntil(seconds: 10) { sink.snapshot.values.count >= rows }
        let got = sink.snapshot
        #expect(got.values.count == rows)
        var worst = 0.0
        for frame in 0..<min(rows, got.values.count) {
            for channel in 0..<4 {
                let value = expected.value(frame: frame, channel: channel)
                worst = max(worst, abs(got.values[frame][channel] - Double(Float(value))))
            }
        }
        #expect(worst == 0, "each value is the CSV's as float32 (worst difference \(worst) µV)")
        let statistics = source.statistics
        #expect(statistics.frames == rows && statistics.messages == rows)
        #expect(statistics.packets == rows - 1 + 2, "one bundle of two rows, one other address, one non-OSC datagram")
        #expect(statistics.otherMessages == 1 && statistics.rejectedPackets == 1 && statistics.shortMessages == 0)
        #expect(statistics.lastRejection != nil)
    }

    @Test("a port already taken: cannotListen naming the port")
    func portTaken() throws {
        let first = try OSCSampleSource(mapping: .mindMonitorEEG, port: 0)
        do {
            _ = try OSCSampleSource(mapping: .mindMonitorEEG, port: first.port)
            Issue.record("bound a port already bound")
        } catch {
            guard case .cannotListen(let port, let cause) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(port == first.port && cause.call == "bind" && cause.code == EADDRINUSE)
        }
    }
}
