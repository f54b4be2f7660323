import AxonBand
import AxonBluetooth
import AxonEventStore
import AxonRecording
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// What the band pushes while connected with no sync running (the seed's `HeartRateDataHoursNotification` at every
/// complete hour, `SportDataDetailNotification` when a sport ends) reaches `BandSession.liveRecords` at once, is
/// stored once, and the next sync neither receives nor stores it again.
struct BandLiveRecordsTests {
    static let today = BandSyncTests.today
    static let hour = BandRecordContent.heartRate(
        BandHourlyHeartRate(date: today, hour: 9, beatsPerMinute: (0..<60).map { $0 == 17 ? nil : 60 + $0 % 30 }))
    static let walk = BandRecordContent.sport(
        BandSportSession(
            date: today, startMinute: 600, endMinute: 640, sport: .walking, steps: 3_000, calories: 120,
            distance: 2_100, activity: 40, count: 0))

    /// What a consumer of a session's stream has seen so far.
    actor Seen {
        var records: [BandRecord] = []
        func add(_ record: BandRecord) { records.append(record) }
        var contents: [BandRecordContent] { records.map(\.content) }
    }

    static func follow(_ stream: AsyncStream<BandRecord>) -> (Seen, Task<Void, Never>) {
        let seen = Seen()
        let task = Task { for await record in stream { await seen.add(record) } }
        return (seen, task)
    }

    /// Acceptance: an hour of heart rate and a sport session completed during a connection with no sync running.
    @Test func anHourAndASportSessionArriveLiveAreStoredOnceAndTheNextSyncSkipsThem() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        let session = fixture.session(band)
        try await session.connect()
        let (seen, reader) = Self.follow(session.liveRecords)
        defer { reader.cancel() }
        #expect(band.complete(Self.hour), "connected, no sync: pushed at once")
        #expect(band.complete(Self.walk))
        try await waitUntil(seconds: 2) { await seen.contents == [Self.hour, Self.walk] }
        // Stored once each (the week is still on the band, unsent) and acknowledged: the band forgot both.
        let counts = try fixture.store.counts()
        #expect(counts[.heartRate] == 1 && counts[.sport] == 1)
        let live = await seen.records.map(\.sequence)
        try await waitUntil(seconds: 20) { () async -> Bool in
            !band.pendingRecords.contains { live.contains($0.sequence) }
        }

        let report = try await session.sync()
        #expect(report.inserted[.heartRate] == 7 * 24, "the week's hours only")
        #expect(report.inserted[.sport] == 7 * 2)
        #expect(report.duplicates[.heartRate] == nil && report.duplicates[.sport] == nil, "not even sent again")
        #expect(try fixture.store.counts()[.heartRate] == 7 * 24 + 1)
        let hours = try fixture.events.deviceRecordIDs(in: fixture.store.handle(.heartRate))
        #expect(hours.filter { $0 == "hr/2026-11-22 09:00" }.count == 1)
        #expect(await seen.records.count == 2, "what a sync brings is not live")
        await session.close()
    }

    @Test func aRecordCompletedDuringASyncJoinsItsOrderAndIsNotLive() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = SimulatedBand(
            configuration: .init(today: Self.today, heartRateAutoSync: true, madeAfterRecords: [10: Self.hour]))
        let session = fixture.session(band)
        try await session.connect()
        let (seen, reader) = Self.follow(session.liveRecords)
        defer { reader.cancel() }
        let report = try await session.sync()
        #expect(report.inserted[.heartRate] == 7 * 24 + 1)
        #expect(band.pendingRecords.isEmpty)
        #expect(await seen.records.isEmpty)
        await session.close()
    }

    /// The seed's `getCurrentSportData` and `getSupportSportsList` answer outside a sync too.
    @Test func todaysTotalsAndTheSportsListAnswerOutsideASync() async throws {
        let fixture = try BandSyncTests.Fixture()
        let band = BandSyncTests.band()
        let session = fixture.session(band)
        try await session.connect()
        let (seen, reader) = Self.follow(session.liveRecords)
        defer { reader.cancel() }
        try await session.requestCurrentSportData()
        try await session.requestSupportedSports()
        let sports = SimulatedBand.supportedSports.entries.count
        try await waitUntil(seconds: 20) { await seen.records.count == SimulatedBand.todayTotals.count + sports }
        let today = await seen.contents.compactMap { content -> BandTodayTotals? in
            if case .today(let totals) = content { return totals }
            return nil
        }
        #expect(today == SimulatedBand.todayTotals)
        #expect(await session.supportedSports == SimulatedBand.supportedSports)
        #expect(try fixture.store.todayTotals(today: Self.today) == SimulatedBand.todayTotals)
        #expect(try fixture.store.supportedSports() == SimulatedBand.supportedSports)
        // The sync asks again: the same answers, already stored; nothing sent twice, the week complete.
        let report = try await session.sync()
        #expect(report.duplicates == BandSyncTests.askedEverySync)
        #expect(report.totalInserted == BandSyncTests.expected.values.reduce(0, +) - SimulatedBand.todayTotals.count - sports)
        #expect(band.pendingRecords.isEmpty)
        await session.close()
    }

    @Test func withoutAStoreALiveRecordIsPublishedAndStaysOnTheBand() async throws {
        let band = BandSyncTests.band()
        let session = BandSession(transport: band, store: nil, configuration: .init(idleTimeout: 10))
        try await session.connect()
        var live = session.liveRecords.makeAsyncIterator()
        band.complete(Self.walk)
        let record = await live.next()
        #expect(record?.content == Self.walk)
        #expect(band.pendingRecords.contains { $0.sequence == record?.sequence }, "not acknowledged: kept")
        await session.close()
    }

    /// The same through BlueZ: the mock bluetoothd's band completes an hour and a walk (its control API's `Act`).
    @Test(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"))
    func theMockBandPushesAnHourAndASportSessionThroughBlueZ() async throws {
        let address = BandOverBluetoothTests.address
        let bed = try BlueZTestBed(devices: ["band,\(address),Smartee-0010,today=2026-11-22,hr_autosync=1"])
        defer { bed.stop() }
        let path = bed.directory.appendingPathComponent("band.sqlite").path
        let store = try BandRecordStore(store: EventStore(path: path), device: address, timeZone: .gmt)
        let (central, transport) = try await BandOverBluetoothTests.open(bed)
        defer { central.close() }
        let session = BandSession(
            transport: transport, store: store,
            configuration: .init(idleTimeout: 20, today: { Self.today }, syncOnConnect: false))
        try await session.connect()
        let (seen, reader) = Self.follow(session.liveRecords)
        defer { reader.cancel() }
        for action in ["hour", "sport"] {
            let pushed = try await bed.control(
                "Act", [.string(address), .string(action), .array(elementSignature: "s", [])])
            #expect(pushed == [.boolean(true)])
        }
        try await waitUntil(seconds: 2) { await seen.records.count == 2 }
        let kinds = await seen.contents.map(\.kind)
        #expect(kinds == [.heartRate, .sport])
        #expect(try store.counts()[.heartRate] == 1 && store.counts()[.sport] == 1)

        let report = try await session.sync()
        #expect(report.inserted[.heartRate] == 7 * 24 && report.inserted[.sport] == 7 * 2)
        #expect(report.duplicates[.heartRate] == nil && report.duplicates[.sport] == nil)
        #expect(try store.counts()[.heartRate] == 7 * 24 + 1 && store.counts()[.sport] == 7 * 2 + 1)
        try await waitUntil(seconds: 20) { try await bed.stats(address)["pending"]?.integerValue == 0 }

        // Today's totals answer outside a sync too (the seed's getCurrentSportData), pushed at once.
        try await session.requestCurrentSportData()
        try await waitUntil(seconds: 20) { await seen.records.count == 2 + SimulatedBand.todayTotals.count }
        let after = await seen.contents.map(\.kind)
        #expect(after.dropFirst(2) == [.today, .today], "\(after)")
        try await waitUntil(seconds: 20) { try await bed.stats(address)["pending"]?.integerValue == 0 }  // acknowledged
        await session.close()
    }

    /// `axon band hr` prints what the band pushes while it follows the heart rate: an hour completing on the mock
    /// bluetoothd's band appears in its output.
    @Test(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"))
    func axonBandHrPrintsWhatTheBandPushes() async throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let address = BandOverBluetoothTests.address
        let bed = try BlueZTestBed(devices: ["band,\(address),Smartee-0010,today=2026-11-22,hr_autosync=1,hr_rate=10"])
        defer { bed.stop() }
        let run = Task {
            try await AxonExecutable.runOffPool(
                axon, ["band", "hr", "ble:\(address)", "--bus", bed.address, "--count", "60"])
        }
        // Once the command is subscribed the band pushes the hour at once (Act answers whether it did).
        try await waitUntil(seconds: 20) {
            try await bed.control("Act", [.string(address), .string("hour"), .array(elementSignature: "s", [])])
                == [.boolean(true)]
        }
        let result = try await run.value
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("pushed: hr hr/2026-11-22 "), "\(result.output)")
    }
}
