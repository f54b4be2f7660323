import AxonBand
import AxonRecording
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// The band's schedules live in the event store, so a schedule written by one session (or one run of
/// `axon band set schedule`) can be closed by the next: the seed's rules are checked against what the band holds.
struct BandScheduleStoreTests {
    static let dentist = BandSchedule(year: 2026, month: 12, day: 1, hour: 9, minute: 30, title: "Dentist", subtitle: "")

    @Test func aScheduleWrittenByOneSessionIsClosedByTheNext() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        let first = BandSession(transport: band, store: fixture.store, configuration: .init(idleTimeout: 10, syncOnConnect: false))
        try await first.connect()
        try await first.send(.writeSchedule(Self.dentist))
        await first.close()
        #expect(try fixture.store.schedules().contains(slot: "2026-12-01 09:30"))

        // Without the store a new session knows nothing of it: the close is refused before it is sent.
        let forgetful = BandSession(transport: band, store: nil, configuration: .init(idleTimeout: 10, syncOnConnect: false))
        try await forgetful.connect()
        var refusal: BandError?
        do { try await forgetful.send(.closeSchedule(Self.dentist)) } catch { refusal = error }
        #expect(refusal == .invalidCommand(.scheduleNotFound(slot: "2026-12-01 09:30")))
        await forgetful.close()

        let next = BandSession(transport: band, store: fixture.store, configuration: .init(idleTimeout: 10, syncOnConnect: false))
        try await next.connect()
        #expect(await next.schedules.contains(slot: "2026-12-01 09:30"))
        try await next.send(.closeSchedule(Self.dentist))
        await next.close()
        #expect(band.schedules.schedules.isEmpty)
        #expect(try fixture.store.schedules().schedules.isEmpty)
        // The fourth schedule of a day is the last: the limit counts the schedules of earlier sessions too.
        for hour in 8..<12 {
            let session = BandSession(transport: band, store: fixture.store, configuration: .init(idleTimeout: 10, syncOnConnect: false))
            try await session.connect()
            let schedule = BandSchedule(year: 2026, month: 12, day: 2, hour: hour, minute: 0, title: "Slot", subtitle: "")
            try await session.send(.writeSchedule(schedule))
            await session.close()
        }
        let fifth = BandSession(transport: band, store: fixture.store, configuration: .init(idleTimeout: 10, syncOnConnect: false))
        try await fifth.connect()
        var full: BandError?
        let late = BandSchedule(year: 2026, month: 12, day: 2, hour: 13, minute: 0, title: "Slot", subtitle: "")
        do { try await fifth.send(.writeSchedule(late)) } catch { full = error }
        #expect(full == .invalidCommand(.scheduleDayFull(date: "2026-12-02")))
        await fifth.close()
    }

    /// Acceptance: `axon band set schedule --close` in a second run of the command closes the schedule the first
    /// run wrote, on the mock bluetoothd's band (which keeps its schedules like a real one).
    @Test(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"))
    func closeAfterARestartOfTheCommandThroughBlueZ() async throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let address = "C0:FF:EE:00:00:10"
        let bed = try BlueZTestBed(devices: ["band,\(address),Smartee-0010,today=2026-11-22"])
        defer { bed.stop() }
        let store = bed.directory.appendingPathComponent("band.sqlite").path
        let schedule = [
            "band", "set", "schedule", "ble:\(address)", "--bus", bed.address, "--out", store, "--date", "2026-12-01",
            "--time", "09:30", "--title", "Dentist",
        ]
        let written = try await AxonExecutable.runOffPool(axon, schedule)
        #expect(written.status == 0, "\(written.output)")
        #expect(try await bed.stats(address)["schedules"]?.integerValue == 1)
        // Closing names the entry by date and time only, as the band does (no --title).
        let closing = Array(schedule.dropLast(2)) + ["--close"]
        let closed = try await AxonExecutable.runOffPool(axon, closing)
        #expect(closed.status == 0, "\(closed.output)")
        #expect(closed.output.contains("sent 44 06 EA 07 0C 01 09 1E 6F"))
        #expect(try await bed.stats(address)["schedules"]?.integerValue == 0)
        let again = try await AxonExecutable.runOffPool(axon, closing)
        #expect(again.status != 0 && again.output.contains("there is no schedule at 2026-12-01 09:30"))
    }
}
