import AxonEventStore
import AxonRecording
import AxonStreams
import Foundation

extension OBDEventLog {
    /// The two GPS streams, registered the first time they are needed.
    func gpsStreamHandles() throws(EventStoreError) -> (fixes: StreamHandle, satellites: StreamHandle) {
        try gpsStreams.withLock { (cached: inout (fixes: StreamHandle, satellites: StreamHandle)?) throws(EventStoreError) in
            if let cached { return cached }
            let handles = (
                fixes: try store.register(GPSDClient.fixDescriptor(sourceID: sourceID)),
                satellites: try store.register(GPSDClient.satellitesDescriptor(sourceID: sourceID))
            )
            cached = handles
            return handles
        }
    }

    /// Stores one GPS message durably and returns whether it was new.
    ///
    /// A fix is keyed by its time and mode and a satellite count by its time and counts, so the same report read
    /// again (gpsd repeats a cycle's `TPV` as sentences arrive; a replayed log starts over) is stored once, and the
    /// 2D and 3D fixes of one cycle are both kept. The record's device time is the receiver's time.
    ///
    /// Threading: any thread; one write transaction (an `fsync`).
    @discardableResult
    public func recordGPS(_ message: GPSMessage) throws(EventStoreError) -> InsertOutcome {
        let streams = try gpsStreamHandles()
        let hostTime = HostClock.unixNow()
        switch message {
        case .fix(let sample):
            let fix = sample.payload
            return try store.insert(
                streams.fixes, deviceRecordID: String(format: "%.3f/%d", fix.time, fix.mode), deviceTime: fix.time,
                hostTime: hostTime, payload: fix)
        case .satellites(let sample):
            let satellites = sample.payload
            let when = satellites.time.map { String(format: "%.3f", $0) } ?? String(format: "host %.6f", hostTime)
            return try store.insert(
                streams.satellites, deviceRecordID: "\(when)/\(satellites.seen)/\(satellites.used)",
                deviceTime: satellites.time, hostTime: hostTime, payload: satellites)
        }
    }

    /// Every stored fix, in the receiver's time order.
    ///
    /// Threading: any thread; reads a committed snapshot.
    public func gpsFixes() throws(EventStoreError) -> [GPSFix] {
        try store.events(in: try gpsStreamHandles().fixes, as: GPSFix.self).map(\.payload)
    }

    /// Every stored satellite count, in time order.
    ///
    /// Threading: any thread; reads a committed snapshot.
    public func gpsSatellites() throws(EventStoreError) -> [GPSSatellites] {
        try store.events(in: try gpsStreamHandles().satellites, as: GPSSatellites.self).map(\.payload)
    }
}
