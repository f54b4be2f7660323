import AxonStreams
import Foundation

/// gpsd's JSON protocol over TCP (default port 2947): it sends `?WATCH={"enable":true,"json":true}` and turns every
/// `TPV` report with a 2D or 3D fix (`mode` ≥ 2) and every `SKY` report into ``GPSMessage``s — two irregular streams
/// of their own (``fixDescriptor``, ``satellitesDescriptor``) — and keeps the latest fix as the position source of
/// driving events.
///
///     let gps = try GPSDClient(host: "127.0.0.1", port: 2947, log: eventLog)   // fixes also kept in the store
///     let gateway = OBDGateway(validator: validator, eventLog: eventLog, positionSource: gps)
///     Task { for await message in gps.messages { show(message) } }
///     …
///     gps.stop()
///
/// The reader thread reconnects every second while gpsd is unreachable; a fix older than ``maximumAge`` seconds is
/// not reported as ``latestPosition``. With a `log`, every message is stored (``OBDEventLog/recordGPS(_:)``) on the
/// reader thread before it is yielded — except a satellite count without a time (a `SKY` before the connection's
/// first fix), which is only yielded; a failed write is counted in ``storeFailures`` and the reading goes on.
///
/// Threading contract: `Sendable`; ``latestPosition``, ``latestFix`` and the counters from any thread;
/// ``messages`` has one consumer (an `AsyncStream`, which keeps the newest `bufferLimit` messages a slow consumer has
/// not taken yet and finishes after ``stop()``); ``stop()`` from any thread, idempotent.
public final class GPSDClient: OBDPositionSource {
    /// Seconds a fix stays current.
    public let maximumAge: Double
    /// The gpsd endpoint, "tcp:HOST:PORT".
    public let endpoint: String
    /// The fixes' stream: one sample per `TPV` report with a fix; its source id is ``endpoint``.
    public let fixDescriptor: StreamDescriptor
    /// The satellites' stream: one sample per `SKY` report; its source id is ``endpoint``.
    public let satellitesDescriptor: StreamDescriptor
    /// Every GPS message in gpsd's order, until ``stop()``; one consumer.
    public let messages: AsyncStream<GPSMessage>
    private let shared: Shared
    private let thread: ThreadLocked<WorkerThread?>

    /// What the reader thread shares with callers.
    private final class Shared: Sendable {
        struct State {
            var latest: (fix: GPSFix, received: Double)?
            var stopRequested = false
            var fixes = 0
            var satelliteReports = 0
            var storeFailures = 0
            var lastStoreError: String?
        }
        let state = ThreadLocked(State())
        let continuation: AsyncStream<GPSMessage>.Continuation
        let log: OBDEventLog?

        init(continuation: AsyncStream<GPSMessage>.Continuation, log: OBDEventLog?) {
            self.continuation = continuation
            self.log = log
        }

        var stopRequested: Bool { state.withLock { $0.stopRequested } }
    }

    /// One line of gpsd's protocol, as much of it as the two streams need.
    struct Report: Decodable {
        struct Satellite: Decodable {
            var used: Bool?
        }
        var `class`: String
        var mode: Int?
        var lat: Double?
        var lon: Double?
        var time: String?
        var alt: Double?
        var altMSL: Double?
        var speed: Double?
        var track: Double?
        var nSat: Int?
        var uSat: Int?
        var satellites: [Satellite]?
    }

    /// Starts reading from gpsd at `host`:`port`; with a `log`, every message is also stored there.
    ///
    /// - Throws: ``OBDGatewayError/pipeline(_:)`` when the reader thread cannot start.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 2947, maximumAge: Double = 5, log: OBDEventLog? = nil,
        bufferLimit: Int = 4096
    ) throws(OBDGatewayError) {
        self.maximumAge = maximumAge
        let endpoint = "tcp:\(host):\(port)"
        self.endpoint = endpoint
        fixDescriptor = Self.fixDescriptor(sourceID: endpoint)
        satellitesDescriptor = Self.satellitesDescriptor(sourceID: endpoint)
        let (messages, continuation) = AsyncStream.makeStream(
            of: GPSMessage.self, bufferingPolicy: .bufferingNewest(max(1, bufferLimit)))
        self.messages = messages
        let shared = Shared(continuation: continuation, log: log)
        self.shared = shared
        let worker: WorkerThread
        do {
            worker = try WorkerThread(name: "axon-gpsd") {
                Self.run(host: host, port: port, shared: shared)
            }
        } catch {
            continuation.finish()
            throw .pipeline(error)
        }
        thread = ThreadLocked(worker)
    }

    deinit { stop() }

    /// The descriptor of a fixes stream: irregular, one `event` sample per fix, channels `time` (s, Unix),
    /// `latitude` (°N), `longitude` (°E), `altitude` (m above mean sea level), `speed` (m/s), `track` (° from true
    /// north) and `mode` (2 or 3).
    public static func fixDescriptor(sourceID: String) -> StreamDescriptor {
        StreamDescriptor(
            name: "GPS fixes", contentType: .gps,
            channels: [
                ChannelInfo(label: "time", unit: "s"), ChannelInfo(label: "latitude", unit: "deg"),
                ChannelInfo(label: "longitude", unit: "deg"), ChannelInfo(label: "altitude", unit: "m"),
                ChannelInfo(label: "speed", unit: "m/s"), ChannelInfo(label: "track", unit: "deg"),
                ChannelInfo(label: "mode", unit: ""),
            ],
            nominalRate: 0, format: .event, sourceID: sourceID, metadata: ["source": "gpsd TPV"])
    }

    /// The descriptor of a satellites stream: irregular, one `event` sample per `SKY` report, channels `seen` and
    /// `used` (satellites).
    public static func satellitesDescriptor(sourceID: String) -> StreamDescriptor {
        StreamDescriptor(
            name: "GPS satellites", contentType: .gps,
            channels: [ChannelInfo(label: "seen", unit: "satellites"), ChannelInfo(label: "used", unit: "satellites")],
            nominalRate: 0, format: .event, sourceID: sourceID, metadata: ["source": "gpsd SKY"])
    }

    /// The latest fix's position, if the fix arrived within ``maximumAge`` seconds.
    public var latestPosition: OBDPosition? { latestFix?.position }

    /// The latest fix, if it arrived within ``maximumAge`` seconds.
    public var latestFix: GPSFix? {
        guard let latest = shared.state.withLock({ $0.latest }), HostClock.now() - latest.received <= maximumAge else {
            return nil
        }
        return latest.fix
    }

    /// `TPV` reports with a fix received so far.
    public var fixCount: Int { shared.state.withLock { $0.fixes } }

    /// `SKY` reports received so far.
    public var satelliteReportCount: Int { shared.state.withLock { $0.satelliteReports } }

    /// Messages the log could not store, and the last store error's text.
    public var storeFailures: (count: Int, lastError: String?) {
        shared.state.withLock { ($0.storeFailures, $0.lastStoreError) }
    }

    /// Stops the reader thread, waits for it (at most about a second) and finishes ``messages``.
    public func stop() {
        shared.state.withLock { $0.stopRequested = true }
        let worker = thread.withLock { state -> WorkerThread? in
            defer { state = nil }
            return state
        }
        worker?.join()
        shared.continuation.finish()
    }

    /// The reader loop: connect, watch, read lines; on any failure wait a second and start again.
    private static func run(host: String, port: UInt16, shared: Shared) {
        var lastFixTime: Double?
        while !shared.stopRequested {
            let link = TCPLink(host: host, port: port, connectTimeout: 1)
            do {
                try link.open()
                try link.write(Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8), deadline: HostClock.now() + 1)
                var pending: [UInt8] = []
                while !shared.stopRequested {
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
                        deliver(line: line, lastFixTime: &lastFixTime, shared: shared)
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

    /// Turns one line into a message: counted, kept as the latest fix, stored, then yielded.
    private static func deliver(line: [UInt8], lastFixTime: inout Double?, shared: Shared) {
        let now = HostClock.now()
        guard let report = message(fromLine: line, lastFixTime: lastFixTime) else { return }
        let message: GPSMessage
        switch report {
        case .fix(let fix):
            lastFixTime = fix.time
            let counter = shared.state.withLock { state -> Int in
                state.latest = (fix, now)
                state.fixes += 1
                return state.fixes - 1
            }
            message = .fix(EventSample(payload: fix, arrivalTime: now, deviceTime: fix.time, counter: UInt64(counter)))
        case .satellites(let satellites):
            let counter = shared.state.withLock { state -> Int in
                state.satelliteReports += 1
                return state.satelliteReports - 1
            }
            message = .satellites(
                EventSample(
                    payload: satellites, arrivalTime: now, deviceTime: satellites.time, counter: UInt64(counter)))
        }
        // A count without a time (a SKY before this connection's first fix) cannot be keyed to its receiver cycle:
        // stored, a restarted client would store that cycle's count a second time. It is published only.
        if let log = shared.log, message.isStorable {
            do {
                try log.recordGPS(message)
            } catch {
                shared.state.withLock {
                    $0.storeFailures += 1
                    $0.lastStoreError = "\(error)"
                }
            }
        }
        shared.continuation.yield(message)
    }

    /// The fix or satellite count in one line of gpsd JSON; `nil` for a `TPV` without a fix (`mode` < 2 or no
    /// coordinates), a `SKY` without counts, other classes and anything that is not gpsd JSON. A fix without a `time`
    /// takes the host's Unix time; a `SKY` without one takes `lastFixTime`.
    public static func message(fromLine line: [UInt8], lastFixTime: Double? = nil) -> GPSReport? {
        guard let report = try? JSONDecoder().decode(Report.self, from: Data(line)) else { return nil }
        switch report.class {
        case "TPV":
            guard let mode = report.mode, mode >= 2, let lat = report.lat, let lon = report.lon else { return nil }
            let time = report.time.flatMap(unixTime) ?? HostClock.unixNow()
            return .fix(
                GPSFix(
                    time: time, latitude: lat, longitude: lon, altitude: mode >= 3 ? (report.altMSL ?? report.alt) : nil,
                    speed: report.speed, track: report.track, mode: mode))
        case "SKY":
            let satellites = report.satellites ?? []
            guard report.nSat != nil || report.uSat != nil || !satellites.isEmpty else { return nil }
            return .satellites(
                GPSSatellites(
                    time: report.time.flatMap(unixTime) ?? lastFixTime, seen: report.nSat ?? satellites.count,
                    used: report.uSat ?? satellites.filter { $0.used == true }.count))
        default:
            return nil
        }
    }

    /// The position in one line of gpsd JSON: a `TPV` with a fix; `nil` for anything else.
    public static func position(fromLine line: [UInt8]) -> OBDPosition? {
        guard case .fix(let fix)? = message(fromLine: line) else { return nil }
        return fix.position
    }

    /// gpsd's "2026-11-22T12:00:09.000Z" (fractional seconds, which the plain ISO 8601 style refuses) or without them.
    static func unixTime(_ text: String) -> Double? {
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return ((try? fractional.parse(text)) ?? (try? Date(text, strategy: .iso8601)))?.timeIntervalSince1970
    }
}
