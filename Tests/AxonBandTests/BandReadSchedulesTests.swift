import AxonBand
import AxonRecording
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// Schedules are read back from the band (the seed's `readSchedule` and `readScheduleInfo`): one written by another
/// phone is known once read, stored for later sessions, and can then be closed.
struct BandReadSchedulesTests {
    static let dentist = BandScheduleStoreTests.dentist
    static let run = BandSchedule(year: 2026, month: 12, day: 1, hour: 18, minute: 0, title: "Run", subtitle: "5 km 跑步")

    @Test func aScheduleAnotherPhoneWroteIsReadBackStoredAndCanBeClosed() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        band.restoreSchedules(BandScheduleBook([Self.dentist, Self.run]))  // another phone's
        let session = BandSession(transport: band, store: fixture.store, configuration: .init(idleTimeout: 10, syncOnConnect: false))
        try await session.connect()
        #expect(await session.schedules.schedules.isEmpty, "not known before it is read")
        let book = try await session.readSchedules()
        #expect(book == BandScheduleBook([Self.dentist, Self.run]))
        #expect(book.schedules["2026-12-01 18:00"]?.subtitle == "5 km 跑步")
        #expect(await session.schedules == book)
        #expect(try fixture.store.schedules() == book, "stored for the next session")
        let info = try await session.readScheduleInfo(on: BandDate(year: 2026, month: 12, day: 1)!)
        #expect(info == BandScheduleInfo(date: BandDate(year: 2026, month: 12, day: 1)!, used: 2, free: 2, held: 2))
        // Known now: the close is sent and accepted.
        try await session.send(.closeSchedule(Self.dentist))
        #expect(band.schedules == BandScheduleBook([Self.run]))
        await session.close()
    }

    @Test func aBandWithoutSchedulesAnswersNone() async throws {
        let band = BandSyncTests.band()
        let session = BandSession(transport: band, store: nil, configuration: .init(idleTimeout: 10, syncOnConnect: false))
        try await session.connect()
        #expect(try await session.readSchedules().schedules.isEmpty)
        let day = BandDate(year: 2026, month: 12, day: 2)!
        #expect(try await session.readScheduleInfo(on: day) == BandScheduleInfo(date: day, used: 0, free: 4, held: 0))
        await session.close()
    }

    @Test func scheduleAnswersRoundTripAndBadOnesAreTypedErrors() throws {
        for entry in BandScheduleEntry.answer(BandScheduleBook([Self.dentist, Self.run]))
            + BandScheduleEntry.answer(BandScheduleBook())
        {
            #expect(try BandNotification(decoding: BandNotification.scheduleEntry(entry).bytes) == .scheduleEntry(entry))
        }
        let info = BandScheduleInfo(date: BandDate(year: 2026, month: 12, day: 1)!, used: 1, free: 3, held: 9)
        #expect(try BandNotification(decoding: BandNotification.scheduleInfo(info).bytes) == .scheduleInfo(info))
        #expect(BandCommand.readSchedules.bytes == [0x08, 0x00, 0x08])
        #expect(BandCommand.readScheduleInfo(info.date).bytes == [0x07, 0x04, 0xEA, 0x07, 0x0C, 0x01, 0x09])
        #expect(try BandCommand(decoding: BandCommand.readScheduleInfo(info.date).bytes) == .readScheduleInfo(info.date))
        // Index not below the count; used and free not adding up to the day's four.
        #expect(throws: BandDecodingError.invalidField(type: 0x13, field: "schedule index", value: 2)) {
            try BandNotification(decoding: BandFrame(type: 0x13, payload: [2, 0, 2, 0]).bytes)
        }
        #expect(throws: BandDecodingError.invalidField(type: 0x12, field: "schedules used", value: 3)) {
            try BandNotification(decoding: BandFrame(type: 0x12, payload: [0xEA, 0x07, 12, 1, 3, 3, 0, 0]).bytes)
        }
    }

    /// `axon band schedules` through BlueZ: the mock band holds a schedule another phone wrote; the command reads it
    /// (text and `--json`) and stores it, so `axon band set schedule --close` then closes it.
    @Test(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"))
    func theCommandReadsAnotherPhonesScheduleThroughBlueZ() async throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let address = "C0:FF:EE:00:00:10"
        let bed = try BlueZTestBed(devices: ["band,\(address),Smartee-0010,today=2026-11-22"])
        defer { bed.stop() }
        _ = try await bed.control(
            "Act",
            [
                .string(address), .string("schedule"),
                .array(elementSignature: "s", [.string("2026-12-01 09:30"), .string("Dentist"), .string("Dr Who")]),
            ])
        let store = bed.directory.appendingPathComponent("band.sqlite").path
        let common = ["ble:\(address)", "--bus", bed.address, "--out", store]
        let text = try await AxonExecutable.runOffPool(axon, ["band", "schedules"] + common)
        #expect(text.status == 0, "\(text.output)")
        #expect(text.output.contains("2026-12-01 09:30  Dentist — Dr Who"), "\(text.output)")
        #expect(text.output.contains("2026-12-01: 1 used, 3 free"), "\(text.output)")
        let json = try await AxonExecutable.runOffPool(axon, ["band", "schedules"] + common + ["--json"])
        #expect(json.status == 0, "\(json.output)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
        let schedules = try #require(object["schedules"] as? [[String: Any]])
        #expect(schedules.count == 1)
        #expect(schedules.first?["slot"] as? String == "2026-12-01 09:30")
        #expect(schedules.first?["title"] as? String == "Dentist")
        #expect(schedules.first?["subtitle"] as? String == "Dr Who")
        let days = try #require(object["days"] as? [[String: Any]])
        #expect(days.first?["used"] as? Int == 1 && days.first?["free"] as? Int == 3)
        let close = try await AxonExecutable.runOffPool(
            axon, ["band", "set", "schedule"] + common + ["--date", "2026-12-01", "--time", "09:30", "--close"])
        #expect(close.status == 0, "\(close.output)")
        #expect(try await bed.stats(address)["schedules"]?.integerValue == 0)
    }
}
