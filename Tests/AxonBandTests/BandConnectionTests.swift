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

        // Off (the default): connecting syncs nothing.
        let other = BandSyncTests.band()
        let quiet = BandSession(
            transport: other, store: try BandSyncTests.Fixture().store, configuration: .init(idleTimeout: 10))
        try await quiet.connect()
        #expect(await quiet.lastSyncReport == nil)
        #expect(!other.pendingRecords.isEmpty)
        await quiet.close()
    }
}
