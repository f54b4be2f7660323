import AxonBand
import AxonEventStore
import AxonRecording
import AxonStreams
import Foundation
import Testing

/// The band framing is versioned (`axon-band-2`), and what a store written under `axon-band-1` holds still reads
/// back: today's totals without sport and count, and a supported-sports list of codes only.
struct BandStoreVersionTests {
    static let today = BandDate(year: 2026, month: 11, day: 22)!

    /// The rows exactly as the earlier build wrote them: descriptors labelled `axon-band-1`, today's totals as
    /// `{"steps","calories","distance"}` under `today/<date>/steps=<n>`, the list as one row of codes.
    static func writeEarlierStore(at path: String) throws {
        let events = try EventStore(path: path)
        var handles: [BandRecordKind: StreamHandle] = [:]
        for kind in BandRecordKind.allCases {
            var descriptor = BandRecordStore.descriptor(kind, sourceID: "band-sim")
            descriptor.metadata = ["protocol": "axon-band-1"]
            handles[kind] = try events.register(descriptor)
        }
        struct EarlierTotals: Codable, Sendable { var steps: Int, calories: Int, distance: Int }
        struct EarlierSport: Codable, Sendable { var code: UInt8, name: String }
        struct EarlierList: Codable, Sendable { var sports: [EarlierSport], maximumActive: Int }
        try events.insert(
            handles[.today]!, deviceRecordID: "today/\(today)/steps=6789", deviceTime: 1_763_769_600,
            payload: EarlierTotals(steps: 6_789, calories: 271, distance: 4_752))
        try events.insert(
            handles[.supportedSports]!, deviceRecordID: "sports/1,2,4",
            payload: EarlierList(
                sports: [.init(code: 1, name: "walk"), .init(code: 2, name: "situp"), .init(code: 4, name: "rope skipping")],
                maximumActive: 5))
    }

    @Test func theFramingIsLabelledAxonBand2() {
        #expect(BandFrame.protocolLabel == "axon-band-2")
        for kind in BandRecordKind.allCases {
            #expect(BandRecordStore.descriptor(kind, sourceID: "band-x").metadata["protocol"] == "axon-band-2")
        }
        #expect(BandRecordStore.schedulesDescriptor(sourceID: "band-x").metadata["protocol"] == "axon-band-2")
    }

    @Test func rowsStoredUnderAxonBand1StillDecode() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-band1-\(UUID().uuidString).sqlite")
            .path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try Self.writeEarlierStore(at: path)

        let events = try EventStore(path: path)
        let store = try BandRecordStore(store: events, device: "sim", timeZone: .gmt)
        let read = try store.todayTotals(today: Self.today)
        #expect(read.count == 1)
        let earlier = try #require(read.first)
        #expect(earlier.sport == nil && earlier.count == nil, "unknown, not zero")
        #expect(earlier.steps == 6_789 && earlier.calories == 271 && earlier.distance == 4_752)
        #expect("\(earlier)".contains("sport not recorded (axon-band-1)"))
        #expect(try store.supportedSports() == nil, "a list of codes only is no list of entries")
        // The streams now carry the new label; the old descriptor is in the history, the rows stayed.
        let streams = try events.streams().filter { $0.handle.sourceID == "band-sim" }
        #expect(!streams.isEmpty && streams.allSatisfy { $0.descriptor.metadata["protocol"] == "axon-band-2" })
        #expect(streams.allSatisfy { $0.revision == 2 })

        // A sync under axon-band-2 adds the per-sport totals and the full list beside the old rows.
        let session = BandSession(
            transport: SimulatedBand(configuration: .init(today: Self.today)), store: store,
            configuration: .init(idleTimeout: 10, today: { Self.today }, syncOnConnect: false))
        try await session.connect()
        _ = try await session.sync()
        await session.close()
        let after = try store.todayTotals(today: Self.today)
        #expect(after.filter { $0.sport == nil }.count == 1)
        #expect(after.filter { $0.sport != nil } == SimulatedBand.todayTotals)
        #expect(try store.supportedSports() == SimulatedBand.supportedSports)
    }
}
