import AxonBand
import AxonRecording
import Foundation
import Testing

/// Take-picture and search-phone presses reach the session as they happen, outside a sync, stored and
/// acknowledged once; without a store they still arrive and the band keeps them for the next sync.
struct BandButtonPressTests {
    static let picture = BandRecordContent.takePicture(BandButtonEvent(date: BandSyncTests.today, second: 12 * 3600 + 5))
    static let search = BandRecordContent.searchPhone(BandButtonEvent(date: BandSyncTests.today, second: 12 * 3600 + 9))

    @Test func pressesArriveLiveOutsideASyncAndAreStoredOnce() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        let session = fixture.session(band)
        try await session.connect()
        let pendingBefore = band.pendingRecords.count
        var presses = session.buttonPresses.makeAsyncIterator()
        band.press(Self.picture)
        #expect(await presses.next()?.content == Self.picture)
        band.press(Self.search)
        #expect(await presses.next()?.content == Self.search)
        let counts = try fixture.store.counts()
        #expect(counts[.takePicture] == 1 && counts[.searchPhone] == 1)
        // Acknowledged once stored: the band forgot both presses and still holds the week, unsent.
        let report = try await session.sync()
        #expect(band.pendingRecords.isEmpty)
        #expect(
            report.recordsReceived == pendingBefore + BandSyncTests.askedEverySync.values.reduce(0, +),
            "the week and today's totals and sports list, not the presses")
        #expect(try fixture.store.counts()[.takePicture] == 2, "the week's own press and the live one")
        await session.close()
    }

    @Test func withoutAStoreAPressArrivesAndStaysOnTheBand() async throws {
        let band = BandSyncTests.band()
        let session = BandSession(transport: band, store: nil, configuration: .init(idleTimeout: 10))
        try await session.connect()
        var presses = session.buttonPresses.makeAsyncIterator()
        band.press(Self.picture)
        let pressed = await presses.next()
        #expect(pressed?.content == Self.picture)
        #expect(band.pendingRecords.contains { $0.sequence == pressed?.sequence })
        await session.close()
    }
}
