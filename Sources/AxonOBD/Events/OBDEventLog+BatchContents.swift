import AxonEventStore
import AxonRecording

extension OBDEventLog {
    /// Every stored event and GPS message of a log, by record id: what batch records are resolved against.
    struct BatchContents {
        var events: [OBDStoredDrivingEvent]
        var fixes: [(id: String, fix: GPSFix)]
        var satellites: [(id: String, satellites: GPSSatellites)]

        /// Reads the log's events and GPS streams.
        init(log: OBDEventLog) throws(EventStoreError) {
            events = try log.allEvents()
            let streams = try log.gpsStreamHandles()
            fixes = try log.store.events(in: streams.fixes, as: GPSFix.self).map { ($0.deviceRecordID, $0.payload) }
            satellites = try log.store.events(in: streams.satellites, as: GPSSatellites.self).map {
                ($0.deviceRecordID, $0.payload)
            }
        }

        /// The batch a record names: its events in their order, its GPS messages in the receiver's time order (a
        /// fix before the satellite count of the same cycle).
        func batch(id: String, record: BatchRecord) -> OBDEventBatch {
            let eventsByID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let fixesByID = Dictionary(fixes.map { ($0.id, $0.fix) }, uniquingKeysWith: { first, _ in first })
            let skiesByID = Dictionary(
                satellites.map { ($0.id, $0.satellites) }, uniquingKeysWith: { first, _ in first })
            let gps =
                (record.fixIDs ?? []).compactMap { id in
                    fixesByID[id].map { OBDStoredGPSMessage(id: id, report: .fix($0)) }
                }
                + (record.satelliteIDs ?? []).compactMap { id in
                    skiesByID[id].map { OBDStoredGPSMessage(id: id, report: .satellites($0)) }
                }
            let ordered = gps.enumerated().sorted { a, b in
                (a.element.time ?? -.infinity, a.offset) < (b.element.time ?? -.infinity, b.offset)
            }.map(\.element)
            return OBDEventBatch(
                acknowledgementID: id, events: record.eventIDs.compactMap { eventsByID[$0] }, gps: ordered)
        }
    }
}
