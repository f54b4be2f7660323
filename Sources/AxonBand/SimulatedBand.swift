import AxonDevices
import Dispatch
import Foundation

/// A band as a ``AxonDevices/DeviceTransport``: it holds a week of records (``week(today:days:seed:)``), answers
/// Axon's band framing exactly as docs/band-protocol.md says — one record at a time, the next after the previous
/// one's acknowledgement, a record forgotten only once acknowledged — checks settings by the seed's rules
/// (answering `rejected` as the real band's `responseOfScheduleSetting:NO` does), and notifies live heart rate on
/// 0x2A37 while subscribed. Link losses, a departure out of range and damaged notifications can be injected after
/// chosen records. Like a real band it can be
/// connected again after ``close()`` (another session, another phone); ``events`` spans all connections.
///
/// Threading contract: `Sendable`; methods from any task. Everything happens on one serial queue, which is also
/// the receiver's delivery thread.
public final class SimulatedBand: DeviceTransport, @unchecked Sendable {
    // Sendable invariant: every mutable property is touched on `queue` only.

    /// What the simulated band is.
    public struct Configuration: Sendable {
        /// The band model.
        public var model: BandModel
        /// The name the device gives itself.
        public var name: String
        /// Firmware.
        public var firmware: String
        /// Battery level in percent.
        public var battery: Int
        /// The band's today: the week ends the day before.
        public var today: BandDate
        /// Days.
        public var days: Int
        /// Seed of the deterministic data.
        public var seed: UInt64
        /// Lose the link right after sending these record notifications (1 = the first record sent).
        public var linkLossAfterRecords: Set<Int>
        /// Seconds the link stays down after an injected loss.
        public var outage: Double
        /// After this many record notifications the band leaves range until the next
        /// ``SimulatedBand/open(notifications:receiver:)`` (a sync cut short).
        public var vanishAfterRecords: Int?
        /// Record notifications (1 = the first sent) whose checksum is damaged on the way.
        public var corruptRecords: Set<Int>
        /// Seconds between live heart-rate notifications.
        public var heartRatePeriod: Double
        /// The hourly heart-rate auto-sync as the band starts: off, as the seed's band until the app's
        /// `getHRDataOfHours` (``BandCommand/heartRateAutoSync(_:)``) switches it on; `true` for a band an earlier
        /// session switched on. A reset switches it off again.
        public var heartRateAutoSync: Bool
        /// Records the band makes right after sending these record notifications (1 = the first sent): something
        /// completing during a sync, as ``SimulatedBand/complete(_:)`` does outside one.
        public var madeAfterRecords: [Int: BandRecordContent]
        /// Creates a value from its fields.
        public init(
            model: BandModel = .smarteeTraining, name: String = "Smartee-0001", firmware: String = "3.1.4",
            battery: Int = 83, today: BandDate = BandDate(Date(), timeZone: .current), days: Int = 7, seed: UInt64 = 7,
            linkLossAfterRecords: Set<Int> = [], outage: Double = 0.05, vanishAfterRecords: Int? = nil,
            corruptRecords: Set<Int> = [], heartRatePeriod: Double = 1, heartRateAutoSync: Bool = false,
            madeAfterRecords: [Int: BandRecordContent] = [:]
        ) {
            self.model = model
            self.name = name
            self.firmware = firmware
            self.battery = battery
            self.today = today
            self.days = days
            self.seed = seed
            self.linkLossAfterRecords = linkLossAfterRecords
            self.outage = outage
            self.vanishAfterRecords = vanishAfterRecords
            self.corruptRecords = corruptRecords
            self.heartRatePeriod = heartRatePeriod
            self.heartRateAutoSync = heartRateAutoSync
            self.madeAfterRecords = madeAfterRecords
        }
    }

    /// What the simulated device is.
    public let configuration: Configuration
    /// Where its characteristics are.
    public let profile = BandGATTProfile()
    /// Link events of every connection (see ``AxonDevices/DeviceTransport``).
    public let events: AsyncStream<LinkEvent>
    /// How the device is named in reports.
    public var deviceDescription: String { "sim:band (\(configuration.name))" }

    private let eventContinuation: AsyncStream<LinkEvent>.Continuation
    private let queue = DispatchQueue(label: "axon.simulated-band")
    private var receiver: (any TransportReceiver)?
    private var linkUp = false
    private var closed = false
    private var heartRateOn = false
    private var heartRateTimer: DispatchSourceTimer?
    private var heartRateSent = 0
    private var pending: [BandRecord] = []
    private var nextSequence: UInt32 = 1
    private var inFlight: UInt32?
    /// A sync asked for and not done yet: records the band makes meanwhile join its stop-and-wait order.
    private var syncing = false
    /// Records pushed in this connection and not acknowledged yet: a sync does not send them again meanwhile.
    private var awaitingAck: Set<UInt32> = []
    private var recordsSent = 0
    /// Sequence numbers of the records sent at least once.
    private var sent: Set<UInt32> = []
    private var book = BandScheduleBook()
    private var commandLog: [[UInt8]] = []
    private var settings: [UInt8: BandCommand] = [:]
    /// The auto-sync switches (``BandCommand/heartRateAutoSync(_:)``, ``BandCommand/sportDataAutoSync(_:)``).
    private var hourlyHeartRateOn: Bool
    private var sportDataOn = true

    /// Creates a value from its fields.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        hourlyHeartRateOn = configuration.heartRateAutoSync
        (events, eventContinuation) = AsyncStream.makeStream()
        for content in Self.week(today: configuration.today, days: configuration.days, seed: configuration.seed) {
            append(content)
        }
    }

    // MARK: - What tests look at (any thread)

    /// Records the band still holds (sent but not acknowledged, or not sent yet).
    public var pendingRecords: [BandRecord] { queue.sync { pending } }
    /// Record notifications sent so far (re-sends included).
    public var recordNotificationsSent: Int { queue.sync { recordsSent } }
    /// Every settings command frame received (type ≥ 0x40), byte for byte, in order, accepted or not.
    public var receivedSettingFrames: [[UInt8]] { queue.sync { commandLog } }
    /// The last accepted command of each settings type.
    public var acceptedSettings: [UInt8: BandCommand] { queue.sync { settings } }
    /// The schedules the band holds.
    public var schedules: BandScheduleBook { queue.sync { book } }

    /// Puts `book` in the band's memory, replacing what it held: a band kept across host restarts, for a command
    /// line that makes its simulated band anew each time (the schedules come from the event store), or schedules
    /// another phone wrote, which a session knows only once it reads them (``BandSession/readSchedules()``).
    public func restoreSchedules(_ book: BandScheduleBook) { queue.sync { self.book = book } }

    /// Adds a record as if the band had just made it.
    public func add(_ content: BandRecordContent) { queue.sync { append(content) } }

    /// Someone presses the take-picture or search-phone button (`content` is `.takePicture` or `.searchPhone`):
    /// the band makes the record and, while connected, sends it at once, in or out of a sync; like any record it
    /// forgets it only once acknowledged, so an unacknowledged press comes again in the next sync.
    public func press(_ content: BandRecordContent) {
        precondition(content.isButtonPress, "press takes .takePicture or .searchPhone")
        queue.sync {
            append(content)
            guard linkUp, let record = pending.last else { return }
            push(record)
        }
    }

    /// Something completes on the band as the wearer goes — an hour of heart rate (`.heartRate`, the seed's
    /// `HeartRateDataHoursNotification` at the turn of the hour), a sport session (`.sport`), a day's totals or a
    /// sleep segment: the band makes the record and, while connected with no sync running and the record's
    /// auto-sync switch on, pushes it at once (a real band's push, in Axon's framing an ordinary record frame).
    /// Otherwise it keeps it: a running sync sends it in its order, a later sync sends it. Like any record it is
    /// forgotten only once acknowledged. Whether it was pushed at once.
    @discardableResult
    public func complete(_ content: BandRecordContent) -> Bool {
        queue.sync {
            append(content)
            guard linkUp, !syncing, let record = pending.last, offers(record) else { return false }
            push(record)
            return true
        }
    }

    // MARK: - DeviceTransport

    /// Connects the simulated link (see ``AxonDevices/DeviceTransport``).
    public func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver)
        async throws(TransportError)
    {
        let result: TransportError? = queue.sync {
            for id in notifications where id != profile.records && id != profile.heartRate {
                return .characteristicMissing(id)
            }
            self.receiver = receiver
            closed = false
            linkUp = true
            for event in [LinkEvent.connecting(attempt: 1), .connected, .servicesResolved] { deliver(event) }
            for id in notifications { deliver(.notifying(id)) }
            deliver(.ready)
            if notifications.contains(profile.heartRate) { startHeartRate() }
            return nil
        }
        if let result { throw result }
    }

    /// Reads a characteristic (see ``AxonDevices/DeviceTransport``).
    public func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8] {
        let result: Result<[UInt8], TransportError> = queue.sync {
            guard linkUp else { return .failure(closed ? .closed : .notConnected) }
            guard characteristic.characteristic == BluetoothUUID.batteryLevel else {
                return .failure(.characteristicMissing(characteristic))
            }
            return .success([UInt8(configuration.battery)])
        }
        return try result.get()
    }

    /// Handles a write as the device would (see ``AxonDevices/DeviceTransport``).
    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        async throws(TransportError)
    {
        let result: TransportError? = queue.sync {
            guard linkUp else { return closed ? .closed : .notConnected }
            guard characteristic == profile.command else { return .characteristicMissing(characteristic) }
            guard let command = try? BandCommand(decoding: value) else {
                return .operationFailed("org.bluez.Error.InvalidValueLength: not a band command")
            }
            if command.type >= 0x40 { commandLog.append(value) }
            handle(command)
            return nil
        }
        if let result { throw result }
    }

    /// Disconnects (see ``AxonDevices/DeviceTransport``); the device keeps what was not acknowledged.
    public func close() async {
        queue.sync {
            guard !closed else { return }
            closed = true
            linkUp = false
            inFlight = nil
            syncing = false
            awaitingAck = []
            heartRateTimer?.cancel()
            heartRateTimer = nil
            deliver(.closed)
            receiver = nil
        }
    }

    // MARK: - The band's behaviour (on the queue)

    private func append(_ content: BandRecordContent) {
        pending.append(BandRecord(sequence: nextSequence, content: content))
        nextSequence += 1
    }

    private func handle(_ command: BandCommand) {
        switch command {
        case .sync(let after):
            // Forgets what it sent up to `after`; records held back by a switched-off auto-sync were never sent.
            pending.removeAll { $0.sequence <= after && sent.contains($0.sequence) }
            syncing = true
            sendNext()
        case .acknowledge(let sequence):
            pending.removeAll { $0.sequence == sequence }
            awaitingAck.remove(sequence)
            if inFlight == sequence {
                inFlight = nil
                sendNext()
            }
        case .getDeviceInfo:
            notify(
                .deviceInfo(
                    BandDeviceInfo(
                        model: configuration.model, firmware: configuration.firmware, name: configuration.name)))
        case .getBattery: notify(.battery(configuration.battery))
        case .getSupportedSports: answer(Self.supportedSports.records.map { .supportedSport($0) })
        case .getCurrentSportData: answer(Self.todayTotals.map { .today($0) })
        case .readScheduleInfo(let date): notify(.scheduleInfo(book.info(on: date)))
        case .readSchedules: for entry in BandScheduleEntry.answer(book) { notify(.scheduleEntry(entry)) }
        default:
            let accepted: Bool
            do {
                try command.validate(model: configuration.model, schedules: book)
                accepted = true
            } catch {
                accepted = false
            }
            if accepted {
                book.apply(command)
                settings[command.type] = command
                switch command {
                case .heartRateAutoSync(let on): hourlyHeartRateOn = on
                case .sportDataAutoSync(let on): sportDataOn = on
                case .reset:
                    settings = [:]
                    (hourlyHeartRateOn, sportDataOn) = (false, true)
                default: break
                }
            }
            notify(.response(command: command.type, accepted: accepted))
        }
    }

    /// Whether the band sends `record` (in a sync, or pushed): hourly heart rate only while heart-rate auto-sync is
    /// on (off until switched on, the seed's `getHRDataOfHours`); activity and sport data — sport sessions,
    /// whole-day totals, sleep — only while sport-data auto-sync is on (on until switched off, the seed's
    /// `sportDataSwichOn:`). Today's totals answer their own request and the rest is always sent.
    private func offers(_ record: BandRecord) -> Bool {
        switch record.content {
        case .heartRate: hourlyHeartRateOn
        case .sport, .day, .sleep: sportDataOn
        default: true
        }
    }

    /// Records answering a request (today's totals, the supported sports): pushed at once while no sync runs, else
    /// sent in the sync's order.
    private func answer(_ contents: [BandRecordContent]) {
        for content in contents {
            append(content)
            if linkUp, !syncing, let record = pending.last { push(record) }
        }
    }

    private func sendNext() {
        guard linkUp else { return }
        guard let record = pending.first(where: { offers($0) && !awaitingAck.contains($0.sequence) }) else {
            inFlight = nil
            syncing = false
            notify(.syncDone(lastSequence: nextSequence - 1))
            return
        }
        inFlight = record.sequence
        recordsSent += 1
        sent.insert(record.sequence)
        var bytes = BandNotification.record(record).bytes
        if configuration.corruptRecords.contains(recordsSent) { bytes[bytes.count - 1] &+= 1 }
        receiver?.transport(didReceive: bytes, from: profile.records, arrivalTime: Self.now())
        if let made = configuration.madeAfterRecords[recordsSent] { append(made) }
        if configuration.vanishAfterRecords == recordsSent {
            linkUp = false
            inFlight = nil
            syncing = false
            awaitingAck = []
            deliver(.linkLost(reason: "out of range"))
        } else if configuration.linkLossAfterRecords.contains(recordsSent) {
            loseLink()
        }
    }

    private func loseLink() {
        linkUp = false
        inFlight = nil
        awaitingAck = []
        deliver(.linkLost(reason: "simulated link loss"))
        queue.asyncAfter(deadline: .now() + configuration.outage) { [self] in
            guard !closed else { return }
            linkUp = true
            for event in [LinkEvent.connecting(attempt: 1), .connected, .servicesResolved, .ready] { deliver(event) }
        }
    }

    /// Sends `record` at once, outside any stop-and-wait order.
    private func push(_ record: BandRecord) {
        sent.insert(record.sequence)
        awaitingAck.insert(record.sequence)
        receiver?.transport(
            didReceive: BandNotification.record(record).bytes, from: profile.records, arrivalTime: Self.now())
    }

    private func notify(_ notification: BandNotification) {
        receiver?.transport(didReceive: notification.bytes, from: profile.records, arrivalTime: Self.now())
    }

    private func deliver(_ event: LinkEvent) {
        eventContinuation.yield(event)
        receiver?.transport(didChange: event)
    }

    /// Live heart rate: cycles through every flag combination the decoder handles.
    private func startHeartRate() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + configuration.heartRatePeriod, repeating: configuration.heartRatePeriod)
        timer.setEventHandler { [weak self] in self?.sendHeartRate() }
        timer.resume()
        heartRateTimer = timer
    }

    private func sendHeartRate() {
        guard linkUp, let receiver else { return }
        let n = heartRateSent
        heartRateSent += 1
        let bpm = 64 + (n * 7) % 40
        let packet = HeartRateMeasurement.encode(
            beatsPerMinute: bpm, sixteenBit: n % 2 == 1, contact: n % 3 == 0 ? .detected : .notDetected,
            energyExpended: n % 4 >= 2 ? 100 + n : nil, rrUnits: n % 8 >= 4 ? [UInt16(61_440 / bpm)] : [])
        receiver.transport(didReceive: packet, from: profile.heartRate, arrivalTime: Self.now())
    }

    private static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
