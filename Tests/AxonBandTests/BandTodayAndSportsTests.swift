import AxonBand
import AxonEventStore
import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// Today's totals keep the seed's `sport_type` and `count`, and the supported-sports list keeps the band's own
/// names and units (`NAME`, `UNIT`): from the bytes of docs/band-protocol.md through the decoder, the sync and the
/// event store to what `axon band sync` prints.
struct BandTodayAndSportsTests {
    /// Frames built by hand from the documented layout, not by the encoder under test.
    @Test func theDocumentedFramesDecodeWithSportCountNameAndUnit() throws {
        // 0x20: seq 9, sport 0x02 (situp), steps 0, 35 kcal, 0 m, count 57, five ignored date bytes.
        let today: [UInt8] = [9, 0, 0, 0, 0x02, 0, 0, 0, 0, 35, 0, 0, 0, 0, 0, 0, 0, 57, 0, 0xEA, 0x07, 11, 22, 6]
        #expect(
            try BandNotification(decoding: BandFrame(type: 0x20, payload: today).bytes)
                == .record(
                    BandRecord(
                        sequence: 9,
                        content: .today(
                            BandTodayTotals(
                                sport: BandSport(code: 0x02)!, steps: 0, calories: 35, distance: 0, count: 57)))))
        // 0x25: seq 10, at most 5 active, entry 1 of 24, sport 0x02, name "仰卧起坐", unit "个".
        let name = Array("仰卧起坐".utf8), unit = Array("个".utf8)
        let entry: [UInt8] =
            [10, 0, 0, 0, 5, 1, 24, 0x02, UInt8(name.count)] + name + [UInt8(unit.count)] + unit
        #expect(
            try BandNotification(decoding: BandFrame(type: 0x25, payload: entry).bytes)
                == .record(
                    BandRecord(
                        sequence: 10,
                        content: .supportedSport(
                            BandSupportedSport(
                                entry: .init(sport: BandSport(code: 0x02)!, name: "仰卧起坐", unit: "个"), index: 1,
                                total: 24, maximumActive: 5)))))
    }

    @Test func aSyncKeepsThemInTheReportTheSessionAndTheStore() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = SimulatedBand(configuration: .init(today: BandSyncTests.today))
        let session = fixture.session(band)
        try await session.connect()
        let report = try await session.sync()
        await session.close()

        let skipping = BandTodayTotals(sport: BandSport(code: 0x04)!, steps: 0, calories: 96, distance: 0, count: 1_240)
        #expect(report.todayTotals.contains(skipping))
        #expect(report.todayTotals == SimulatedBand.todayTotals)
        #expect(try fixture.store.todayTotals(today: BandSyncTests.today) == SimulatedBand.todayTotals)

        let list = try #require(report.supportedSports)
        #expect(list == SimulatedBand.supportedSports)
        #expect(list.entries.count == 24 && list.maximumActive == 5)
        #expect(list.entries[3] == .init(sport: BandSport(code: 0x04)!, name: "跳绳", unit: "次"))
        #expect(await session.supportedSports == list)
        // Reopened, the store gives the same list back, names and units included.
        let reopened = try BandRecordStore(store: EventStore(path: fixture.path), device: "sim", timeZone: .gmt)
        #expect(try reopened.supportedSports() == list)
    }

    @Test func aListWithAnEntryMissingIsNotAList() {
        let records = SimulatedBand.supportedSports.records
        #expect(BandSupportedSports(assembling: records.reversed()) == SimulatedBand.supportedSports)
        #expect(BandSupportedSports(assembling: Array(records.dropLast())) == nil)
        #expect(BandSupportedSports(assembling: records + [records[0]]) == SimulatedBand.supportedSports)
        var other = records[5]
        other.maximumActive = 4
        #expect(BandSupportedSports(assembling: records + [other]) == nil)
    }

    @Test func axonBandSyncPrintsThem() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "axon-band-cli-\(UUID().uuidString).sqlite"
        ).path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let run = try await AxonExecutable.runOffPool(axon, ["band", "sync", "sim:band", "--out", path])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("today: rope skipping: 0 steps, 96 kcal, 0 m, count 1240"), "\(run.output)")
        #expect(run.output.contains("today: walk: 6789 steps, 271 kcal, 4752 m, count 0"))
        #expect(run.output.contains("supported sports: walk (走路, 步), situp (仰卧起坐, 个)"))
        #expect(run.output.contains("; at most 5 active"))
    }
}
