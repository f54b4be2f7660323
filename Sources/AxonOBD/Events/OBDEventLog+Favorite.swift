import AxonEventStore
import AxonRecording
import AxonStreams

extension OBDEventLog {
    /// One stored choice of favourite: the device, or `nil` once forgotten; `revision` orders them.
    struct FavoriteRecord: Codable, Sendable, Equatable {
        var revision: Int
        var device: OBDDevice?
    }

    /// The favourite device's stream in the log's store (same source id): one event per change.
    func favoriteStream() throws(EventStoreError) -> StreamHandle {
        try store.register(
            StreamDescriptor(
                name: "OBD favourite device", contentType: .obd, channels: [ChannelInfo(label: "payload", unit: "")],
                nominalRate: 0, format: .event, sourceID: sourceID))
    }

    /// The favourite stored last (`nil`: none was set, or it was forgotten).
    public func storedFavorite() throws(EventStoreError) -> OBDDevice? {
        let stream = try favoriteStream()
        return try store.events(in: stream, as: FavoriteRecord.self).last?.payload.device
    }

    /// Stores `device` as the favourite (`nil`: forgotten), durably before it returns.
    public func storeFavorite(_ device: OBDDevice?) throws(EventStoreError) {
        let stream = try favoriteStream()
        let revision = try store.count(in: stream) + 1
        _ = try store.insert(
            stream, deviceRecordID: "favorite/\(revision)", deviceTime: Double(revision),
            payload: FavoriteRecord(revision: revision, device: device))
    }
}
