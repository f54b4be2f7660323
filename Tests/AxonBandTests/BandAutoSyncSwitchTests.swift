import AxonBand
import AxonRecording
import Foundation
import Testing

/// The seed's hourly heart-rate and sport-data auto-sync switches change what the simulated band sends in a sync:
/// switched off, those records stay on the band; switched on again, the next sync brings them, each once.
struct BandAutoSyncSwitchTests {
    static let hourCount = 7 * 24
    /// Activity and sport data: sport sessions, whole-day totals and sleep segments of the week.
    static let activity: [BandRecordKind: Int] = [.sport: 7 * 2, .day: 7 * 2, .sleep: 7 * 5]

    @Test func switchedOffKindsStayOnTheBandUntilSwitchedOn() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        let session = fixture.session(band)
        try await session.connect()
        try await session.send(.heartRateAutoSync(false))
        try await session.send(.sportDataAutoSync(false))
        let without = try await session.sync()
        // The seed's sportDataSwichOn: off holds back activity and sport data — sessions, whole-day totals, sleep.
        for kind in [BandRecordKind.heartRate, .sport, .day, .sleep] { #expect(without.inserted[kind] == nil, "\(kind)") }
        #expect(without.inserted[.today] == SimulatedBand.todayTotals.count, "asked for: answered")
        let waiting = band.pendingRecords.count
        #expect(waiting == Self.hourCount + Self.activity.values.reduce(0, +), "they wait on the band")

        try await session.send(.heartRateAutoSync(true))
        let hours = try await session.sync()
        #expect(hours.inserted[.heartRate] == Self.hourCount)
        #expect(hours.inserted[.sport] == nil && hours.inserted[.sleep] == nil)
        try await session.send(.sportDataAutoSync(true))
        let sport = try await session.sync()
        for (kind, count) in Self.activity { #expect(sport.inserted[kind] == count, "\(kind)") }
        #expect(sport.inserted[.heartRate] == nil)
        #expect(band.pendingRecords.isEmpty)
        #expect(try fixture.store.counts()[.heartRate] == Self.hourCount)
        await session.close()
    }

    /// The seed: hourly heart rate comes only once the app switched it on (`getHRDataOfHours`); a band starts with it
    /// off, in a sync and for what completes while connected.
    @Test func hourlyHeartRateWaitsForTheSwitchOnAFreshBand() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = SimulatedBand(configuration: .init(today: BandSyncTests.today))
        let session = fixture.session(band)
        try await session.connect()
        let first = try await session.sync()
        #expect(first.inserted[.heartRate] == nil)
        #expect(first.inserted[.sport] == 7 * 2, "activity is on from the start")
        #expect(band.pendingRecords.count == Self.hourCount)
        #expect(!band.complete(BandLiveRecordsTests.hour), "nor pushed while off")
        try await session.send(.heartRateAutoSync(true))
        #expect(try await session.sync().inserted[.heartRate] == Self.hourCount + 1)
        await session.close()
    }
}
