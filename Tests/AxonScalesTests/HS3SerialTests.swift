import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import AxonStreams
import Foundation
import Testing

@testable import AxonScales

#if canImport(Glibc)
    import Glibc
#endif

/// The iHealth HS3's serial-port stream (Bluetooth Classic SPP) built from the published packet facts: weight
/// packets `A0 09 A6 28` + five bytes + two BCD bytes in 0.1 kg, time packets `A0 09 A6 33`, a weight repeated
/// within 60 s taken once.
struct HS3SerialTests {
    static let weight815 = HS3SerialPacket.weightPacket(tenthsOfKg: 815, unknown: [0x11, 0x22, 0x33, 0x44, 0x55])
    static let weight723 = HS3SerialPacket.weightPacket(tenthsOfKg: 723)
    static let garbage: [UInt8] = [0x00, 0xFF, 0xA0, 0x09, 0x13, 0xA0, 0x42]  // 7 bytes, two false leader starts
    static let time: [UInt8] = [0xA0, 0x09, 0xA6, 0x33]

    /// An HS3 serial-port session over `transport`, connected and validated, and a task that ends with the first
    /// `weights` weights it stores as new.
    static func validatedSession(
        _ transport: ByteStreamTransport, device: String, records: ScaleRecordStore, weights: Int
    ) async throws -> (ScaleSession, Task<[Double], Never>) {
        let session = ScaleSession(
            transport: transport, model: .hs3, wire: .hs3SerialPort, device: device, recordStore: records)
        try await session.connect()
        try await session.validate(ScaleUserCredentials(userID: "ana@example.org"))
        let stored = Task {
            var kilograms: [Double] = []
            for await event in session.events {
                if case .stored(let record, .inserted) = event { kilograms.append(record.weightKg) }
                if kilograms.count == weights { break }
            }
            return kilograms
        }
        return (session, stored)
    }

    @Test func packetFactsByteForByte() {
        #expect(Self.weight815 == [0xA0, 0x09, 0xA6, 0x28, 0x11, 0x22, 0x33, 0x44, 0x55, 0x08, 0x15])
        #expect(HS3SerialPacket.tenths(bcd: 0x08, 0x15) == 815)
        #expect(HS3SerialPacket.tenths(bcd: 0x12, 0x34) == 1234)
        #expect(HS3SerialPacket.tenths(bcd: 0x0A, 0x15) == nil)
    }

    /// Every split point of a stream of garbage, a weight, a time packet and another weight gives the same packets
    /// and counts.
    @Test func resynchronisesAfterGarbageAndAcrossEverySplit() {
        let stream = Self.garbage + Self.weight815 + Self.time + Self.weight723 + [0xA0, 0x09]
        for split in 0...stream.count {
            var decoder = HS3SerialDecoder()
            var packets: [HS3SerialPacket] = []
            decoder.feed(Array(stream[..<split])) { packets.append($0) }
            decoder.feed(Array(stream[split...])) { packets.append($0) }
            #expect(packets.compactMap(\.kilograms) == [81.5, 72.3], "split at \(split)")
            #expect(packets.filter { $0 == .time }.count == 1)
            #expect(decoder.statistics.weightPackets == 2 && decoder.statistics.timePackets == 1)
            #expect(decoder.statistics.skippedBytes == 7, "only the garbage is skipped; A0 09 waits for more")
            #expect(decoder.statistics.bytes == stream.count)
        }
    }

    /// A weight packet whose weight is not BCD is a false start: a real packet that began inside it is found.
    @Test func falseStartInsideAPacketIsSkippedOneByte() {
        // A0 09 A6 28, then the real packet begins after seven bytes; the false packet's "weight" is the real one's
        // third and fourth bytes, A6 28 (not BCD).
        let stream: [UInt8] = [0xA0, 0x09, 0xA6, 0x28, 0x01, 0x02, 0x03] + Self.weight723
        var decoder = HS3SerialDecoder()
        var weights: [Double] = []
        decoder.feed(stream) { if let kg = $0.kilograms { weights.append(kg) } }
        #expect(weights == [72.3])
        #expect(decoder.statistics.invalidWeights == 1)
        #expect(decoder.statistics.skippedBytes == 7)
    }

    @Test func unknownKindIsCountedAndSkipped() {
        var decoder = HS3SerialDecoder()
        var weights: [Double] = []
        decoder.feed([0xA0, 0x09, 0xA6, 0x7E] + Self.weight815) { if let kg = $0.kilograms { weights.append(kg) } }
        #expect(weights == [81.5])
        #expect(decoder.statistics.unknownPackets == 1 && decoder.statistics.skippedBytes == 4)
    }

    @Test func repeatWithinSixtySecondsIsTakenOnce() {
        var rule = HS3RepeatRule()
        let taken = [(815, 1000.0), (815, 1030), (815, 1059.9), (815, 1060), (723, 1061), (815, 1062)].map {
            rule.take(tenthsOfKg: $0.0, at: $0.1)
        }
        // The window runs from the weight taken, not from its repeats; a different weight in between makes it new.
        #expect(taken == [true, false, false, true, true, true])
        var seeded = HS3RepeatRule(last: (815, 1000))
        let afterRestart = seeded.take(tenthsOfKg: 815, at: 1010)
        #expect(!afterRestart)
    }

    /// Acceptance: a byte stream with a split packet, garbage between packets and a repeated weight, written into a
    /// socket pair, yields exactly 81.5 kg and 72.3 kg, each in the event store once; a restart of the session on
    /// the same store does not store a weight the scale is still repeating.
    @Test func socketPairStreamIntoTheEventStoreOnce() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-hs3spp-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let records = try ScaleRecordStore(store: try EventStore(path: path), device: "HS3-SPP", model: .hs3)

        let (device, host) = try socketPair()
        defer { _ = Glibc.close(device) }
        let (session, stored) = try await Self.validatedSession(
            ByteStreamTransport.descriptor(host, name: "socketpair"), device: "HS3-SPP", records: records, weights: 2)
        let chunks: [[UInt8]] = [
            Self.garbage + Array(Self.weight815[..<6]), Array(Self.weight815[6...]) + Self.garbage + Self.time,
            Self.weight815 + [0x5A, 0x5A], Self.weight723,
        ]
        for chunk in chunks { try write(device, chunk) }
        #expect(await stored.value == [81.5, 72.3])
        let first = try await session.measure(unit: .kg, seconds: 5)
        #expect(first.stableWeightKg == 81.5 && first.displayed.description == "81.5 kg")
        #expect(try records.records().map(\.weightKg) == [81.5, 72.3])
        let counts = session.hs3SerialStatistics
        #expect(counts.weightPackets == 3 && counts.newWeights == 2 && counts.repeatedWeights == 1)
        #expect(counts.timePackets == 1 && counts.skippedBytes == 2 * Self.garbage.count + 2)
        let memory = await scaleError { _ = try await session.transferMemory(into: records) }
        #expect(memory == .unsupported(model: .hs3, operation: "transfer memory over its serial port (it takes no commands)"))
        await session.close()

        // The command restarts; the scale still repeats 72.3 kg: not stored again. A new weight is.
        let (device2, host2) = try socketPair()
        defer { _ = Glibc.close(device2) }
        let again = ScaleSession(
            transport: ByteStreamTransport.descriptor(host2, name: "socketpair"), model: .hs3, wire: .hs3SerialPort,
            device: "HS3-SPP", recordStore: records)
        try await again.connect()
        try await again.validate(ScaleUserCredentials(userID: "ana@example.org"))
        try write(device2, Self.weight723 + HS3SerialPacket.weightPacket(tenthsOfKg: 700))
        let next = try await again.measure(unit: .kg, seconds: 5)
        #expect(next.stableWeightKg == 70.0)
        #expect(again.hs3SerialStatistics.repeatedWeights == 1)
        #expect(try records.records().map(\.weightKg) == [81.5, 72.3, 70.0])
        await again.close()
    }

    /// The device end hanging up is a link loss; a handed-over descriptor cannot be reopened, so nothing follows
    /// until the owner closes.
    @Test func peerHangUpIsALinkLoss() async throws {
        let (device, host) = try socketPair()
        let transport = ByteStreamTransport.descriptor(host, name: "socketpair")
        let session = ScaleSession(transport: transport, model: .hs3, wire: .hs3SerialPort)
        try await session.connect()
        _ = Glibc.close(device)
        var lost: String?
        for await event in session.events {
            if case .link(.linkLost(let reason)) = event {
                lost = reason
                break
            }
        }
        #expect(lost == "socketpair closed the stream")
        await session.close()
    }

    /// No radio here: the RFCOMM socket's address is encoded as the kernel's `sockaddr_rc`, and connecting either
    /// fails with the kernel's reason (EAFNOSUPPORT where there are no Bluetooth sockets, as on this machine) or,
    /// with a Bluetooth stack, fails to reach an address nobody has.
    @Test func rfcommSocketAddressAndConnectFailure() async throws {
        let address = try BluetoothAddress("00:1A:7D:DA:71:13")
        #expect(address.description == "00:1A:7D:DA:71:13")
        #expect(RFCOMMSocket.socketAddress(address, channel: 1) == [31, 0, 0x13, 0x71, 0xDA, 0x7D, 0x1A, 0x00, 1, 0])
        #expect(throws: BluetoothAddressError.self) { try BluetoothAddress("00:1A:7D:DA:71") }
        #expect(throws: BluetoothAddressError.self) { try BluetoothAddress("00:1A:7D:DA:71:GG") }
        let outcome = Result { () throws(ByteLinkError) -> Int32 in
            try RFCOMMSocket.connect(address: address, channel: 1, deadline: HostClock.now() + 3)
        }
        switch outcome {
        case .success(let fd):
            _ = Glibc.close(fd)
            Issue.record("connected to an address nobody has")
        case .failure(.cannotOpen(let endpoint, let code, _)):
            #expect(endpoint == "spp:00:1A:7D:DA:71:13@1")
            #expect(code != 0)
        case .failure(.timeout): break  // a Bluetooth stack that pages for the whole deadline
        case .failure(let other): Issue.record("unexpected \(other)")
        }
        let transport = RFCOMMSocket.transport(address: address, channel: 1, connectTimeout: 3)
        let session = ScaleSession(transport: transport, model: .hs3, wire: .hs3SerialPort)
        let failure = await scaleError { try await session.connect() }
        guard case .transport(.connectFailed(let reason))? = failure else {
            Issue.record("expected a connect failure, got \(String(describing: failure))")
            return
        }
        #expect(reason.contains("spp:00:1A:7D:DA:71:13@1"))
        await session.close()
    }
}

/// A connected Unix stream socket pair: (device end, host end).
private func socketPair() throws -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    return (ends[0], ends[1])
}

/// Writes all of `bytes` to a blocking descriptor.
private func write(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
        guard written > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        offset += written
    }
}
