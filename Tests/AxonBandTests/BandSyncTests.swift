import AxonBand
import AxonDevices
import AxonEventStore
import AxonRecording
import Foundation
import Testing

/// The once-only sync against the simulated band: every record of a week stored exactly once, nothing new the
/// second time, the same totals after a link loss in the middle.
struct BandSyncTests {
    static let today = BandDate(year: 2026, month: 11, day: 22)!

    final class Fixture: Sendable {
        let path: String
        let events: EventStore
        let store: BandRecordStore
        init() throws {
            path =
                FileManager.default.temporaryDirectory.appendingPathComponent("axon-band-\(UUID().uuidString).sqlite")
                .path
            events = try EventStore(path: path)
            store = try BandRecordStore(store: events, device: "sim", timeZone: .gmt)
        }
        deinit {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        /// A session over `band` that stores into this fixture, with the tests' today and a 10 s idle timeout.
        func session(_ band: SimulatedBand, syncOnConnect: Bool = false) -> BandSession {
            BandSession(
                transport: band, store: store,
                configuration: .init(idleTimeout: 10, today: { BandSyncTests.today }, syncOnConnect: syncOnConnect))
        }

        func sync(_ band: SimulatedBand) async throws -> BandSyncReport {
            let session = BandSession(
                transport: band, store: store,
                configuration: .init(idleTimeout: 10, today: { BandSyncTests.today }, syncOnConnect: false))
            try await session.connect()
            let report = try await session.sync()
            await session.close()
            return report
        }
    }

    /// A simulated band with a week of records whose hourly heart rate an earlier session switched on.
    static func band(linkLosses: Set<Int> = []) -> SimulatedBand {
        SimulatedBand(configuration: .init(today: today, linkLossAfterRecords: linkLosses, heartRateAutoSync: true))
    }

    /// The records a band makes anew in every sync: today's totals, one per sport, and the supported-sports list,
    /// one per entry.
    static let askedEverySync: [BandRecordKind: Int] = [
        .today: SimulatedBand.todayTotals.count, .supportedSports: SimulatedBand.supportedSports.entries.count,
    ]

    /// The week plus today's totals and the supported-sports list, by kind.
    static var expected: [BandRecordKind: Int] {
        var counts: [BandRecordKind: Int] = [.today: askedEverySync[.today]!, .supportedSports: askedEverySync[.supportedSports]!]
        for record in SimulatedBand.week(today: today) { counts[record.kind, default: 0] += 1 }
        return counts
    }

    @Test func aWeekIsStoredExactlyOnceAndASecondSyncStoresNothing() async throws {
        let fixture = try Fixture()
        let band = Self.band()
        let first = try await fixture.sync(band)
        let expected = Self.expected
        let total = expected.values.reduce(0, +)
        #expect(total == 7 * (2 + 2 + 5 + 24) + 2 + 2 + 24)
        #expect(first.inserted == expected)
        #expect(first.totalDuplicates == 0)
        #expect(first.recordsReceived == total)
        #expect(try fixture.store.counts() == expected)
        #expect(band.pendingRecords.isEmpty, "the band forgets only what was acknowledged, and all was")
        #expect(first.deviceInfo == BandDeviceInfo(model: .smarteeTraining, firmware: "3.1.4", name: "Smartee-0001"))
        #expect(first.battery == 83)

        // The same band again: it only makes today's totals and the sports list anew, both already stored.
        let second = try await fixture.sync(band)
        #expect(second.totalInserted == 0)
        #expect(second.duplicates == Self.askedEverySync)
        // A band that never got the acknowledgements (the same week again): every record is a duplicate.
        let third = try await fixture.sync(Self.band())
        #expect(third.totalInserted == 0)
        #expect(third.totalDuplicates == total)
        #expect(try fixture.store.counts() == expected)
    }

    @Test(arguments: [[1], [37], [5, 90, 91, 200], Array(stride(from: 10, through: 230, by: 20))])
    func linkLossesInTheMiddleResumeToTheSameTotals(_ losses: [Int]) async throws {
        let reference = try Fixture()
        _ = try await reference.sync(Self.band())
        let fixture = try Fixture()
        let band = Self.band(linkLosses: Set(losses))
        let report = try await fixture.sync(band)
        #expect(report.linkLosses == losses.count)
        // An acknowledgement written while the link is down is lost (the band then drops the record when the
        // session asks again after it, or sends it again); one written after the quick reconnection arrives. One
        // record of the sync's order is in flight at a time, but today's totals and the sports list come pushed at
        // once, and their acknowledgements may meet the first outage too.
        #expect(report.acknowledgementsLost <= losses.count + Self.askedEverySync.values.reduce(0, +))
        #expect(report.inserted == Self.expected)
        #expect(try fixture.store.counts() == Self.expected)
        #expect(band.pendingRecords.isEmpty)
        // Record for record the same store as the clean run.
        for kind in BandRecordKind.allCases {
            let a = try reference.events.deviceRecordIDs(in: reference.store.handle(kind))
            let b = try fixture.events.deviceRecordIDs(in: fixture.store.handle(kind))
            #expect(a.sorted() == b.sorted())
        }
    }

    @Test func aSyncCutShortResumesInTheNextSessionWithoutDuplicateRows() async throws {
        let fixture = try Fixture()
        let band = SimulatedBand(
            configuration: .init(today: Self.today, vanishAfterRecords: 100, heartRateAutoSync: true))
        let session = BandSession(
            transport: band, store: fixture.store,
            configuration: .init(idleTimeout: 4, today: { Self.today }, syncOnConnect: false))
        try await session.connect()
        await #expect(throws: BandError.timedOut(what: "sync records", seconds: 4)) { try await session.sync() }
        await session.close()
        // The hundred records sent in the sync's order, and today's totals and the sports list, pushed at once as
        // answers to the session's requests (each acknowledged).
        let answers = Self.askedEverySync.values.reduce(0, +)
        #expect(try fixture.store.counts().values.reduce(0, +) == 100 + answers)
        // The hundredth was stored but never acknowledged: the band still holds it and sends it again.
        let total = Self.expected.values.reduce(0, +)
        #expect(band.pendingRecords.count == total - 99 - answers)
        let resumed = try await fixture.sync(band)
        #expect(resumed.totalInserted == total - 100 - answers)
        // Again: the hundredth, and today's totals and the sports list that both sessions asked for.
        let hundredth = SimulatedBand.week(today: Self.today)[99].kind
        #expect(hundredth == .day)
        #expect(resumed.duplicates == Self.askedEverySync.merging([hundredth: 1], uniquingKeysWith: +))
        #expect(try fixture.store.counts() == Self.expected)
    }

    @Test func damagedNotificationsAreAskedForAgain() async throws {
        let fixture = try Fixture()
        let report = try await fixture.sync(
            SimulatedBand(
                configuration: .init(today: Self.today, corruptRecords: [5, 77, 78], heartRateAutoSync: true)))
        #expect(report.malformedNotifications == 3)
        #expect(report.inserted == Self.expected)
        #expect(try fixture.store.counts() == Self.expected)
    }

    @Test func hourlyHeartRateWith255IsGapsNeverZeros() async throws {
        let fixture = try Fixture()
        _ = try await fixture.sync(Self.band())
        let stored = try fixture.events.events(
            in: fixture.store.handle(.heartRate), from: nil, to: nil, limit: nil, as: BandHourlyHeartRate.self)
        #expect(stored.count == 7 * 24)
        var gapMinutes = 0
        for event in stored {
            let hour = event.payload
            #expect(hour.beatsPerMinute.count == 60)
            #expect(!hour.beatsPerMinute.contains(0))
            #expect(hour.beatsPerMinute.allSatisfy { $0 == nil || (52...128).contains($0!) })
            gapMinutes += hour.gaps.reduce(0) { $0 + $1.count }
            #expect(hour.readings.count + hour.gaps.reduce(0) { $0 + $1.count } == 60)
            if hour.hour == 3 { #expect(hour.gaps == [0..<60]) }
        }
        #expect(gapMinutes >= 7 * 60)
        // The identity is the hour; the device time its start.
        let first = try #require(stored.first)
        #expect(first.deviceRecordID == "hr/2026-11-15 00:00")
        #expect(first.deviceTime == BandDate(year: 2026, month: 11, day: 15)!.unixTime(minute: 0, in: .gmt))
    }

    @Test func aDecodedHourMarksEvery255AsAGap() throws {
        var values = [UInt8](repeating: 70, count: 60)
        values[0] = 255
        for m in 10..<13 { values[m] = 255 }
        values[59] = 255
        let bytes = BandFrame(type: 0x24, payload: [9, 0, 0, 0, 0xEA, 0x07, 11, 20, 14] + values).bytes
        guard case .record(let record) = try BandNotification(decoding: bytes),
            case .heartRate(let hour) = record.content
        else { Issue.record("not an hourly heart-rate record"); return }
        #expect(record.sequence == 9)
        #expect(hour.date == BandDate(year: 2026, month: 11, day: 20))
        #expect(hour.hour == 14)
        #expect(hour.gaps == [0..<1, 10..<13, 59..<60])
        #expect(hour.readings.count == 55)
        #expect(hour.beatsPerMinute[11] == nil)
        #expect(hour.beatsPerMinute[1] == 70)
    }

    @Test func syncWithoutAStoreIsRefusedAndTheBandKeepsItsRecords() async throws {
        let band = Self.band()
        let session = BandSession(
            transport: band, store: nil, configuration: .init(idleTimeout: 5, today: { Self.today }))
        try await session.connect()
        await #expect(throws: BandError.noStore) { try await session.sync() }
        await session.close()
        #expect(band.pendingRecords.count == SimulatedBand.week(today: Self.today).count)
    }
}
