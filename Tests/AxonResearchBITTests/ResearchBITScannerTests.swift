import AxonDevices
import AxonRecording
import Foundation
import Testing

@testable import AxonResearchBIT

/// Scanning as a library call, and the seed's `lastSyncTime` per device, kept in the event store.
struct ResearchBITScannerTests {
    @Test func aScanKeepsRemembersAndDatesTheDevices() async throws {
        let fixture = try ResearchBITTests.Fixture()
        let scanner = ResearchBITScanner(store: fixture.store)
        let found = try await scanner.scan(SimulatedResearchBIT.Air(), seconds: 1)
        #expect(found.map(\.name) == ["ResearchBIT-0001", "Nordic-0021"], "the heart-rate band is left out")
        #expect(found.map(\.batteryPercentage) == [91, 40])
        #expect(found.allSatisfy { $0.lastSyncTime == nil }, "never fetched")
        #expect(try fixture.store.knownDevices().map(\.address) == ["C0:FF:EE:00:00:20", "C0:FF:EE:00:00:21"])

        // A completed fetch is the device's last sync; a second one moves it on.
        let device = SimulatedResearchBIT()
        let address = device.configuration.address
        let before = Date()
        let first = try await ResearchBITClient(
            transport: device, store: fixture.store, address: address, idleTimeout: 5
        ).fetch()
        let synced = try #require(first.syncTime)
        #expect(synced >= before && synced <= Date())
        #expect(try fixture.store.lastSyncTime(of: address) == Date(timeIntervalSince1970: synced.timeIntervalSince1970))
        let again = try await scanner.scan(SimulatedResearchBIT.Air(), seconds: 1)
        #expect(again.first?.lastSyncTime == first.syncTime.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970) })
        #expect(again.last?.lastSyncTime == nil, "the dongle was never fetched")
        #expect(try fixture.store.knownDevice("ResearchBIT-0001")?.lastSyncTime != nil)

        let second = try await ResearchBITClient(
            transport: device, store: fixture.store, address: address, idleTimeout: 5
        ).fetch()
        #expect(try fixture.store.lastSyncTime(of: address)! >= synced)
        #expect(second.syncTime! >= synced)
    }

    /// A fetch that fails is no sync: the last sync time stays what it was.
    @Test func aFetchCutShortIsNoSync() async throws {
        let fixture = try ResearchBITTests.Fixture()
        let device = SimulatedResearchBIT(configuration: .init(vanishAfterEvents: 9))
        let client = ResearchBITClient(
            transport: device, store: fixture.store, address: device.configuration.address, idleTimeout: 0.5)
        await #expect(throws: ResearchBITError.self) { _ = try await client.fetch() }
        #expect(try fixture.store.lastSyncTime(of: device.configuration.address) == nil)
    }

    /// A source that cannot scan gives the transport's error.
    @Test func aFailingSourceIsATransportError() async throws {
        struct Silent: AdvertisementSource {
            func advertisements(seconds: Double) async throws(TransportError) -> [ResearchBITAdvertisement] {
                throw .operationFailed("no adapter")
            }
        }
        let fixture = try ResearchBITTests.Fixture()
        await #expect(throws: ResearchBITError.transport(.operationFailed("no adapter"))) {
            _ = try await ResearchBITScanner(store: fixture.store).scan(Silent(), seconds: 1)
        }
    }
}
