import AxonOBD
import Foundation

/// `axon obd events --json`: the batches acknowledged before this run by id, then each batch delivered now with
/// its events and GPS messages.
struct OBDEventsJSON: Encodable {
    struct Event: Encodable {
        var id: String
        var kind: String
        /// Unix seconds.
        var startTime: Double
        var endTime: Double
        var startSpeedKmh: Double
        var endSpeedKmh: Double
        var startSpeedMph: Double
        var endSpeedMph: Double
        var peakRateMphPerSecond: Double
        var value: Double?
        var position: OBDPosition?

        init(_ stored: OBDStoredDrivingEvent) {
            let event = stored.event
            id = stored.id
            kind = event.kind.rawValue
            startTime = event.startTime
            endTime = event.endTime
            startSpeedKmh = event.startSpeedKmh
            endSpeedKmh = event.endSpeedKmh
            startSpeedMph = event.startSpeedMph
            endSpeedMph = event.endSpeedMph
            peakRateMphPerSecond = event.peakRateMphPerSecond
            value = event.value
            position = event.position
        }
    }

    /// A fix (`type` "fix": time, latitude, longitude, altitude, speed, track, mode) or a satellite count (`type`
    /// "satellites": time, seen, used).
    struct GPS: Encodable {
        var id: String
        var type: String
        var time: Double?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var speed: Double?
        var track: Double?
        var mode: Int?
        var seen: Int?
        var used: Int?

        init(_ stored: OBDStoredGPSMessage) {
            id = stored.id
            switch stored.report {
            case .fix(let fix):
                type = "fix"
                time = fix.time
                latitude = fix.latitude
                longitude = fix.longitude
                altitude = fix.altitude
                speed = fix.speed
                track = fix.track
                mode = fix.mode
            case .satellites(let satellites):
                type = "satellites"
                time = satellites.time
                seen = satellites.seen
                used = satellites.used
            }
        }
    }

    struct Batch: Encodable {
        var acknowledgementID: String
        /// Whether this run acknowledged it (`--ack`).
        var acknowledged: Bool
        var events: [Event]
        var gps: [GPS]
    }

    /// Ids of the batches acknowledged before this run.
    var acknowledgedBefore: [String] = []
    /// The batches delivered now.
    var batches: [Batch] = []

    mutating func append(_ batch: OBDEventBatch, acknowledged: Bool) {
        batches.append(
            Batch(
                acknowledgementID: batch.acknowledgementID, acknowledged: acknowledged,
                events: batch.events.map(Event.init), gps: batch.gps.map(GPS.init)))
    }

    func printed() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
