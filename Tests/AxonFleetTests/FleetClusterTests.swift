import AxonStreams
import CNATS
import Foundation
import StreamTestSupport
import Testing

@testable import AxonFleet

/// The fleet against a real 3-node JetStream cluster on loopback: simulated headsets through two workers give
/// exactly the engine's offline results; bad input is counted and the workers keep serving; a worker killed with
/// SIGKILL and a server killed with SIGKILL lose and double nothing; a gateway cut off from its broker spools and
/// replays.
@Suite(.serialized, .enabled(if: NATSCluster.available, "nats-server is installed by scripts/install-deps.sh --test"))
final class FleetClusterTests {
    let cluster: NATSCluster
    let spool: URL

    init() throws {
        cluster = try NATSCluster()
        spool = FileManager.default.temporaryDirectory.appendingPathComponent("axon-fleet-test-spool-\(UInt32.random(in: 0...UInt32.max))")
    }

    deinit { try? FileManager.default.removeItem(at: spool) }

    static let settings = FleetEngineSettings(baselineSeconds: 20, indicatorSeconds: 10)

    func connect(_ urls: [String]? = nil, timeout: Double = 2) throws -> NATSConnection {
        try NATSConnection(.init(urls: urls ?? cluster.urls, name: "axon-test", timeout: timeout))
    }

    func worker(_ id: String, log: @escaping @Sendable (String) -> Void = { _ in }) throws -> FleetWorker {
        let worker = try FleetWorker(
            nats: try connect(), options: .init(id: id, settings: Self.settings, checkpointInterval: 1, log: log), replicas: 3)
        worker.start()
        return worker
    }

    func simulate(devices: Int, first: Int = 0, seconds: Double, fast: Bool, urls: [String]? = nil) throws -> FleetSimulator.Summary {
        try FleetSimulator(
            nats: try connect(urls), options: .init(
                devices: devices, firstIndex: first, seconds: seconds, fast: fast, threads: 2,
                publisher: .init(spoolDirectory: spool))
        ).run()
    }

    /// Polls the results until every listed device is complete against the offline engine, or the deadline. A read
    /// the cluster refuses while it settles after a fault (JetStream temporarily unavailable, a timeout) is tried
    /// again; the last one's error is thrown.
    func waitForResults(_ ids: [String], seconds: Double, within limit: Double) throws -> FleetResults.Report {
        let nats = try connect()
        var last: Result<FleetResults.Report, NATSError>?
        try waitUntil(seconds: limit, interval: 1, onTimeout: .returnFalse) {
            do {
                let report = try FleetResults.read(nats: nats, checkSimulated: (seconds, Self.settings))
                last = .success(report)
                let complete = Set(report.devices.filter(\.complete).map(\.device))
                return ids.allSatisfy(complete.contains)
            } catch let error as NATSError {
                print("results not read yet: \(error)")
                last = .failure(error)
                return false
            }
        }
        // The last read's report, complete or not (the caller checks it), or its error.
        return try last!.get()
    }

    /// Every device's raw batches as the stream holds them, in stream order: (stream sequence, first frame, frames).
    /// Each sequence is asked of the stream's leader, so a consumer that skips or pauses while the cluster settles
    /// cannot make the stream look other than it is.
    func storedBatches() throws -> [String: [(sequence: UInt64, first: UInt64, frames: UInt64)]] {
        let nats = try connect()
        let state = try nats.streamState(FleetSubjects.rawStream)
        var batches: [String: [(sequence: UInt64, first: UInt64, frames: UInt64)]] = [:]
        let keys = ["Axon-Device", "Axon-First-Frame", "Axon-Frames"]
        for sequence in max(1, state.firstSequence)...max(1, state.lastSequence) {
            guard let message = try nats.storedMessage(stream: FleetSubjects.rawStream, sequence: sequence, headerKeys: keys)
            else { continue }
            batches[message.headers["Axon-Device"] ?? "", default: []].append(
                (sequence, UInt64(message.headers["Axon-First-Frame"] ?? "") ?? .max, UInt64(message.headers["Axon-Frames"] ?? "") ?? 0))
        }
        return batches
    }

    func expectComplete(_ report: FleetResults.Report, _ ids: [String]) {
        let byID = Dictionary(uniqueKeysWithValues: report.devices.map { ($0.device, $0) })
        for id in ids {
            guard let device = byID[id] else {
                Issue.record("no results for \(id)")
                continue
            }
            #expect(device.spectra == 39, "\(id) spectra")
            #expect(device.zones == 3, "\(id) zones")
            #expect(device.expectedSpectra == device.spectra && device.expectedZones == device.zones, "\(id)")
            #expect(device.missingSpectra.isEmpty && device.missingZones.isEmpty, "\(id) missing")
            #expect(device.duplicateSpectra.isEmpty && device.duplicateZones.isEmpty, "\(id) duplicated")
            #expect(device.mismatchedRows == 0, "\(id) differs from the offline engine: \(device.mismatchedCounters ?? [])")
            #expect(device.zonesMatch == true, "\(id) zones")
        }
    }

    /// Acceptance 2 (scaled) and 5: 16 devices × 40 s through two workers, every spectrum and zone exactly the
    /// offline engine's, once; then an undecodable message, a descriptor change and a backwards sequence are each
    /// rejected, counted and logged while a device published after them is still served.
    @Test func devicesThroughTwoWorkersAndBadInput() throws {
        let log = LogLines()
        let workers = [try worker("w-a", log: log.append), try worker("w-b", log: log.append)]
        defer { workers.forEach { $0.stop() } }
        let summary = try simulate(devices: 16, seconds: 40, fast: true)
        #expect(summary.devices.allSatisfy { $0.droppedFrames == 0 && $0.spoolBatches == 0 })
        let ids = (0..<16).map { FleetSimulatedDevice(index: $0).id }
        let report = try waitForResults(ids, seconds: 40, within: 60)
        expectComplete(report, ids)
        let served = workers.map { $0.statistics() }
        #expect(served.allSatisfy { $0.devices > 0 }, "both workers serve devices: \(served.map(\.devices))")
        #expect(served.reduce(0) { $0 + $1.partitions.count } == FleetSubjects.partitionCount)

        // Bad input, each on its own device.
        let nats = try connect()
        let garbage = "axon.raw.\(FleetSubjects.partition(of: "bad-a")).bad-a"
        try nats.publish(subject: garbage, data: Array("not a batch".utf8), headers: ["Axon-Device": "bad-a"], messageID: "bad-a.1")
        let good = FrameBatchTests.batch(first: 0, frames: 250)
        func publish(_ batch: FrameBatch, device: String, id: String) throws {
            var copy = batch
            copy.device = device
            try nats.publish(subject: copy.subject, data: copy.body(), headers: copy.headers(), messageID: id)
        }
        try publish(good, device: "bad-b", id: "bad-b.1")
        var changed = FrameBatchTests.batch(first: 250, frames: 10)
        changed.descriptor.channels[0].label = "Fp1"
        try publish(changed, device: "bad-b", id: "bad-b.2")
        try publish(good, device: "bad-c", id: "bad-c.1")
        try publish(FrameBatchTests.batch(first: 100, frames: 10), device: "bad-c", id: "bad-c.2")
        // A device that comes after the bad input is served in full.
        _ = try simulate(devices: 1, first: 16, seconds: 40, fast: true)
        let after = try waitForResults(["sim-0016"], seconds: 40, within: 30)
        expectComplete(after, ["sim-0016"])
        var rejected: [String: Int] = [:]
        for stats in workers.map({ $0.statistics() }) { rejected.merge(stats.rejected, uniquingKeysWith: +) }
        #expect(rejected == ["undecodable": 1, "descriptorChanged": 1, "sequenceBackwards": 1])
        #expect(log.lines.filter { $0.contains("rejected") }.count == 3)
    }

    /// A batch the consumer does not deliver is read again, not turned into a gap: device `skip-a`'s second batch
    /// is in the stream but dropped on its first delivery, and the worker, seeing the frames jump, reads the partition
    /// again and processes all three batches. Device `drop-b`'s second batch was never published (a gateway that
    /// dropped it): after one re-read the jump stays, and becomes a gap.
    @Test func undeliveredBatchIsReadAgainAndAGatewayDropBecomesAGap() throws {
        let nats = try connect()
        let dropped = DroppedOnce(device: "skip-a", firstFrame: 250)
        let log = LogLines()
        let worker = try FleetWorker(
            nats: nats, options: {
                var options = FleetWorker.Options(id: "w-skip", settings: Self.settings, checkpointInterval: 1, log: log.append)
                options.dropsDelivery = dropped.drops
                return options
            }(), replicas: 3)
        worker.start()
        defer { worker.stop() }
        func batch(_ device: String, first: UInt64) -> FrameBatch {
            let rows = (0..<250).flatMap { frame -> [Double] in
                let sample = Double(first) + Double(frame)
                return [FleetSimulatedDevice.startTime + sample / 250, sample, sin(sample), cos(sample), 1, -1]
            }
            return FrameBatch(
                device: device, epoch: 1_700_000_000_000, firstFrame: first, descriptor: FrameBatchTests.descriptor,
                rows: rows, gaps: [])
        }
        for (device, firsts) in [("skip-a", [0, 250, 500]), ("drop-b", [0, 500])] {
            for first in firsts {
                let made = batch(device, first: UInt64(first))
                try nats.publish(subject: made.subject, data: made.body(), headers: made.headers(), messageID: made.messageID)
            }
        }
        try waitUntil(seconds: 30, interval: 0.2) { worker.statistics().frames == 1250 }
        let stats = worker.statistics()
        #expect(dropped.deliveries == 2, "skip-a's second batch: dropped, then delivered by the re-read")
        #expect(stats.frames == 1250 && stats.batches == 5, "every published batch processed once: \(stats)")
        #expect(stats.rejected.isEmpty, "\(stats.rejected)")
        #expect(log.lines.filter { $0.contains("skip-a jumped from frame 250 to 500") }.count == 1, "\(log.lines)")
        #expect(log.lines.filter { $0.contains("drop-b jumped from frame 250 to 500") }.count == 1, "\(log.lines)")
    }

    /// The sink and the source: a simulated device through a pipeline into JetStream, and back out of JetStream into
    /// another pipeline with every value, counter and the device's loss as a gap again.
    @Test func sinkAndSourceRoundTrip() throws {
        let nats = try connect()
        let simulated = SimulatedSource(
            configuration: .init(duration: 10, realTime: false, samplesPerPacket: 5, lostSamples: Set(1000..<1005)),
            sourceID: "rt-1")
        let sink = JetStreamSampleSink(nats: nats, device: "rt-1", options: .init(batchFrames: 100, spoolDirectory: spool))
        let out = StreamPipeline(source: simulated, sinks: [sink], configuration: .init(ringCapacity: 1 << 12))
        try out.start()
        out.waitUntilFinished()
        #expect(sink.statistics?.frames == 2495)
        #expect(sink.statistics?.publishedBatches == 25)

        let source = try JetStreamSampleSource(nats: nats, device: "rt-1")
        #expect(source.descriptor == simulated.descriptor)
        let collected = CollectingSink()
        let back = StreamPipeline(source: source, sinks: [collected], configuration: .init(ringCapacity: 1 << 10))
        try back.start()
        back.waitUntilFinished()
        let contents = collected.snapshot
        #expect(contents.values.count == 2495)
        #expect(contents.counters.first == 0 && contents.counters.last == 2499)
        #expect(contents.gaps.map(\.missingCount) == [5])
        #expect(source.progress.batches == 25 && source.progress.undecodable == 0)
    }

    /// A copy of a message that reaches the stream while the first copy is still being replicated is answered
    /// "duplicate" with sequence 0 by the nats-server versions Debian ships: `publish` must not take that for
    /// storage. Each id is sent twice back to back (the first without waiting), then retried until acknowledged with
    /// a sequence: every id ends up stored exactly once, and no acknowledgement handed back names sequence 0.
    @Test func duplicateOfAnUnstoredCopyIsNotAnAcknowledgement() throws {
        let nats = try connect()
        try FleetSubjects.ensure(on: nats, replicas: 3)
        let subject = "axon.raw.0.dup-check"
        var unconfirmed = 0
        for index in 0..<40 {
            let id = "dup-check.\(index)"
            try nats.publishWithoutAcknowledgement(subject: subject, data: [UInt8(index)], messageID: id)
            var answer: NATSConnection.PublishAck?
            var attempts = 0
            while answer == nil, attempts < 50 {
                attempts += 1
                do {
                    answer = try nats.publish(subject: subject, data: [UInt8(index)], messageID: id)
                } catch {
                    guard error.isUnconfirmedDuplicate else { throw error }
                    unconfirmed += 1
                }
            }
            let ack = try #require(answer, "\(id) never acknowledged")
            #expect(ack.sequence > 0, "\(id): \(ack)")
            // What the gateway asks before it believes a duplicate: the stream holds this id at that sequence.
            #expect(try nats.storedMessageID(stream: FleetSubjects.rawStream, sequence: ack.sequence) == id)
        }
        let last = try nats.streamState(FleetSubjects.rawStream).lastSequence
        #expect(try nats.storedMessageID(stream: FleetSubjects.rawStream, sequence: last + 1) == nil, "nothing there yet")
        let stored = try nats.subscribeOrderedSync(stream: FleetSubjects.rawStream, subject: subject, startSequence: 1)
        var bodies: [UInt8] = []
        while let message = try stored.next(timeout: 2, headerKeys: []) { bodies.append(contentsOf: message.data) }
        #expect(bodies == Array(0..<40), "each id stored once, in order")
        print("duplicate check: \(unconfirmed) of 40 second copies were answered duplicate with sequence 0")
    }

    /// Acceptance 3 (scaled): during 12 devices × 40 s in real time through two worker processes, a nats-server is
    /// SIGKILLed at 6 s (the cluster keeps quorum; it comes back at 11 s), a worker process is SIGKILLed at 16 s
    /// (the other takes its partitions from their checkpoints), and the server the gateway talks to stops answering
    /// from 24 to 29 s (the gateway spools and replays). Every device still gets exactly the offline engine's results, once.
    @Test func faultsLoseAndDoubleNothing() throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let logs = cluster.directory
        func workerProcess(_ id: String) throws -> KeptProcess {
            try KeptProcess(
                axon, ["fleet", "worker", "--id", id, "--baseline", "20", "--indicator", "10", "--checkpoint", "1",
                       "--report", "0", "--nats"] + cluster.urls, log: logs.appendingPathComponent("\(id).log"))
        }
        let first = try workerProcess("p-1")
        let second = try workerProcess("p-2")
        defer {
            first.stop()
            second.stop()
        }
        let gatewayURL = [cluster.urls[2]]
        let outcome = Outcome()
        let simulator = try FleetSimulator(
            nats: try connect(gatewayURL, timeout: 1),
            options: .init(devices: 12, seconds: 40, fast: false, threads: 2, publisher: .init(spoolDirectory: spool)))
        let simulation = Thread {
            do { outcome.set(try simulator.run()) } catch { outcome.fail(error) }
        }
        simulation.start()
        let start = Date()
        func at(_ seconds: Double) { _ = DispatchSemaphore(value: 0).wait(timeout: .now() + max(0, seconds - Date().timeIntervalSince(start))) }
        at(6)
        cluster.kill(0)
        at(11)
        try cluster.start(0)
        at(16)
        first.kill()
        let killed = Date().timeIntervalSince1970
        at(24)
        cluster.pause(2)
        at(29)
        cluster.resume(2)
        let summary = try outcome.wait()
        let ids = (0..<12).map { FleetSimulatedDevice(index: $0).id }
        let report = try waitForResults(ids, seconds: 40, within: 60)
        expectComplete(report, ids)
        // The broker side: every device's batches are in the raw stream once, in order, frames contiguous.
        let raw = try storedBatches()
        for id in ids {
            let stored = raw[id] ?? []
            let breaks = zip(stored, stored.dropFirst()).filter { $0.first + $0.frames != $1.first }.map {
                "#\($0.sequence) frames \($0.first)+\($0.frames), then #\($1.sequence) frames \($1.first)+\($1.frames)"
            }
            #expect(stored.first?.first == 0 && breaks.isEmpty, "\(id) raw batches out of line: \(breaks)")
        }
        if !report.devices.allSatisfy(\.complete) {
            for worker in ["p-1", "p-2"] {
                let text = (try? String(contentsOf: logs.appendingPathComponent("\(worker).log"), encoding: .utf8)) ?? ""
                print("\(worker) log:\n\(text)")
            }
        }
        #expect(summary.devices.reduce(0) { $0 + $1.spooledBatches } > 0, "the paused server made the gateway spool")
        #expect(summary.devices.allSatisfy { $0.droppedFrames == 0 && $0.spoolBatches == 0 && $0.replayedBatches == $0.spooledBatches })
        // Failover: from the SIGKILL to the survivor's first partition taken over ("[unix time] worker p-2: took …").
        let log = (try? String(contentsOf: logs.appendingPathComponent("p-2.log"), encoding: .utf8)) ?? ""
        let takeovers = log.split(separator: "\n").filter { $0.contains("took partition") }.compactMap { line -> Double? in
            guard line.hasPrefix("["), let end = line.firstIndex(of: "]") else { return nil }
            return Double(line[line.index(after: line.startIndex)..<end])
        }.filter { $0 > killed }
        let failover = (takeovers.min() ?? .infinity) - killed
        // Measured 2.6–3.6 s here, where the kill follows a server's loss (docs/fleet.md).
        #expect(failover < 60, "failover \(failover) s")
        print("fleet faults: failover \(String(format: "%.2f", failover)) s, worst lag \(String(format: "%.2f", report.maxLag)) s, "
            + "\(summary.devices.reduce(0) { $0 + $1.spooledBatches }) messages spooled and replayed, "
            + "\(summary.devices.reduce(0) { $0 + $1.duplicateAcknowledgements }) duplicate acknowledgements; worst lag per device "
            + report.devices.map { "\($0.device) \(String(format: "%.1f", $0.maxLag))" }.joined(separator: ", "))
    }
}

/// A value handed from a thread to the test, with its wait.
final class Outcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: Result<FleetSimulator.Summary, any Error>?
    func set(_ value: FleetSimulator.Summary) { lock.withLock { result = .success(value) }; done.signal() }
    func fail(_ error: any Error) { lock.withLock { result = .failure(error) }; done.signal() }
    func wait() throws -> FleetSimulator.Summary {
        done.wait()
        return try lock.withLock { result! }.get()
    }
}

/// Drops the first delivery of one device's batch, counting the drops.
final class DroppedOnce: @unchecked Sendable {
    let device: String
    let firstFrame: String
    private let lock = NSLock()
    private var dropped = 0
    init(device: String, firstFrame: UInt64) {
        self.device = device
        self.firstFrame = String(firstFrame)
    }
    /// Deliveries of the batch seen (the first dropped).
    var deliveries: Int { lock.withLock { dropped } }
    @Sendable func drops(_ message: NATSMessage) -> Bool {
        guard message.headers["Axon-Device"] == device, message.headers["Axon-First-Frame"] == firstFrame else { return false }
        return lock.withLock {
            dropped += 1
            return dropped == 1
        }
    }
}

/// Log lines collected from the workers' threads.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: String) { lock.withLock { stored.append(line) } }
}

extension NATSConnection {
    /// Publishes with a `Nats-Msg-Id` and does not wait for the stream's answer (a plain NATS publish), so a
    /// second copy can follow before the first is stored.
    func publishWithoutAcknowledgement(subject: String, data: [UInt8], messageID: String) throws(NATSError) {
        let message = try Self.message(subject: subject, data: data, headers: ["Nats-Msg-Id": messageID])
        defer { natsMsg_Destroy(message) }
        try natsCheck(natsConnection_PublishMsg(connection, message), "publish \(subject)")
    }
}
