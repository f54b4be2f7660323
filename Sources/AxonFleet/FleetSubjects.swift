import Foundation

/// The fleet's subjects, streams and buckets (docs/fleet.md).
///
/// | subject | stream | what |
/// |---|---|---|
/// | `axon.raw.<partition>.<device>` | `AXON_RAW` | a device's frames in batches (``FrameBatch``) |
/// | `axon.spectra.<device>` | `AXON_RESULTS` | one spectrum frame per hop |
/// | `axon.zones.<device>` | `AXON_RESULTS` | one indicator (zones) per indicator period |
/// | `axon.status.<device>` | `AXON_STATUS` | a gateway's latest status (last one per subject kept) |
/// | `axon.events.<sensor>` | `AXON_EVENTS` | irregular events of any sensor |
///
/// Buckets: `axon_leases` (TTL: worker presence and partition leases) and `axon_checkpoints` (engine state).
///
/// Threading: constants and pure functions.
public enum FleetSubjects {
    /// Raw streams are spread over this many partitions; a partition is the unit a worker leases.
    public static let partitionCount = 16
    /// The raw stream's name.
    public static let rawStream = "AXON_RAW"
    /// The results stream's name.
    public static let resultsStream = "AXON_RESULTS"
    /// The status stream's name.
    public static let statusStream = "AXON_STATUS"
    /// The events stream's name.
    public static let eventsStream = "AXON_EVENTS"
    /// The leases bucket.
    public static let leaseBucket = "axon_leases"
    /// The checkpoints bucket.
    public static let checkpointBucket = "axon_checkpoints"

    /// Throws unless `id` can be a subject token.
    public static func validate(deviceID id: String) throws(FleetError) {
        guard (1...64).contains(id.utf8.count),
            id.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                || (0x61...0x7A).contains($0) })
        else { throw .invalidDeviceID(id) }
    }

    /// The partition of a device: FNV-1a of its id modulo ``partitionCount`` (stable across processes and
    /// machines, unlike Swift's seeded `hashValue`).
    public static func partition(of device: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in device.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(partitionCount))
    }

    /// `axon.raw.<partition>.<device>`.
    public static func raw(_ device: String) -> String { "axon.raw.\(partition(of: device)).\(device)" }
    /// `axon.raw.<partition>.>`: every device of a partition.
    public static func rawPartition(_ partition: Int) -> String { "axon.raw.\(partition).>" }
    /// `axon.spectra.<device>`.
    public static func spectra(_ device: String) -> String { "axon.spectra.\(device)" }
    /// `axon.zones.<device>`.
    public static func zones(_ device: String) -> String { "axon.zones.\(device)" }
    /// `axon.status.<device>`.
    public static func status(_ device: String) -> String { "axon.status.\(device)" }
    /// `axon.events.<sensor>`.
    public static func events(_ sensor: String) -> String { "axon.events.\(sensor)" }

    /// The device token of a raw, spectra, zones or status subject (its last token).
    public static func device(ofSubject subject: String) -> String {
        subject.split(separator: ".").last.map(String.init) ?? ""
    }

    /// The four streams with `replicas` copies each (3 on a 3-node cluster; 1 for a single development server).
    /// Limits-based retention everywhere: data leaves by age or size, never because someone read it, so a worker
    /// resuming from a checkpoint can always re-read what came after it.
    public static func streams(replicas: Int) -> [FleetStreamSpec] {
        [
            FleetStreamSpec(
                name: rawStream, subjects: ["axon.raw.>"], replicas: replicas, maxAge: 24 * 3600, maxBytes: 8 << 30,
                maxMessageSize: 1 << 20, duplicateWindow: 600),
            FleetStreamSpec(
                name: resultsStream, subjects: ["axon.spectra.>", "axon.zones.>"], replicas: replicas,
                maxAge: 7 * 24 * 3600, maxBytes: 8 << 30, maxMessageSize: 1 << 20, duplicateWindow: 600),
            FleetStreamSpec(
                name: statusStream, subjects: ["axon.status.>"], replicas: replicas, maxAge: 24 * 3600,
                maxBytes: 256 << 20, maxMessagesPerSubject: 1, maxMessageSize: 64 << 10, duplicateWindow: 60),
            FleetStreamSpec(
                name: eventsStream, subjects: ["axon.events.>"], replicas: replicas, maxAge: 30 * 24 * 3600,
                maxBytes: 1 << 30, maxMessageSize: 64 << 10, duplicateWindow: 600),
        ]
    }

    /// Creates (or updates) the streams and buckets. Idempotent; every gateway and worker calls it at start.
    ///
    /// A replicated stream's creation or update is a proposal to its group; while a cluster elects leaders (just
    /// started, a server lost, a loaded machine) it can time out. Timeouts are retried for `patience` seconds; any
    /// other error is thrown at once.
    public static func ensure(on nats: NATSConnection, replicas: Int, patience: Double = 30) throws(NATSError) {
        let deadline = Date().addingTimeInterval(patience)
        func retrying(_ step: () throws(NATSError) -> Void) throws(NATSError) {
            while true {
                do throws(NATSError) {
                    return try step()
                } catch where error.isTimeout && Date() < deadline {
                    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 0.5)
                }
            }
        }
        for spec in streams(replicas: replicas) { try retrying { () throws(NATSError) in try nats.ensureStream(spec) } }
        try retrying { () throws(NATSError) in
            _ = try nats.keyValue(bucket: leaseBucket, ttl: FleetWorker.Options.leaseBucketTTL, replicas: replicas)
        }
        try retrying { () throws(NATSError) in
            _ = try nats.keyValue(bucket: checkpointBucket, ttl: 0, replicas: replicas, maxValueSize: 1 << 20)
        }
    }
}

/// One JetStream stream's configuration: limits retention, file storage, discard oldest.
///
/// Threading: a plain value, `Sendable`.
public struct FleetStreamSpec: Sendable, Hashable {
    /// Stream name.
    public var name: String
    /// Subjects it stores.
    public var subjects: [String]
    /// Copies on distinct servers.
    public var replicas: Int
    /// Seconds a message is kept.
    public var maxAge: Double
    /// Bytes kept at most (oldest discarded).
    public var maxBytes: Int64
    /// Messages kept per subject (-1 = no limit).
    public var maxMessagesPerSubject: Int64
    /// Largest message accepted, bytes.
    public var maxMessageSize: Int32
    /// Seconds within which a repeated `Nats-Msg-Id` is recognised and not stored again.
    public var duplicateWindow: Double

    /// Creates a spec.
    public init(
        name: String, subjects: [String], replicas: Int, maxAge: Double, maxBytes: Int64,
        maxMessagesPerSubject: Int64 = -1, maxMessageSize: Int32, duplicateWindow: Double
    ) {
        self.name = name
        self.subjects = subjects
        self.replicas = replicas
        self.maxAge = maxAge
        self.maxBytes = maxBytes
        self.maxMessagesPerSubject = maxMessagesPerSubject
        self.maxMessageSize = maxMessageSize
        self.duplicateWindow = duplicateWindow
    }
}
