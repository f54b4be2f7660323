import AxonEventStore
import AxonRecording
import AxonStreams

extension BandRecordStore {
    /// The descriptor of the band's schedule stream: one event per accepted schedule change, each holding the
    /// whole ``BandScheduleBook`` after it (a handful of entries), so the newest event is what the band holds.
    public static func schedulesDescriptor(sourceID: String) -> StreamDescriptor {
        StreamDescriptor(
            name: "Band schedules", contentType: .status, channels: [], nominalRate: 0, format: .event,
            sourceID: sourceID, metadata: ["protocol": BandFrame.protocolLabel])
    }

    /// The schedules the band accepted in earlier sessions: the newest book stored, or an empty one.
    ///
    /// Threading: any thread; reads a snapshot.
    /// - Throws: ``AxonEventStore/EventStoreError``.
    public func schedules() throws(EventStoreError) -> BandScheduleBook {
        let handle = try store.register(Self.schedulesDescriptor(sourceID: sourceID), ifChanged: .replace)
        guard let newest = try store.events(in: handle, as: ScheduleBookRevision.self).last else { return .init() }
        return newest.payload.book
    }

    /// Stores `book` as the band's schedules after an accepted change: revision n + 1, durable on return.
    ///
    /// Threading: any thread; one write transaction.
    /// - Throws: ``AxonEventStore/EventStoreError``.
    public func saveSchedules(_ book: BandScheduleBook) throws(EventStoreError) {
        let handle = try store.register(Self.schedulesDescriptor(sourceID: sourceID), ifChanged: .replace)
        let revision = try store.count(in: handle) + 1
        _ = try store.insert(
            handle, deviceRecordID: "schedules/\(revision)", deviceTime: Double(revision),
            payload: ScheduleBookRevision(revision: revision, book: book))
    }
}

/// One stored state of a band's schedules; `revision` orders them (it is also the event's time).
struct ScheduleBookRevision: Codable, Sendable {
    var revision: Int
    var book: BandScheduleBook
}
