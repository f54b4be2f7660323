import AxonEventStore
import AxonRecording
import AxonStreams

/// The durable log of driving events and of their delivery in acknowledged batches (the seed's UDP events), in an
/// ``AxonEventStore/EventStore``.
///
/// Three streams of one source id (the vehicle or adapter) hold it, so nothing but the store's own API is needed:
/// - **OBD events**: every event, written (and `fsync`ed) when it is detected, keyed by ``OBDDrivingEvent/recordID``;
/// - **OBD event batches**: each batch once it is first delivered — its acknowledgement id and its events' ids;
/// - **OBD event acknowledgements**: one record per acknowledged batch.
///
/// GPS messages from ``GPSDClient``, when stored (``recordGPS(_:)``), go to two more streams of the same source id,
/// **GPS fixes** and **GPS satellites**, registered on first use with ``GPSDClient/fixDescriptor(sourceID:)`` and
/// ``GPSDClient/satellitesDescriptor(sourceID:)``.
///
/// Delivery: ``nextBatch()`` returns the oldest batch that was delivered but not acknowledged — the same id,
/// events and GPS messages again, however often the process was killed in between — or else makes a new batch of
/// the events and GPS messages in no batch yet. Once ``acknowledge(_:)`` has stored the acknowledgement, that batch
/// is never returned again, and its events are in no other batch. So an event is never lost, and never delivered
/// again once acknowledged.
///
/// Threading: `Sendable`; any thread. Making a batch is serialised by a lock so two callers in one process cannot
/// number two batches alike; each call blocks until SQLite is done. One process makes batches at a time (the
/// application's); ``OBDLogger`` writes events and GPS messages into the same store meanwhile and makes none.
public final class OBDEventLog: Sendable {
    /// The store.
    public let store: EventStore
    /// The vehicle's or adapter's source id of the log's streams.
    public let sourceID: String
    let events: StreamHandle
    let batches: StreamHandle
    let acknowledgements: StreamHandle
    private let batchLock = ThreadLocked(())
    /// The GPS streams, registered on first use (``recordGPS(_:)``, ``gpsFixes()``).
    let gpsStreams = ThreadLocked<(fixes: StreamHandle, satellites: StreamHandle)?>(nil)

    struct BatchRecord: Codable, Sendable, Equatable {
        var eventIDs: [String]
        /// The GPS fixes' record ids; `nil` in batches stored before batches carried GPS messages.
        var fixIDs: [String]?
        /// The satellite counts' record ids; `nil` likewise.
        var satelliteIDs: [String]?
    }

    struct AcknowledgementRecord: Codable, Sendable, Equatable {
        var acknowledgementID: String
    }

    /// Opens (registering its streams when new) the event log of `sourceID` in `store`.
    public init(store: EventStore, sourceID: String) throws(EventStoreError) {
        self.store = store
        self.sourceID = sourceID
        func stream(_ name: String) throws(EventStoreError) -> StreamHandle {
            try store.register(
                StreamDescriptor(
                    name: name, contentType: .obd, channels: [ChannelInfo(label: "payload", unit: "")],
                    nominalRate: 0, format: .event, sourceID: sourceID))
        }
        events = try stream("OBD events")
        batches = try stream("OBD event batches")
        acknowledgements = try stream("OBD event acknowledgements")
    }

    /// Stores an event durably (idempotent on its record id) and returns whether it was new.
    @discardableResult
    public func record(_ event: OBDDrivingEvent) throws(EventStoreError) -> InsertOutcome {
        try store.insert(events, deviceRecordID: event.recordID, deviceTime: event.startTime, payload: event)
    }

    /// Every stored event, oldest first; with `from`, those that started at or after it (Unix seconds).
    public func allEvents(from: Double? = nil) throws(EventStoreError) -> [OBDStoredDrivingEvent] {
        try store.events(in: events, from: from, as: OBDDrivingEvent.self).map {
            OBDStoredDrivingEvent(id: $0.deviceRecordID, event: $0.payload)
        }
    }

    /// The batch to deliver now: the oldest unacknowledged one, else a new one of the events and GPS messages in no
    /// batch, else `nil`. A new batch is stored before it is returned.
    ///
    /// Threading: any thread; serialised with other calls in this process. One process makes batches at a time
    /// (the application); ``OBDLogger``, which writes events and GPS messages meanwhile, makes none.
    /// Cost: reads every stored event, GPS message and batch record of the log.
    public func nextBatch() throws(EventStoreError) -> OBDEventBatch? {
        try batchLock.withLock { (_: inout ()) throws(EventStoreError) -> OBDEventBatch? in
            let stored = try store.events(in: batches, as: BatchRecord.self)
            let acknowledged = Set(try store.deviceRecordIDs(in: acknowledgements))
            let contents = try BatchContents(log: self)
            // Batch ids are "batch-N": ordered by N, not by text (batch-10 after batch-9).
            let ordered = stored.sorted { Self.number($0.deviceRecordID) < Self.number($1.deviceRecordID) }
            if let open = ordered.first(where: { !acknowledged.contains($0.deviceRecordID) }) {
                return contents.batch(id: open.deviceRecordID, record: open.payload)
            }
            let fresh = BatchRecord(
                eventIDs: Self.unbatched(contents.events.map(\.id), stored.flatMap(\.payload.eventIDs)),
                fixIDs: Self.unbatched(contents.fixes.map(\.id), stored.flatMap { $0.payload.fixIDs ?? [] }),
                satelliteIDs: Self.unbatched(
                    contents.satellites.map(\.id), stored.flatMap { $0.payload.satelliteIDs ?? [] }))
            guard !fresh.eventIDs.isEmpty || !(fresh.fixIDs ?? []).isEmpty || !(fresh.satelliteIDs ?? []).isEmpty
            else { return nil }
            let id = "batch-\((ordered.last.map { Self.number($0.deviceRecordID) } ?? 0) + 1)"
            try store.insert(batches, deviceRecordID: id, deviceTime: nil, payload: fresh)
            return contents.batch(id: id, record: fresh)
        }
    }

    /// The ids of `all` that are not in `batched`, in `all`'s order.
    static func unbatched(_ all: [String], _ batched: [String]) -> [String] {
        let batched = Set(batched)
        return all.filter { !batched.contains($0) }
    }

    /// Stores the acknowledgement of a delivered batch; acknowledging twice is harmless.
    ///
    /// - Throws: ``OBDGatewayError/unknownBatch(_:)`` when no batch has this id; ``OBDGatewayError/store(_:)``.
    public func acknowledge(_ acknowledgementID: String) throws(OBDGatewayError) {
        let known: Bool
        do { known = try store.contains(acknowledgementID, in: batches) } catch { throw .store(error) }
        guard known else { throw .unknownBatch(acknowledgementID) }
        do {
            try store.insert(
                acknowledgements, deviceRecordID: acknowledgementID,
                payload: AcknowledgementRecord(acknowledgementID: acknowledgementID))
        } catch { throw .store(error) }
    }

    /// Every delivered batch with its acknowledgement state, oldest first.
    public func deliveredBatches() throws(EventStoreError) -> [OBDEventBatchState] {
        let stored = try store.events(in: batches, as: BatchRecord.self)
            .sorted { Self.number($0.deviceRecordID) < Self.number($1.deviceRecordID) }
        let acknowledged = Set(try store.deviceRecordIDs(in: acknowledgements))
        let contents = try BatchContents(log: self)
        return stored.map {
            OBDEventBatchState(
                batch: contents.batch(id: $0.deviceRecordID, record: $0.payload),
                acknowledged: acknowledged.contains($0.deviceRecordID))
        }
    }

    static func number(_ batchID: String) -> Int {
        Int(batchID.split(separator: "-").last ?? "") ?? 0
    }
}
