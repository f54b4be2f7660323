import AxonBand
import AxonDevices
import AxonRecording
import Foundation
import Testing

/// The seed's connection state (`currentState`, `isConnected`) and its sync on connection, made configurable.
struct BandConnectionTests {
    @Test func connectionStateFollowsTheLink() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band(linkLosses: [5])
        let session = fixture.session(band)
        #expect(await session.connectionState == .disconnected)
        try await session.connect()
        #expect(await session.connectionState == .connected)
        #expect(await session.batteryLevel == 83, "read from 0x2A19 while connecting")
        #expect(await session.isConnected)
        // A link loss during the sync: lost, then connected again, and the sync completes.
        let watcher = Task {
            for await event in band.events {
                if case .linkLost = event { return true }
            }
            return false
        }
        let report = try await session.sync()
        #expect(await watcher.value)
        #expect(report.linkLosses == 1)
        #expect(await session.connectionState == .connected)
        await session.close()
        #expect(await session.connectionState == .disconnected)
        #expect(await !session.isConnected)
    }

    @Test func syncOnConnectStoresTheWeekBeforeConnectReturns() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        let session = fixture.session(band, syncOnConnect: true)
        try await session.connect()
        let report = try #require(await session.lastSyncReport)
        #expect(report.totalInserted == BandSyncTests.expected.values.reduce(0, +))
        #expect(band.pendingRecords.isEmpty)
        await session.close()

        // The default, as the seed's SDK: a session with a store syncs whenever it connects.
        let other = BandSyncTests.band()
        let defaults = BandSession(
            transport: other, store: try BandSyncTests.Fixture().store, configuration: .init(idleTimeout: 10))
        try await defaults.connect()
        #expect(await defaults.lastSyncReport?.totalInserted == BandSyncTests.expected.values.reduce(0, +))
        #expect(other.pendingRecords.isEmpty)
        await defaults.close()

        // Switched off: connecting syncs nothing.
        let third = BandSyncTests.band()
        let quiet = BandSession(
            transport: third, store: try BandSyncTests.Fixture().store,
            configuration: .init(idleTimeout: 10, syncOnConnect: false))
        try await quiet.connect()
        #expect(await quiet.lastSyncReport == nil)
        #expect(!third.pendingRecords.isEmpty)
        await quiet.close()
    }
}
