import AxonDevices
import AxonEventStore
import AxonRecording
import AxonResearchBIT
import AxonStreams
import Foundation
import Testing

/// ResearchBIT: the scan filter, pairing by wake-up time, fetches stored once and resumed after a partial transfer,
/// and typed errors (with a fuzz) for malformed notifications.
struct ResearchBITTests {
    final class Fixture: Sendable {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-rb-\(UUID().uuidString).sqlite")
            .path
        let store: ResearchBITStore
        init() throws { store = try ResearchBITStore(store: EventStore(path: path)) }
        deinit { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
    }

    static func event(_ type: SummaryEvent.EventType, _ wakeup: UInt32, _ value: UInt32) -> SummaryEvent {
        SummaryEvent(id: UUID(), type: type, wakeupTime: wakeup, fields: [value])
    }

    @Test func scanKeepsOnlyResearchBITAndNordicDevices() {
        let advertised: [(String, [BluetoothUUID], [UInt16: [UInt8]])] = [
            ("ResearchBIT-0001", [ResearchBITProfile.researchBITService], [0x0059: [91, 1]]),
            ("Nordic-Dongle", [ResearchBITProfile.nordicService, "180f"], [0x0059: [40, 0]]),
            ("ResearchBIT-fake", ["180d"], [0x0059: [50, 1]]),  // the name does not make it one
            ("Heartband", ["180d", "180f"], [:]),
            ("Brainiac-0001", ["0000fe84-0000-1000-8000-00805f9b34fb"], [:]),
            ("ResearchBIT-0002", [ResearchBITProfile.researchBITService], [0x0059: [250, 1]]),  // battery out of range
        ]
        let found = advertised.enumerated().compactMap { index, ad in
            ResearchBITDevice(
                name: ad.0, address: "C0:FF:EE:00:00:0\(index)", serviceUUIDs: ad.1, manufacturerData: ad.2, rssi: -50)
        }
        #expect(found.map(\.name) == ["ResearchBIT-0001", "Nordic-Dongle", "ResearchBIT-0002"])
        #expect(found.map(\.kind) == [.researchBIT, .nordicDongle, .researchBIT])
        #expect(found.map(\.batteryPercentage) == [91, 40, nil])
        #expect(found.map(\.dataIsAvailable) == [true, false, true])
    }

    @Test func triggerPullsAndTimeAwakePairByWakeupTime() {
        let events = [
            Self.event(.triggerPulls, 1000, 12), Self.event(.timeAwake, 2000, 300), Self.event(.timeAwake, 1000, 95),
            Self.event(.triggerPulls, 3000, 4), Self.event(.triggerPulls, 2000, 31), Self.event(.timeAwake, 4000, 10),
        ]
        let (sessions, unpaired) = ResearchBITSession.pair(events)
        #expect(sessions.map(\.wakeupTime) == [1000, 2000])
        #expect(sessions.map(\.pulls) == [12, 31])
        #expect(sessions.map(\.awakeSeconds) == [95, 300])
        #expect(Set(unpaired.map(\.wakeupTime)) == [3000, 4000])
    }

    @Test func aFetchStoresEveryEventOnceAndPairsAllSessions() async throws {
        let fixture = try Fixture()
        let device = SimulatedResearchBIT()
        let client = ResearchBITClient(
            transport: device, store: fixture.store, address: device.configuration.address, idleTimeout: 5)
        let result = try await client.fetch()
        #expect(result.inserted == 24)
        #expect(result.duplicates == 0)
        #expect(result.battery == 91)
        #expect(result.sessions.count == 12)
        #expect(result.unpaired.isEmpty)
        #expect(result.sessions.allSatisfy { $0.triggerPulls.wakeupTime == $0.timeAwake.wakeupTime })
        #expect(device.pendingCount == 0)
        // Nothing left: a second fetch stores nothing.
        let again = try await ResearchBITClient(
            transport: device, store: fixture.store, address: device.configuration.address, idleTimeout: 5
        ).fetch()
        #expect(again.inserted == 0)
        #expect(again.events.isEmpty)
        #expect(again.sessions.count == 12)
    }

    @Test func aFetchCutShortResumesWithoutDuplicates() async throws {
        let fixture = try Fixture()
        let device = SimulatedResearchBIT(configuration: .init(vanishAfterEvents: 9))
        let address = device.configuration.address
        await #expect(throws: ResearchBITError.timedOut(seconds: 1.5)) {
            try await ResearchBITClient(transport: device, store: fixture.store, address: address, idleTimeout: 1.5)
                .fetch()
        }
        let partial = try fixture.store.storedEvents(of: address)
        #expect(partial.count == 9, "the ninth was stored though its acknowledgement never arrived")
        #expect(device.pendingCount == 24 - 8)
        let resumed = try await ResearchBITClient(
            transport: device, store: fixture.store, address: address, idleTimeout: 5
        ).fetch()
        #expect(resumed.inserted == 15)
        // The ninth event, stored but never acknowledged, comes again and is recognised by its identifier.
        #expect(resumed.duplicates == 1)
        #expect(resumed.events.count == 16)
        let all = try fixture.store.storedEvents(of: address)
        #expect(all.count == 24)
        #expect(Set(all.map(\.id)).count == 24)
        #expect(resumed.sessions.count == 12)
    }

    @Test func linkLossesMidFetchResumeToTheSameEvents() async throws {
        let fixture = try Fixture()
        let device = SimulatedResearchBIT(configuration: .init(linkLossAfterEvents: [3, 11, 23]))
        let result = try await ResearchBITClient(transport: device, store: fixture.store, address: "X", idleTimeout: 5)
            .fetch()
        #expect(result.linkLosses == 3)
        #expect(result.inserted == 24)
        #expect(result.sessions.count == 12)
    }

    @Test func aScannedDeviceIsRememberedForAFetchWithoutAScan() throws {
        let fixture = try Fixture()
        let device = ResearchBITDevice(
            name: "ResearchBIT-0001", address: "C0:FF:EE:00:00:20", kind: .researchBIT, batteryPercentage: 91,
            dataIsAvailable: true)
        try fixture.store.remember(device)
        try fixture.store.remember(device)  // a second scan: still one identity
        let reopened = try ResearchBITStore(store: EventStore(path: fixture.path))
        #expect(try reopened.knownDevices().count == 1)
        let known = try #require(try reopened.knownDevice("c0:ff:ee:00:00:20"))
        #expect(known.name == "ResearchBIT-0001")
        #expect(known.kind == .researchBIT)
        #expect(try reopened.knownDevice("ResearchBIT-0001")?.address == "C0:FF:EE:00:00:20")
        #expect(try reopened.knownDevice("nope") == nil)
    }

    @Test(arguments: [
        ([UInt8](), ResearchBITDecodingError.tooShort(length: 0)),
        ([0x51, 0x03, 50, 0, 0], .lengthMismatch(declared: 3, actual: 2)),
        ([0x51, 0x03, 50, 0, 0, 0], .badChecksum(expected: 0x86, found: 0)),
        ([0x52, 0x00, 0x52], .unknownType(0x52)),
        (ResearchBITNotification.status(battery: 101, pending: 0).bytes, .batteryOutOfRange(101)),
        ([0x5F, 0x01, 0x00, 0x60], .badLength(type: 0x5F, length: 1, expected: 4)),
    ])
    func malformedNotificationsAreTypedErrors(_ bytes: [UInt8], _ expected: ResearchBITDecodingError) {
        #expect(throws: expected) { try ResearchBITNotification(decoding: bytes) }
    }

    @Test func eventFramesCheckTypeAndSize() throws {
        let event = Self.event(.timeAwake, 1_763_800_000, 420)
        let good = ResearchBITNotification.event(sequence: 7, event)
        #expect(try ResearchBITNotification(decoding: good.bytes) == good)
        #expect(event.size == 26)
        func repaired(_ edit: (inout [UInt8]) -> Void) -> [UInt8] {
            var b = good.bytes
            edit(&b)
            b[b.count - 1] = UInt8(truncatingIfNeeded: b.dropLast().reduce(0) { $0 &+ Int($1) })
            return b
        }
        #expect(throws: ResearchBITDecodingError.unknownEventType(3)) {
            try ResearchBITNotification(decoding: repaired { $0[2 + 22] = 3 })
        }
        #expect(throws: ResearchBITDecodingError.sizeMismatch(declared: 27, actual: 26)) {
            try ResearchBITNotification(decoding: repaired { $0[2 + 4] = 27 })
        }
    }

    @Test func fuzzedBytesGiveAValueOrATypedError() {
        var random = SplitMix64(seed: 0x5242)
        let valid =
            SimulatedResearchBIT.events(.init()).enumerated().map {
                ResearchBITNotification.event(sequence: UInt32($0.offset), $0.element).bytes
            } + [
                ResearchBITNotification.status(battery: 50, pending: 3).bytes,
                ResearchBITNotification.done(lastSequence: 9).bytes,
            ]
        var decoded = 0
        for i in 0..<30_000 {
            var bytes: [UInt8]
            if i % 2 == 0 {
                bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                bytes = valid[Int(random.next() % UInt64(valid.count))]
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                if random.next() % 2 == 0 {
                    bytes[bytes.count - 1] = UInt8(truncatingIfNeeded: bytes.dropLast().reduce(0) { $0 &+ Int($1) })
                }
            }
            if (try? ResearchBITNotification(decoding: bytes)) != nil { decoded += 1 }
            _ = ResearchBITCommand(decoding: bytes)
        }
        #expect(decoded > 500)
        #expect(decoded < 15_000)
    }

    /// Found by the coverage-guided fuzzer (Fuzz/Corpus/researchbit/regression-status-payload): a status command
    /// with a one-byte payload and a valid checksum decoded as `.status`, so a malformed frame was obeyed and its
    /// re-encoding differed from what arrived.
    @Test("a status command with a payload is not a status command")
    func statusCommandWithPayload() throws {
        var root = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        let input = Array(
            try Data(contentsOf: root.appendingPathComponent("Fuzz/Corpus/researchbit/regression-status-payload")))
        #expect(input == [0x03, 0x01, 0x00, 0x04])
        #expect(ResearchBITCommand(decoding: input) == nil)
        #expect(ResearchBITCommand(decoding: ResearchBITCommand.status.bytes) == .status)
    }
}
