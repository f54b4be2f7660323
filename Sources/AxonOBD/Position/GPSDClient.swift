import AxonStreams
import Foundation
import Synchronization

/// A position source reading gpsd's JSON protocol over TCP (default port 2947): it sends
/// `?WATCH={"enable":true,"json":true}` and keeps the latest `TPV` report with a 2D or 3D fix (`mode` ≥ 2).
///
///     let gps = try GPSDClient(host: "127.0.0.1", port: 2947)
///     let gateway = OBDGateway(validator: validator, eventLog: log, positionSource: gps)
///     …
///     gps.stop()
///
/// The reader thread reconnects every second while gpsd is unreachable; a fix older than ``maximumAge`` seconds is
/// not reported.
///
/// Threading contract: `Sendable`; ``latestPosition`` from any thread; ``stop()`` once, from any thread.
public final class GPSDClient: OBDPositionSource {
    /// Seconds a fix stays current.
    public let maximumAge: Double
    /// The gpsd endpoint, "tcp:HOST:PORT".
    public let endpoint: String
    private let shared: Shared
    private let thread: ThreadLocked<WorkerThread?>

    private final class Shared: Sendable {
        let latest = ThreadLocked<(position: OBDPosition, received: Double)?>(nil)
        let stopRequested = Atomic<Bool>(false)
        let reports = Atomic<Int>(0)
    }

    /// One line of gpsd's protocol, as much of it as a position needs.
    struct Report: Decodable {
        var `class`: String
        var mode: Int?
        var lat: Double?
        var lon: Double?
        var time: String?
    }

    /// Starts reading from gpsd at `host`:`port`.
    ///
    /// - Throws: ``OBDGatewayError/pipeline(_:)`` when the reader thread cannot start.
    public init(host: String = "127.0.0.1", port: UInt16 = 2947, maximumAge: Double = 5) throws(OBDGatewayError) {
        self.maximumAge = maximumAge
        self.endpoint = "tcp:\(host):\(port)"
        let shared = Shared()
        self.shared = shared
        let worker: WorkerThread
        do {
            worker = try WorkerThread(name: "axon-gpsd") {
                Self.run(host: host, port: port, shared: shared)
            }
        } catch {
            throw .pipeline("\(error)")
        }
        thread = ThreadLocked(worker)
    }

    deinit { stop() }

    /// The latest fix, if one arrived within ``maximumAge`` seconds.
    public var latestPosition: OBDPosition? {
        guard let latest = shared.latest.withLock({ $0 }), HostClock.now() - latest.received <= maximumAge else {
            return nil
        }
        return latest.position
    }

    /// TPV reports with a fix received so far.
    public var fixCount: Int { shared.reports.load(ordering: .relaxed) }

    /// Stops the reader thread and waits for it (at most about a second).
    public func stop() {
        shared.stopRequested.store(true, ordering: .releasing)
        let worker = thread.withLock { state -> WorkerThread? in
            defer { state = nil }
            return state
        }
        worker?.join()
    }

    /// The reader loop: connect, watch, read lines; on any failure wait a second and start again.
    private static func run(host: String, port: UInt16, shared: Shared) {
        while !shared.stopRequested.load(ordering: .acquiring) {
            let link = TCPLink(host: host, port: port, connectTimeout: 1)
            do {
                try link.open()
                try link.write(Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8), deadline: HostClock.now() + 1)
                var pending: [UInt8] = []
                while !shared.stopRequested.load(ordering: .acquiring) {
                    let chunk: [UInt8]
                    do {
                        chunk = try link.read(deadline: HostClock.now() + 0.5)
                    } catch .timeout {
                        continue
                    }
                    pending += chunk
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = Array(pending[..<newline])
                        pending.removeSubrange(...newline)
                        if let position = position(fromLine: line) {
                            shared.latest.withLock { $0 = (position, HostClock.now()) }
                            shared.reports.add(1, ordering: .relaxed)
                        }
                    }
                    if pending.count > 65_536 { pending.removeAll() }  // no newline in 64 KiB: not gpsd
                }
            } catch {
                link.close()
                HostClock.sleep(until: HostClock.now() + 1)
                continue
            }
            link.close()
        }
    }

    /// The position in one line of gpsd JSON: a `TPV` with `mode` ≥ 2 and both coordinates; `nil` for anything else.
    public static func position(fromLine line: [UInt8]) -> OBDPosition? {
        guard let report = try? JSONDecoder().decode(Report.self, from: Data(line)), report.class == "TPV",
            (report.mode ?? 0) >= 2, let lat = report.lat, let lon = report.lon
        else { return nil }
        // gpsd writes "2026-11-22T12:00:09.000Z": with fractional seconds, which the plain ISO 8601 style refuses.
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let time = report.time.flatMap { (try? fractional.parse($0)) ?? (try? Date($0, strategy: .iso8601)) }?
            .timeIntervalSince1970
        return OBDPosition(latitude: lat, longitude: lon, time: time ?? HostClock.unixNow())
    }
}
