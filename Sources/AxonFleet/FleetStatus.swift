import Foundation

/// `axon fleet status`: the live workers with their partitions, devices, lag and counters (their presence values
/// in `axon_leases`), who holds each partition, each gateway's latest status (spool sizes, drops) and the streams'
/// sizes.
///
/// Threading: ``read(nats:)`` blocks the caller while it reads.
public enum FleetStatus {
    /// The whole picture.
    public struct Report: Sendable, Codable {
        /// Live workers (presence renewed within twice the lease time, judged by the reports' clocks).
        public var workers: [FleetWorker.Statistics]
        /// Workers whose presence is still in the bucket but no longer renewed (stopped or dead).
        public var staleWorkers: [String]
        /// Partition → worker holding it.
        public var partitionOwners: [String: String]
        /// Latest status of every gateway device.
        public var gateways: [FleetPublisher.Statistics]
        /// Messages and bytes per stream.
        public var streams: [String: NATSConnection.StreamState]
    }

    /// Reads the current status.
    public static func read(nats: NATSConnection) throws -> Report {
        let leases = try nats.keyValue(
            bucket: FleetSubjects.leaseBucket, ttl: FleetWorker.Options.leaseBucketTTL, replicas: 1)
        var workers: [FleetWorker.Statistics] = []
        var stale: [String] = []
        let now = Date().timeIntervalSince1970
        var owners: [String: String] = [:]
        for key in try leases.keys() {
            guard let entry = try leases.get(key) else { continue }
            if key.hasPrefix("worker.") {
                if let stats = try? JSONDecoder().decode(FleetWorker.Statistics.self, from: Data(entry.value)) {
                    if now - stats.time <= 2 * FleetWorker.Options.leaseSeconds { workers.append(stats) } else { stale.append(stats.id) }
                }
            } else if key.hasPrefix("part.") {
                owners[String(key.dropFirst(5))] = entry.value.isEmpty ? "(free)" : String(decoding: entry.value, as: UTF8.self)
            }
        }
        var streams: [String: NATSConnection.StreamState] = [:]
        for name in [FleetSubjects.rawStream, FleetSubjects.resultsStream, FleetSubjects.statusStream, FleetSubjects.eventsStream] {
            streams[name] = try? nats.streamState(name)
        }
        var gateways: [String: FleetPublisher.Statistics] = [:]
        if let last = streams[FleetSubjects.statusStream]?.lastSequence, last > 0 {
            let subscription = try nats.subscribeOrderedSync(
                stream: FleetSubjects.statusStream, subject: "axon.status.>", startSequence: 1)
            defer { subscription.unsubscribe() }
            while let message = try subscription.next(timeout: 2, headerKeys: []) {
                if let stats = try? JSONDecoder().decode(FleetPublisher.Statistics.self, from: Data(message.data)) {
                    gateways[stats.device] = stats
                }
                if message.streamSequence >= last { break }
            }
        }
        return Report(
            workers: workers.sorted { $0.id < $1.id }, staleWorkers: stale.sorted(), partitionOwners: owners,
            gateways: gateways.values.sorted { $0.device < $1.device }, streams: streams)
    }
}
