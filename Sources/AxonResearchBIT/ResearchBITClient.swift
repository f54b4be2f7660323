import AxonDevices
import AxonEventStore
import AxonRecording
import Foundation

/// Fetches a ResearchBIT device's summary data over any ``AxonDevices/DeviceTransport`` into the event store (the
/// SDK's `getBLEDeviceSummaryData`). Each event is stored before it is acknowledged, so a fetch cut short leaves
/// the rest on the device and the next fetch resumes without duplicates.
///
///     let client = ResearchBITClient(transport: transport, store: store, address: device.address)
///     let result = try await client.fetch()
///     for session in result.sessions { print(session.pulls, session.awakeSeconds) }
///
/// Threading contract: an actor; any task. The transport's delivery thread only enqueues.
public actor ResearchBITClient {
    /// What a fetch brought.
    public struct FetchResult: Sendable, Hashable {
        /// Every event received in this fetch, in order (re-sent ones included once).
        public var events: [SummaryEvent] = []
        /// Inserted.
        public var inserted = 0
        /// Duplicates.
        public var duplicates = 0
        /// Link losses.
        public var linkLosses = 0
        /// Battery level in percent.
        public var battery: Int?
        /// All events stored for the device (earlier fetches too) paired into sessions by wake-up time.
        public var sessions: [ResearchBITSession] = []
        /// Stored events still without a partner.
        public var unpaired: [SummaryEvent] = []
        /// When the fetch completed: the device's new last sync time (``ResearchBITStore/lastSyncTime(of:)``).
        public var syncTime: Date?
    }

    /// The link to the device.
    public nonisolated let transport: any DeviceTransport
    /// The event store.
    public nonisolated let store: ResearchBITStore
    /// Where its data is kept: the device's ``ResearchBITDevice/storeKey`` (its address unless that changed).
    public nonisolated let address: String
    /// Where its characteristics are.
    public nonisolated let profile: ResearchBITProfile
    /// Idle timeout.
    public nonisolated let idleTimeout: Double

    private var result = FetchResult()
    private var waiter: CheckedContinuation<Void, any Error>?
    private var lastStored: UInt32 = 0
    private var lastActivity = Date()
    private var linkDown = false
    private var malformedInARow = 0
    private var seen = Set<UUID>()

    /// Creates a value from its fields.
    public init(
        transport: any DeviceTransport, store: ResearchBITStore, address: String,
        profile: ResearchBITProfile = .init(), idleTimeout: Double = 15
    ) {
        self.transport = transport
        self.store = store
        self.address = address
        self.profile = profile
        self.idleTimeout = idleTimeout
    }

    /// Connects, takes every event the device holds into the store, closes.
    ///
    /// - Throws: ``ResearchBITError``; what was stored stays stored.
    public func fetch() async throws(ResearchBITError) -> FetchResult {
        result = FetchResult()
        let (stream, continuation) = AsyncStream<Item>.makeStream()
        do { try await transport.open(notifications: [profile.summary], receiver: Receiver(continuation)) } catch {
            throw .transport(error)
        }
        lastActivity = Date()
        let pump = Task {
            for await item in stream { await self.handle(item) }
        }
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                self.checkIdle()
            }
        }
        defer {
            watchdog.cancel()
            pump.cancel()
        }
        var failure: ResearchBITError?
        do {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                waiter = c
                Task { await self.request() }
            }
        } catch let error as ResearchBITError {
            failure = error
        } catch {
            failure = .transport(.operationFailed("\(error)", cause: error))
        }
        await transport.close()
        continuation.finish()
        if let failure { throw failure }
        do {
            let now = Date()
            try store.recordSync(of: address, at: now)
            result.syncTime = now
            let all = try store.storedEvents(of: address)
            (result.sessions, result.unpaired) = ResearchBITSession.pair(all)
        } catch {
            throw .store(error)
        }
        return result
    }

    private func request() async {
        do {
            try await write(.status)
            try await write(.fetch(after: lastStored))
        } catch {
            if !linkDown { finish(throwing: error) }
        }
    }

    private func handle(_ item: Item) async {
        // Only the device's own notifications count as activity: a transport retrying a device that left range
        // reports link events for ever.
        if case .value = item { lastActivity = Date() }
        switch item {
        case .link(.linkLost):
            linkDown = true
            result.linkLosses += 1
        case .link(.ready) where linkDown:
            linkDown = false
            try? await write(.fetch(after: lastStored))
        case .link: break
        case .value(let bytes):
            let notification: ResearchBITNotification
            do { notification = try ResearchBITNotification(decoding: bytes) } catch {
                malformedInARow += 1
                if malformedInARow > 3 {
                    finish(throwing: .malformed(error))
                } else {
                    try? await write(.fetch(after: lastStored))
                }
                return
            }
            malformedInARow = 0
            switch notification {
            case .status(let battery, _): result.battery = battery
            case .done: finish(throwing: nil)
            case .event(let sequence, let event):
                let outcome: InsertOutcome
                do { outcome = try store.insert(event, device: address) } catch {
                    finish(throwing: .store(error))
                    return
                }
                if outcome == .inserted { result.inserted += 1 } else { result.duplicates += 1 }
                if seen.insert(event.id).inserted { result.events.append(event) }
                lastStored = max(lastStored, sequence)
                try? await write(.acknowledge(sequence: sequence))
            }
        }
    }

    private func write(_ command: ResearchBITCommand) async throws(ResearchBITError) {
        do { try await transport.write(command.bytes, to: profile.command, withResponse: true) } catch {
            throw .transport(error)
        }
    }

    private func checkIdle() {
        if waiter != nil, Date().timeIntervalSince(lastActivity) > idleTimeout {
            finish(throwing: .timedOut(seconds: idleTimeout))
        }
    }

    private func finish(throwing error: ResearchBITError?) {
        guard let waiter else { return }
        self.waiter = nil
        if let error { waiter.resume(throwing: error) } else { waiter.resume() }
    }

    enum Item: Sendable {
        case value([UInt8])
        case link(LinkEvent)
    }

    private final class Receiver: TransportReceiver, Sendable {
        let continuation: AsyncStream<Item>.Continuation
        init(_ continuation: AsyncStream<Item>.Continuation) { self.continuation = continuation }
        func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
            continuation.yield(.value(value))
        }
        func transport(didChange event: LinkEvent) { continuation.yield(.link(event)) }
    }
}
