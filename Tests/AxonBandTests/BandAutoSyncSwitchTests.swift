import AxonBand
import AxonRecording
import Foundation
import Testing

/// The seed's hourly heart-rate and sport-data auto-sync switches change what the simulated band sends in a sync:
/// switched off, those records stay on the band; switched on again, the next sync brings them, each once.
struct BandAutoSyncSwitchTests {
    @Test func switchedOffKindsStayOnTheBandUntilSwitchedOn() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        let session = fixture.session(band)
        try await session.connect()
        try await session.send(.heartRateAutoSync(false))
        try await session.send(.sportDataAutoSync(false))
        let without = try await session.sync()
        let hourCount = 7 * 24
        let sportCount = 7 * 2
        #expect(without.inserted[.heartRate] == nil)
        #expect(without.inserted[.sport] == nil)
        #expect(without.inserted[.sleep] == 7 * 5)
        let waiting = band.pendingRecords.count
        #expect(waiting == hourCount + sportCount, "the hours and the sport sessions wait on the band")

        try await session.send(.heartRateAutoSync(true))
        let hours = try await session.sync()
        #expect(hours.inserted[.heartRate] == hourCount)
        #expect(hours.inserted[.sport] == nil)
        try await session.send(.sportDataAutoSync(true))
        let sport = try await session.sync()
        #expect(sport.inserted[.sport] == sportCount)
        #expect(sport.inserted[.heartRate] == nil)
        #expect(band.pendingRecords.isEmpty)
        let stored = try fixture.store.counts()
        #expect(stored[.heartRate] == hourCount)
        await session.close()
    }
}
