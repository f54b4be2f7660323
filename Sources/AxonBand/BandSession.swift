import AxonDevices
import AxonEventStore
import AxonRecording
import Foundation

/// A connection to a band over any ``AxonDevices/DeviceTransport``: sync its once-only records into the event
/// store, send validated commands, follow live heart rate.
///
///     let session = BandSession(transport: transport, store: try BandRecordStore(store: events, device: "band"))
///     try await session.connect()
///     let report = try await session.sync()      // every record stored before it is acknowledged
///     try await session.send(.alarm(BandAlarm(id: 0, hour: 7, minute: 0, weekRepeat: [.repeatWeekly, .monday],
///                                             switchOn: true, viable: true)))
///     await session.close()
///
/// **The once-only rule.** The band forgets a record when it is acknowledged, so the session acknowledges a
/// record only after ``BandRecordStore/insert(_:today:)`` has returned (committed and `fsync`ed). A lost
/// acknowledgement makes the band send the record again, which the store recognises by its identity. After a
/// link loss the session asks again from the last record it stored (``BandCommand/sync(after:)``), so the sync
/// resumes where it stopped.
///
/// Threading contract: an actor; call it from any task. The transport's delivery thread only enqueues (it never
/// blocks); the actor stores and acknowledges, one notification at a time, in arrival order.
public actor BandSession {
    /// Session settings.
    public struct Configuration: Sendable {
        /// Where its characteristics are.
        public var profile: BandGATTProfile
        /// Subscribe to the Heart Rate Measurement characteristic too (``heartRate``).
        public var liveHeartRate: Bool
        /// Seconds without any notification before a wait fails with ``BandError/timedOut(what:seconds:)``.
        public var idleTimeout: Double
        /// The host's "today" for today's totals.
        public var today: @Sendable () -> BandDate
        /// Sync as part of ``BandSession/connect()`` when the session has a store, as the seed's SDK does on every
        /// connection (on by default); the report is ``BandSession/lastSyncReport``.
        public var syncOnConnect: Bool
        /// Creates a value from its fields.
        public init(
            profile: BandGATTProfile = .init(), liveHeartRate: Bool = false, idleTimeout: Double = 30,
            today: @escaping @Sendable () -> BandDate = { BandDate(Date(), timeZone: .current) },
            syncOnConnect: Bool = true
        ) {
            self.profile = profile
            self.liveHeartRate = liveHeartRate
            self.idleTimeout = idleTimeout
            self.today = today
            self.syncOnConnect = syncOnConnect
        }
    }

    /// The link to the device.
    public nonisolated let transport: any DeviceTransport
    /// Where ``sync()`` stores records (``attach(_:)`` sets it after connecting, when the store is named after
    /// the band's own info).
    public private(set) var store: BandRecordStore?
    /// The session's settings.
    public nonisolated let configuration: Configuration
    /// Live heart-rate measurements (with ``Configuration/liveHeartRate``), decoded; one consumer.
    public nonisolated let heartRate: AsyncStream<HeartRateMeasurement>
    /// Every record after it was stored, with the store's outcome; one consumer. For printing as it goes.
    public nonisolated let storedRecords: AsyncStream<(BandRecord, InsertOutcome)>
    /// The band's take-picture and search-phone buttons as they are pressed (seed `TakePictureNotify`,
    /// `SearchPhoneNotify`), whenever the band is connected, in or out of a ``sync()``; one consumer. With a store,
    /// a press is stored and acknowledged first and one the store already held is not repeated here; without one
    /// it is not acknowledged, so the band sends it again in the next sync.
    public nonisolated let buttonPresses: AsyncStream<BandRecord>
    /// The records the band pushes as they happen while it is connected and no ``sync()`` runs (the seed's
    /// `HeartRateDataHoursNotification` at every complete hour, `SportDataDetailNotification` when a sport ends, …,
    /// the button presses, and the answers to ``requestCurrentSportData()`` and ``requestSupportedSports()``); one
    /// consumer. With a store each is stored and acknowledged, so the band forgets it and the next ``sync()`` neither
    /// receives nor stores it again; it is published only if the store did not hold it already, except an answer to
    /// a request, published even when unchanged. Without a store it is published and not acknowledged: the band
    /// sends it again in the next sync.
    public nonisolated let liveRecords: AsyncStream<BandRecord>

    private let heartRateContinuation: AsyncStream<HeartRateMeasurement>.Continuation
    private let storedContinuation: AsyncStream<(BandRecord, InsertOutcome)>.Continuation
    private let buttonContinuation: AsyncStream<BandRecord>.Continuation
    private let liveContinuation: AsyncStream<BandRecord>.Continuation
    private let inbound: AsyncStream<Inbound>
    private let inboundContinuation: AsyncStream<Inbound>.Continuation
    private var pump: Task<Void, Never>?
    private var watchdog: Task<Void, Never>?
    var lastActivity = Date()
    /// The current connection's receiver: when the band's last notification arrived, handled yet or not.
    private var receiver: Receiver?
    /// Notifications handled on the current connection (the receiver counts those that arrived).
    private var valuesHandled = 0
    private var linkDown = false
    private var syncing = false
    private var syncWaiter: CheckedContinuation<Void, any Error>?
    private var responseWaiters: [UInt8: CheckedContinuation<Bool, any Error>] = [:]
    /// Waiting for the band's schedule info (``readScheduleInfo(on:)``).
    var scheduleInfoWaiter: CheckedContinuation<BandScheduleInfo, any Error>?
    /// Waiting for the band's schedules (``readSchedules()``), and the ones that came so far.
    var scheduleListWaiter: CheckedContinuation<[BandSchedule], any Error>?
    var scheduleEntries: [Int: BandSchedule] = [:]
    private var report = BandSyncReport()
    private var lastStored: UInt32 = 0
    private var consecutiveMalformed = 0
    /// The supported-sports entries received in the running sync.
    private var sportEntries: [BandSupportedSport] = []
    /// The band's schedules as far as Axon knows them: those stored by earlier sessions in the store
    /// (``BandRecordStore/schedules()``, read by ``connect()`` and ``attach(_:)``) and the changes this session sent
    /// and the band accepted, each stored again before ``send(_:)`` returns.
    public internal(set) var schedules = BandScheduleBook()
    /// The band's info and battery, once it answered.
    public private(set) var deviceInfo: BandDeviceInfo?
    /// Battery level in percent, from the band's own answer (Axon's framing).
    public private(set) var battery: Int?
    /// Battery level in percent from the standard Battery Level characteristic (0x2A19), read by ``connect()``
    /// when the band has it; `nil` when it has not.
    public private(set) var batteryLevel: Int?
    /// The band's supported-sports list with its names and units, once a ``sync()`` received all of it.
    public private(set) var supportedSports: BandSupportedSports?
    /// Heart-rate notifications that were malformed (typed errors, counted; the stream goes on).
    public private(set) var malformedHeartRate = 0
    /// Where the link is (the seed's `currentState`).
    public private(set) var connectionState = BandConnectionState.disconnected
    /// Whether the band is connected and data flows (the seed's `isConnected`).
    public var isConnected: Bool { connectionState == .connected }
    /// The report of the last completed ``sync()``, the one ``Configuration/syncOnConnect`` ran included.
    public private(set) var lastSyncReport: BandSyncReport?

    /// A session over `transport`; `store` is needed for ``sync()`` only.
    public init(transport: any DeviceTransport, store: BandRecordStore?, configuration: Configuration = .init()) {
        self.transport = transport
        self.store = store
        self.configuration = configuration
        (heartRate, heartRateContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
        (storedRecords, storedContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(4096))
        (buttonPresses, buttonContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        (liveRecords, liveContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
        (inbound, inboundContinuation) = AsyncStream.makeStream()
    }

    /// Connects, subscribes and asks for device info and battery. With a store, the schedules written by earlier
    /// sessions are read from it first, and with ``Configuration/syncOnConnect`` (the default) the band is synced
    /// before this returns.
    ///
    /// - Throws: ``BandError/transport(_:)`` when the band cannot be reached; ``BandError/store(_:)``; the errors
    ///   of ``sync()`` when it syncs.
    public func connect() async throws(BandError) {
        if let store { try loadSchedules(from: store) }
        let receiver = Receiver(inboundContinuation)
        self.receiver = receiver
        valuesHandled = 0
        var notifications = [configuration.profile.records]
        if configuration.liveHeartRate { notifications.append(configuration.profile.heartRate) }
        connectionState = .connecting
        do { try await transport.open(notifications: notifications, receiver: receiver) } catch {
            connectionState = .disconnected
            throw .transport(error)
        }
        connectionState = .connected
        batteryLevel = await Self.standardBatteryLevel(transport)
        let stream = inbound
        pump = Task { [weak self] in
            for await item in stream {
                guard let self else { return }
                await self.handle(item)
            }
        }
        watchdog = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                await self?.checkIdle()
            }
        }
        try await write(.getDeviceInfo)
        try await write(.getBattery)
        if configuration.syncOnConnect, store != nil { _ = try await sync() }
    }

    /// Takes every record the band holds into the store: asks for today's totals and the supported sports, then
    /// for every record after the last one stored, storing and acknowledging each, until the band says it is done.
    /// Survives link losses (it resumes after reconnection).
    ///
    /// - Throws: ``BandError/noStore``, ``BandError/store(_:)`` (the failing record stays on the band),
    ///   ``BandError/timedOut(what:seconds:)``, ``BandError/transport(_:)``, ``BandError/malformed(_:)``.
    public func sync() async throws(BandError) -> BandSyncReport {
        guard store != nil else { throw .noStore }
        report = BandSyncReport()
        sportEntries = []
        report.deviceInfo = deviceInfo
        report.battery = battery
        syncing = true
        defer { syncing = false }
        lastActivity = Date()
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                syncWaiter = continuation
                Task { await self.startSync() }
            }
        } catch let error as BandError {
            throw error
        } catch {
            throw .transport(.operationFailed("\(error)", cause: error))
        }
        report.deviceInfo = deviceInfo
        report.battery = battery
        lastSyncReport = report
        return report
    }

    /// Validates `command` against the seed's limits, sends it and waits for the band's answer.
    ///
    /// - Throws: ``BandError/invalidCommand(_:)`` before anything is sent; ``BandError/rejected(command:)`` when
    ///   the band refuses; ``BandError/transport(_:)``, ``BandError/timedOut(what:seconds:)``.
    public func send(_ command: BandCommand) async throws(BandError) {
        do { try command.validate(model: deviceInfo?.model, schedules: schedules) } catch {
            throw .invalidCommand(error)
        }
        guard command.expectsResponse else {
            try await write(command)
            return
        }
        lastActivity = Date()
        let accepted: Bool
        do {
            accepted = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Bool, any Error>) in
                responseWaiters[command.type] = continuation
                Task { await self.writeForWaiter(command) }
            }
        } catch let error as BandError {
            throw error
        } catch {
            throw .transport(.operationFailed("\(error)", cause: error))
        }
        guard accepted else { throw .rejected(command: command.type) }
        schedules.apply(command)
        switch command {
        case .writeSchedule, .closeSchedule, .clearSchedules, .reset:
            guard let store else { return }
            do { try store.saveSchedules(schedules) } catch { throw .store(error) }
        default: return
        }
    }

    /// Asks the band for today's totals (the seed's `getCurrentSportData`): outside a sync they come pushed, one
    /// record per sport, on ``liveRecords`` (stored first with a store); a ``sync()`` asks for them itself.
    ///
    /// - Throws: ``BandError/transport(_:)``.
    public func requestCurrentSportData() async throws(BandError) { try await write(.getCurrentSportData) }

    /// Asks the band for its supported-sports list (the seed's `getSupportSportsList`): outside a sync its entries
    /// come pushed on ``liveRecords``, and ``supportedSports`` is set once all of them arrived; a ``sync()`` asks
    /// for it itself.
    ///
    /// - Throws: ``BandError/transport(_:)``.
    public func requestSupportedSports() async throws(BandError) { try await write(.getSupportedSports) }

    /// Sets the store ``sync()`` writes to (for a store named after ``deviceInfo``, known only once connected) and
    /// reads the schedules earlier sessions stored in it.
    ///
    /// - Throws: ``BandError/store(_:)`` when the schedules cannot be read; the store is not attached then.
    public func attach(_ store: BandRecordStore) throws(BandError) {
        try loadSchedules(from: store)
        self.store = store
    }

    /// The Battery Level characteristic's value (0–100), or `nil` when the band has none or it cannot be read: the
    /// band's own battery answer follows anyway.
    private static func standardBatteryLevel(_ transport: any DeviceTransport) async -> Int? {
        guard let value = try? await transport.read(.batteryLevel), value.count == 1, value[0] <= 100 else {
            return nil
        }
        return Int(value[0])
    }

    private func loadSchedules(from store: BandRecordStore) throws(BandError) {
        do { schedules = try store.schedules() } catch { throw .store(error) }
    }

    /// Waits (up to the idle timeout) until the band has told its model, so model-dependent rules can be checked.
    public func waitForDeviceInfo() async -> BandDeviceInfo? {
        let deadline = Date().addingTimeInterval(configuration.idleTimeout)
        while deviceInfo == nil, Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        return deviceInfo
    }

    /// Closes the transport; pending waits fail with ``BandError/closed``.
    public func close() async {
        connectionState = .disconnected
        failWaiters(.closed)
        watchdog?.cancel()
        await transport.close()
        inboundContinuation.finish()
        heartRateContinuation.finish()
        storedContinuation.finish()
        buttonContinuation.finish()
        liveContinuation.finish()
    }

    // MARK: - Inbound

    private func handle(_ item: Inbound) async {
        // Only the band's own notifications count as activity: a transport retrying a band that left range reports
        // link events for ever.
        if case .value = item {
            lastActivity = Date()
            valuesHandled += 1
        }
        switch item {
        case .link(let event):
            switch event {
            case .linkLost:
                linkDown = true
                if connectionState != .disconnected { connectionState = .linkLost }
                if syncing { report.linkLosses += 1 }
            case .ready where linkDown:
                linkDown = false
                if connectionState != .disconnected { connectionState = .connected }
                if syncing { try? await write(.sync(after: lastStored)) }
            default: break
            }
        case .value(let bytes, let characteristic):
            if characteristic.characteristic == BandGATTProfile.heartRateMeasurementUUID {
                do { heartRateContinuation.yield(try HeartRateMeasurement(decoding: bytes)) } catch {
                    malformedHeartRate += 1
                }
                return
            }
            let notification: BandNotification
            do { notification = try BandNotification(decoding: bytes) } catch {
                await malformed(error)
                return
            }
            consecutiveMalformed = 0
            await handle(notification)
        }
    }

    private func handle(_ notification: BandNotification) async {
        switch notification {
        case .deviceInfo(let info): deviceInfo = info
        case .battery(let level): battery = level
        case .response(let command, let accepted):
            responseWaiters.removeValue(forKey: command)?.resume(returning: accepted)
        case .scheduleInfo(let info):
            scheduleInfoWaiter?.resume(returning: info)
            scheduleInfoWaiter = nil
        case .scheduleEntry(let entry):
            if let schedule = entry.schedule { scheduleEntries[entry.index] = schedule }
            guard entry.count == 0 || (0..<entry.count).allSatisfy({ scheduleEntries[$0] != nil }) else { return }
            let list = (0..<entry.count).compactMap { scheduleEntries[$0] }
            scheduleEntries = [:]
            scheduleListWaiter?.resume(returning: list)
            scheduleListWaiter = nil
        case .syncDone:
            guard syncing else { return }
            report.lastSequence = lastStored
            syncWaiter?.resume()
            syncWaiter = nil
        case .record(let record) where !syncing:
            // Outside a sync the band sends what happens now: an hour of heart rate complete, a sport ended, a
            // button pressed.
            await pushed(record)
        case .record(let record):
            // Never acknowledged unless stored: without a store (or outside a sync) the band keeps it.
            guard let store else {
                if record.content.isButtonPress { buttonContinuation.yield(record) }
                return
            }
            report.recordsReceived += 1
            let outcome: InsertOutcome
            do { outcome = try store.insert(record, today: configuration.today()) } catch {
                failWaiters(.store(error))
                return
            }
            report.count(outcome, record.content.kind)
            keep(record.content)
            // A press, and the answers to today's totals and the sports list, may come pushed outside the
            // stop-and-wait order, with sequence numbers beyond records not sent yet: resuming after them would skip
            // those.
            if !record.content.mayComePushed { lastStored = max(lastStored, record.sequence) }
            storedContinuation.yield((record, outcome))
            if record.content.isButtonPress, outcome == .inserted { buttonContinuation.yield(record) }
            do { try await write(.acknowledge(sequence: record.sequence)) } catch {
                report.acknowledgementsLost += 1
            }
            lastActivity = Date()  // the band answers an acknowledgement: it is not idle before it had the chance
        }
    }

    /// Today's totals and the supported-sports list, for the report, as they arrive in a sync.
    private func keep(_ content: BandRecordContent) {
        switch content {
        case .today(let totals):
            report.todayTotals.removeAll { $0.sport == totals.sport }
            report.todayTotals.append(totals)
        case .supportedSport(let entry):
            sportEntries.append(entry)
            if let list = BandSupportedSports(assembling: sportEntries) {
                supportedSports = list
                report.supportedSports = list
            }
        default: break
        }
    }

    /// A record the band pushed outside a sync: stored and acknowledged when there is a store (a record stored
    /// before is not published again), published either way; presses on ``buttonPresses`` too.
    private func pushed(_ record: BandRecord) async {
        func publish() {
            liveContinuation.yield(record)
            if record.content.isButtonPress { buttonContinuation.yield(record) }
        }
        guard let store else {
            publish()
            return
        }
        let outcome: InsertOutcome
        do { outcome = try store.insert(record, today: configuration.today()) } catch {
            // Not stored, so not acknowledged: the band keeps it for the next sync. It still happened.
            publish()
            return
        }
        keep(record.content)
        storedContinuation.yield((record, outcome))
        // An answer to a request is the answer even when unchanged; anything else came again and was published.
        let answer = record.content.mayComePushed && !record.content.isButtonPress
        if outcome == .inserted || answer { publish() }
        // Stored: acknowledged without holding up the next push (pushes are not stop-and-wait; a lost
        // acknowledgement only makes the band send the record again, which the store keeps once).
        let sequence = record.sequence
        Task { try? await self.write(.acknowledge(sequence: sequence)) }
    }

    private func malformed(_ error: BandDecodingError) async {
        report.malformedNotifications += 1
        consecutiveMalformed += 1
        guard syncing else { return }
        if consecutiveMalformed > 3 {
            failWaiters(.malformed(error))
        } else {
            // The band is waiting for an acknowledgement it will not get: ask again from the last stored record.
            try? await write(.sync(after: lastStored))
        }
    }

    // MARK: - Helpers

    private func startSync() async {
        do {
            try await write(.getCurrentSportData)
            try await write(.getSupportedSports)
            try await write(.sync(after: lastStored))
        } catch {
            // A link loss right now: the sync request is repeated on reconnection.
            if !linkDown { failWaiters(error) }
        }
    }

    private func writeForWaiter(_ command: BandCommand) async {
        do { try await write(command) } catch {
            responseWaiters.removeValue(forKey: command.type)?.resume(throwing: error)
        }
    }

    func write(_ command: BandCommand) async throws(BandError) {
        do { try await transport.write(command.bytes, to: configuration.profile.command, withResponse: true) } catch {
            throw .transport(error)
        }
    }

    private func checkIdle() {
        let answers = scheduleInfoWaiter != nil || scheduleListWaiter != nil || !responseWaiters.isEmpty
        guard syncWaiter != nil || answers else { return }
        // The band is idle only if nothing arrived either and the session is not behind: on a busy host
        // notifications can wait to be handled, and the band waits for the acknowledgement of the one in hand.
        if let receiver, receiver.arrivals != valuesHandled { return }
        let idle = Date().timeIntervalSince(max(lastActivity, receiver?.lastArrival ?? .distantPast))
        if idle > configuration.idleTimeout {
            failWaiters(
                .timedOut(
                    what: syncWaiter != nil ? "sync records" : "a command answer", seconds: configuration.idleTimeout))
        }
    }

    func failWaiters(_ error: BandError) {
        syncWaiter?.resume(throwing: error)
        syncWaiter = nil
        scheduleInfoWaiter?.resume(throwing: error)
        scheduleInfoWaiter = nil
        scheduleListWaiter?.resume(throwing: error)
        scheduleListWaiter = nil
        scheduleEntries = [:]
        for waiter in responseWaiters.values { waiter.resume(throwing: error) }
        responseWaiters = [:]
    }
}

/// What the delivery thread hands the session.
enum Inbound: Sendable {
    case value([UInt8], GATTCharacteristicID)
    case link(LinkEvent)
}

/// Enqueues on the transport's delivery thread and notes when the last value arrived; never blocks beyond a lock.
private final class Receiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: `arrival` and `count` are read and written under `lock` only.
    let continuation: AsyncStream<Inbound>.Continuation
    private let lock = NSLock()
    private var arrival = Date.distantPast
    private var count = 0
    init(_ continuation: AsyncStream<Inbound>.Continuation) { self.continuation = continuation }
    /// When the band's last notification arrived (any thread).
    var lastArrival: Date { lock.withLock { arrival } }
    /// How many notifications arrived (any thread).
    var arrivals: Int { lock.withLock { count } }
    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        lock.withLock {
            arrival = Date()
            count += 1
        }
        continuation.yield(.value(value, characteristic))
    }
    func transport(didChange event: LinkEvent) { continuation.yield(.link(event)) }
}
