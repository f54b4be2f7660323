import AxonEEG
import AxonStreams
import CNATS
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `axon fleet worker`: a stateful engine worker. Devices are spread over the live workers by partition
/// (``FleetSubjects/partition(of:)``): a worker holds a partition while it keeps renewing its lease
/// (`part.<n>` in the `axon_leases` bucket; a lease whose revision has not moved for ``Options/leaseSeconds`` is
/// expired and taken over by compare-and-set), and takes its fair share — ⌈partitions ÷ live workers⌉, live
/// workers being the `worker.<id>` keys of the same bucket that are still renewed — releasing the excess when
/// workers join.
///
/// A held partition is read through one ordered consumer of `axon.raw.<n>.>`, so each device's batches reach
/// exactly one worker, in order. A device whose frames jump forward within a gateway session makes the worker read
/// the partition again, once, from that device's last batch: a batch the stream holds but the consumer did not
/// deliver is found and processed in its place; a jump that remains is the gateway's (frames it dropped from a full
/// spool) and becomes a gap. Each device runs its own ``AxonEEG/EEGProcessor`` (``FleetEngineSettings``); every
/// spectrum and indicator it makes is published on `axon.spectra.<device>` / `axon.zones.<device>` with
/// `Nats-Msg-Id` `<device>.s.<sample>` / `<device>.z.<sample>`. Every ``Options/checkpointInterval`` the partition's
/// dirty devices are checkpointed (``FleetDeviceCheckpoint``, compare-and-set on their revision, so a worker that
/// lost its lease cannot overwrite its successor's) and then the partition's position. A new owner restores the
/// checkpoints and re-reads the raw stream after the position: what it re-makes carries the same ids, and
/// JetStream's duplicate window drops the copies.
///
/// Bad input is rejected, counted by reason in ``Statistics/rejected`` and logged, and the worker goes on with
/// the other devices: a message that does not decode (`undecodable`), a device whose descriptor changes
/// mid-stream (`descriptorChanged`), a batch whose frame sequence goes backwards (`sequenceBackwards`), a
/// descriptor the engine cannot run (`unusableDescriptor`).
///
/// Threading: ``start()`` and ``stop()`` from one controlling thread; the lease thread and one libnats delivery
/// thread per held partition do the work. A partition's devices are touched only under its lock; the counters under
/// the worker's lock. Not a real-time loop: it blocks on the broker (publish acknowledgements, checkpoints).
public final class FleetWorker: @unchecked Sendable {
    /// How the worker runs.
    public struct Options: Sendable {
        /// Seconds a lease or presence may go unrenewed before other workers treat it as expired: the failover
        /// time's floor.
        public static let leaseSeconds = 3.0
        /// Seconds a partition is processed after its last successful lease renewal: less than ``leaseSeconds``, so a
        /// worker cut off from the lease bucket stops before anyone may take its partitions over.
        public static let safeHoldSeconds = 2.0
        /// Seconds without a message after which a partition's consumer is made again from the partition's position:
        /// an ordered consumer whose server died may otherwise stay silent (quiet partitions pay one consumer
        /// creation per period).
        public static let stallSeconds = 5.0
        /// The lease bucket's TTL: only clears keys of workers gone for good (expiry is judged by observation).
        public static let leaseBucketTTL = 60.0
        /// The worker's id (`A–Z a–z 0–9 - _`).
        public var id: String
        /// The engine parameters (the same on every worker).
        public var settings: FleetEngineSettings
        /// Seconds between lease renewals.
        public var renewInterval: Double
        /// Seconds between checkpoints of a partition.
        public var checkpointInterval: Double
        /// Seconds to wait for a result's acknowledgement before retrying.
        public var publishTimeout: Double
        /// Where rejections and ownership changes are logged.
        public var log: @Sendable (String) -> Void
        /// Fault injection for tests: a delivered raw message for which this returns true is dropped before the
        /// worker sees it, as a consumer that skipped it would.
        var dropsDelivery: (@Sendable (NATSMessage) -> Bool)?

        /// Creates options.
        public init(
            id: String, settings: FleetEngineSettings = .init(), renewInterval: Double = 0.5,
            checkpointInterval: Double = 2, publishTimeout: Double = 1, log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.id = id
            self.settings = settings
            self.renewInterval = renewInterval
            self.checkpointInterval = checkpointInterval
            self.publishTimeout = publishTimeout
            self.log = log
        }
    }

    /// What the worker did; published as its presence value, read by `axon fleet status`.
    ///
    /// Threading: a plain value.
    public struct Statistics: Sendable, Codable, Hashable {
        /// The worker.
        public var id = ""
        /// Partitions held now.
        public var partitions: [Int] = []
        /// Devices in them.
        public var devices = 0
        /// Raw batches processed.
        public var batches = 0
        /// Frames processed.
        public var frames = 0
        /// Spectra published.
        public var spectra = 0
        /// Indicators published.
        public var zones = 0
        /// Results JetStream already had (re-made after a failover).
        public var duplicateResults = 0
        /// Result publishes that failed and were retried.
        public var publishRetries = 0
        /// Batches already covered by a checkpoint, skipped after a takeover.
        public var skippedBatches = 0
        /// Rejections by reason.
        public var rejected: [String: Int] = [:]
        /// The last rejection, for the log and the status.
        public var lastRejection: String?
        /// Seconds from a batch's storage to its results' publication: the last one.
        public var lag = 0.0
        /// The worst seen.
        public var maxLag = 0.0
        /// Checkpoints written (device records).
        public var checkpoints = 0
        /// Checkpoint writes that failed.
        public var checkpointFailures = 0
        /// Partitions taken over.
        public var takeovers = 0
        /// Partitions lost to another worker (lease expired while this one was alive).
        public var lostPartitions = 0
        /// Consumers made again: after a partition stayed silent for ``Options/stallSeconds``, or to read it again
        /// after a device's frames jumped (a batch not delivered).
        public var resubscriptions = 0
        /// CPU seconds of the process.
        public var cpuSeconds = 0.0
        /// Unix time of the report.
        public var time = 0.0
    }

    final class DeviceState {
        let engine: FleetDeviceEngine
        var epoch: UInt64
        var nextFrame: UInt64
        var lastTime: Double
        var streamSequence: UInt64
        var revision: UInt64
        var dirty = false
        /// The first frame of a batch whose jump already made the partition be read again: seen again, the jump is
        /// the gateway's and becomes a gap.
        var rereadBefore: UInt64?

        init(engine: FleetDeviceEngine, epoch: UInt64, nextFrame: UInt64, lastTime: Double, streamSequence: UInt64,
             revision: UInt64) {
            self.engine = engine
            self.epoch = epoch
            self.nextFrame = nextFrame
            self.lastTime = lastTime
            self.streamSequence = streamSequence
            self.revision = revision
        }
    }

    final class Partition: @unchecked Sendable {
        let index: Int
        /// Held while a message is handled or a checkpoint written.
        let lock = NSLock()
        var devices: [String: DeviceState] = [:]
        var lastSequence: UInt64 = 0
        var checkpointRevision: UInt64 = 0
        var leaseRevision: UInt64
        /// Under the worker's lock: when the lease was last written (or taken). Past ``Options/safeHoldSeconds``
        /// without a renewal, the partition stops: another worker may already hold it.
        var leaseRenewedAt = Date().timeIntervalSince1970
        var nextCheckpoint = 0.0
        /// When a message last arrived (or the consumer was last made): the watchdog's clock.
        var lastMessageTime = 0.0
        var subscription: NATSSubscription?
        /// Counts the consumers made; a message from an earlier one is ignored (it may still be in its handler when
        /// the next is made).
        var generation: UInt64 = 0
        /// A device's frames jumped: the watchdog makes the consumer again from ``lastSequence`` at once.
        var rereadRequested = false
        /// Under the worker's lock.
        var active = true
        /// `devices.count`, under the worker's lock: the statistics read it there, while `devices` itself changes
        /// under this partition's lock on the message thread (reading it under the worker's lock raced).
        var deviceCount = 0

        init(index: Int, leaseRevision: UInt64) {
            self.index = index
            self.leaseRevision = leaseRevision
        }
    }

    /// The options.
    public let options: Options
    private let nats: NATSConnection
    private let leases: NATSKeyValue
    private let checkpoints: NATSKeyValue
    private let lock = NSLock()
    private var stats = Statistics()
    private var partitions: [Int: Partition] = [:]
    private let stopCondition = NSCondition()
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    /// Lease thread only: when each lease key's revision was first seen.
    private var observed: [String: (revision: UInt64, since: Double)] = [:]

    /// Creates a worker; makes sure the streams and buckets exist with `replicas` copies.
    ///
    /// - Throws: ``FleetError`` for a bad id or a broker that refuses the streams.
    public init(nats: NATSConnection, options: Options, replicas: Int) throws(FleetError) {
        try FleetSubjects.validate(deviceID: options.id)
        self.options = options
        self.nats = nats
        do {
            try FleetSubjects.ensure(on: nats, replicas: replicas)
            leases = try nats.keyValue(bucket: FleetSubjects.leaseBucket, ttl: Options.leaseBucketTTL, replicas: replicas)
            checkpoints = try nats.keyValue(bucket: FleetSubjects.checkpointBucket, ttl: 0, replicas: replicas)
        } catch { throw .nats(error) }
        stats.id = options.id
    }

    /// Starts the lease thread (the worker announces itself and takes its share of partitions) and the watchdog
    /// thread (silent partitions get their consumer made again; kept apart because remaking a consumer can wait for
    /// the broker, and lease renewals must not).
    public func start() {
        let thread = Thread { [self] in
            repeatUntilStopped(every: options.renewInterval) { balance() }
            finished.signal()
        }
        thread.name = "axon-fleet-leases"
        self.thread = thread
        thread.start()
        let watchdog = Thread { [self] in
            repeatUntilStopped(every: 1) {
                for partition in lock.withLock({ Array(partitions.values) }) { watch(partition) }
            }
            finished.signal()
        }
        watchdog.name = "axon-fleet-watchdog"
        watchdog.start()
    }

    /// Stops: checkpoints and releases every partition, removes its presence. Returns when done.
    public func stop() {
        stopCondition.withLock {
            stopping = true
            stopCondition.broadcast()
        }
        if thread != nil {
            finished.wait()
            finished.wait()
        }
        for partition in lock.withLock({ Array(partitions.values) }) {
            release(partition.index, checkpointFirst: true)
            giveBack(partition)
        }
        try? leases.delete("worker.\(options.id)")
    }

    /// A copy of the counters.
    public func statistics() -> Statistics {
        var copy = lock.withLock { stats }
        copy.cpuSeconds = Self.processCPUSeconds()
        copy.time = Date().timeIntervalSince1970
        return copy
    }

    // MARK: - Leases

    /// Calls `body` every `interval` seconds until ``stop()``; waits on the stop condition, never sleeps.
    private func repeatUntilStopped(every interval: Double, _ body: () -> Void) {
        var deadline = Date().timeIntervalSince1970
        while true {
            let stop = stopCondition.withLock { () -> Bool in
                while !stopping, Date().timeIntervalSince1970 < deadline {
                    _ = stopCondition.wait(until: Date(timeIntervalSince1970: deadline))
                }
                return stopping
            }
            if stop { return }
            deadline = Date().timeIntervalSince1970 + interval
            body()
        }
    }

    /// One round: renew, announce, then take or give partitions towards the fair share. A request that times out
    /// ends the round (the bucket's leader is gone or being elected, and every further request would wait as long):
    /// the next round comes `renewInterval` later, and renewals, which keep partitions running, go first.
    private func balance() {
        for partition in lock.withLock({ Array(partitions.values) }) {
            do {
                let revision = try renewLease("part.\(partition.index)", last: partition.leaseRevision)
                lock.withLock {
                    partition.leaseRevision = revision
                    partition.leaseRenewedAt = Date().timeIntervalSince1970
                }
            } catch where error.isWrongRevision || error.isNotFound {
                options.log("worker \(options.id): lease of partition \(partition.index) lost")
                lock.withLock { stats.lostPartitions += 1 }
                release(partition.index, checkpointFirst: false)
            } catch {
                options.log("worker \(options.id): lease of partition \(partition.index) not renewed: \(error)")
                if error.isTimeout || error.isNoResponders { return }
            }
        }
        if let presence = try? JSONEncoder().encode(statistics()) {
            do { try leases.put("worker.\(options.id)", value: Array(presence)) } catch {
                options.log("worker \(options.id): presence not renewed: \(error)")
                if error.isTimeout || error.isNoResponders { return }
            }
        }
        for partition in lock.withLock({ Array(partitions.values) }) {
            guard !isActive(partition) else { continue }
            // Stopped by a fenced checkpoint or an overdue lease: drop it; its lease, if still ours, goes back.
            options.log("worker \(options.id): partition \(partition.index) stopped, releasing it")
            release(partition.index, checkpointFirst: false)
            giveBack(partition)
        }
        guard let keys = try? leases.keys() else { return }
        // A lease or presence is stale when its revision has not moved for leaseSeconds of this worker's own
        // clock: no clock is compared across machines, and no one waits for the bucket's TTL to remove it.
        let now = Date().timeIntervalSince1970
        var revisions: [String: UInt64] = [:]
        var free: Set<String> = []
        var unread: Set<String> = []
        for key in keys {
            let entry: NATSKeyValue.Entry?
            do { entry = try leases.get(key) } catch {
                if error.isTimeout { return }
                unread.insert(key)
                continue
            }
            guard let entry else { continue }
            revisions[key] = entry.revision
            if entry.value.isEmpty { free.insert(key) }
        }
        // Deleted or expired keys leave; a key that could not be read this round keeps what was seen of it (forgetting
        // it would restart its clock, and a dead worker's lease would wait for the bucket's TTL). Revisions only grow.
        observed = observed.filter { revisions[$0.key] != nil || unread.contains($0.key) }
        for (key, revision) in revisions where revision > (observed[key]?.revision ?? 0) { observed[key] = (revision, now) }
        func stale(_ key: String) -> Bool { now - (observed[key]?.since ?? now) > Options.leaseSeconds }
        let me = "worker.\(options.id)"
        let workers = max(1, revisions.keys.filter { $0.hasPrefix("worker.") && ($0 == me || !stale($0)) }.count)
        let share = (FleetSubjects.partitionCount + workers - 1) / workers
        var held = lock.withLock { Set(partitions.keys) }
        if held.count > share {
            for index in held.sorted().suffix(held.count - share) {
                guard let partition = lock.withLock({ partitions[index] }) else { continue }
                release(index, checkpointFirst: true)
                giveBack(partition)
                options.log("worker \(options.id): released partition \(index) (\(workers) workers)")
            }
            return
        }
        let offset = FleetSubjects.partition(of: options.id)
        for step in 0..<FleetSubjects.partitionCount where held.count < share {
            let index = (offset + step) % FleetSubjects.partitionCount
            let key = "part.\(index)"
            guard !held.contains(index) else { continue }
            let revision: UInt64?
            if let current = revisions[key] {
                // Given back, or held by a worker that stopped renewing: take it with compare-and-set on what we saw.
                guard free.contains(key) || stale(key) else { continue }
                revision = try? leases.update(key, value: Array(options.id.utf8), last: current)
            } else {
                revision = try? leases.create(key, value: Array(options.id.utf8))
            }
            guard let revision else { continue }
            do {
                try acquire(index, leaseRevision: revision)
                held.insert(index)
            } catch {
                options.log("worker \(options.id): cannot take partition \(index): \(error)")
                _ = try? leases.update(key, value: [], last: revision)
            }
        }
    }

    /// Writes this worker's id to lease `key` by compare-and-set on `last`; returns the new revision. A renewal that
    /// timed out may have been stored all the same: when the key has moved on but still names this worker, the
    /// renewal goes on from its revision instead of giving the partition up.
    ///
    /// - Throws: ``NATSError`` with `isWrongRevision` when another worker holds the key now.
    private func renewLease(_ key: String, last: UInt64) throws(NATSError) -> UInt64 {
        let mine = Array(options.id.utf8)
        do {
            return try leases.update(key, value: mine, last: last)
        } catch where error.isWrongRevision {
            guard let entry = try leases.get(key), entry.value == mine, entry.revision > last else { throw error }
            return try leases.update(key, value: mine, last: entry.revision)
        }
    }

    /// Restores a partition's checkpoints and subscribes after its position.
    private func acquire(_ index: Int, leaseRevision: UInt64) throws {
        let partition = Partition(index: index, leaseRevision: leaseRevision)
        if let entry = try checkpoints.get("part.\(index)") {
            let record = try FleetJSON.decoder().decode(FleetPartitionCheckpoint.self, from: Data(entry.value))
            partition.lastSequence = record.streamSequence
            partition.checkpointRevision = entry.revision
        }
        for key in try checkpoints.keys() where key.hasPrefix("dev.\(index).") {
            guard let entry = try checkpoints.get(key) else { continue }
            let record = try FleetJSON.decoder().decode(FleetDeviceCheckpoint.self, from: Data(entry.value))
            let engine = try FleetDeviceEngine(
                descriptor: record.descriptor, settings: options.settings, snapshot: record.processor)
            partition.devices[record.device] = DeviceState(
                engine: engine, epoch: record.epoch, nextFrame: record.nextFrame, lastTime: record.lastTime,
                streamSequence: record.streamSequence, revision: entry.revision)
        }
        partition.nextCheckpoint = Date().timeIntervalSince1970 + options.checkpointInterval
        // Counted before the subscription starts the message thread, which then owns `devices`.
        let restored = partition.devices.count
        lock.withLock {
            partition.deviceCount = restored
            partitions[index] = partition
            stats.takeovers += 1
            stats.partitions = partitions.keys.sorted()
            stats.devices = partitions.values.reduce(0) { $0 + $1.deviceCount }
        }
        partition.lastMessageTime = Date().timeIntervalSince1970
        do {
            try partition.lock.withLock { partition.subscription = try subscribe(partition) }
        } catch {
            lock.withLock {
                partition.active = false
                partitions[index] = nil
            }
            throw error
        }
        options.log(
            "worker \(options.id): took partition \(index) at sequence \(partition.lastSequence + 1) with "
                + "\(restored) checkpointed devices")
    }

    /// Marks a released partition's lease free (an empty value), only if it is still ours (compare-and-set).
    private func giveBack(_ partition: Partition) {
        let revision = lock.withLock { partition.leaseRevision }
        _ = try? leases.update("part.\(partition.index)", value: [], last: revision)
    }

    /// Makes a silent partition's consumer again from just after the last message it handled, and a partition
    /// whose handler asked to read it again at once.
    /// Never waits for the partition: a handler holding its lock (waiting for a publish acknowledgement) is busy,
    /// not silent, and the lease thread must go on renewing.
    private func watch(_ partition: Partition) {
        guard partition.lock.try() else { return }
        defer { partition.lock.unlock() }
        let now = Date().timeIntervalSince1970
        guard isActive(partition), partition.rereadRequested || now - partition.lastMessageTime > Options.stallSeconds
        else { return }
        partition.subscription?.unsubscribe()
        partition.lastMessageTime = now
        do {
            partition.subscription = try subscribe(partition)
            partition.rereadRequested = false
            lock.withLock { stats.resubscriptions += 1 }
        } catch {
            options.log("worker \(options.id): partition \(partition.index) not resubscribed: \(error)")
        }
    }

    /// A new consumer of the partition from just after ``Partition/lastSequence``. Under the partition's lock.
    private func subscribe(_ partition: Partition) throws(NATSError) -> NATSSubscription {
        partition.generation &+= 1
        let generation = partition.generation
        return try nats.subscribeOrdered(
            stream: FleetSubjects.rawStream, subject: FleetSubjects.rawPartition(partition.index),
            startSequence: partition.lastSequence + 1, headerKeys: FrameBatch.headerKeys
        ) { [weak self, partition] message in
            self?.handle(message, in: partition, generation: generation)
        }
    }

    /// Stops reading a partition; checkpoints it first when the lease is still ours.
    private func release(_ index: Int, checkpointFirst: Bool) {
        guard let partition = lock.withLock({ partitions[index] }) else { return }
        if !checkpointFirst { lock.withLock { partition.active = false } }
        partition.subscription?.unsubscribe()
        partition.lock.withLock {
            if checkpointFirst, isActive(partition) { checkpoint(partition) }
            lock.withLock { partition.active = false }
        }
        lock.withLock {
            partitions[index] = nil
            stats.partitions = partitions.keys.sorted()
            stats.devices = partitions.values.reduce(0) { $0 + $1.deviceCount }
        }
    }

    private func isActive(_ partition: Partition) -> Bool { lock.withLock { partition.active } }

    // MARK: - Messages

    private func handle(_ message: NATSMessage, in partition: Partition, generation: UInt64) {
        if let drops = options.dropsDelivery, drops(message) { return }
        partition.lock.lock()
        defer { partition.lock.unlock() }
        // A consumer made again since (a stall or a re-read) redelivers what this one still had.
        guard generation == partition.generation else { return }
        let held = lock.withLock { () -> Bool in
            guard partition.active else { return false }
            if Date().timeIntervalSince1970 - partition.leaseRenewedAt > Options.safeHoldSeconds { partition.active = false }
            return partition.active
        }
        // A stopped partition's messages are left to whoever holds it next (from the last checkpoint).
        guard held else { return }
        partition.lastMessageTime = Date().timeIntervalSince1970
        // A consumer made again may repeat what the old one delivered just before it stopped.
        guard message.streamSequence > partition.lastSequence else { return }
        if case .readAgain(let after) = process(message, in: partition) {
            // Fence this consumer and have the watchdog make one from the device's last batch; the partition's
            // other devices skip what they already had (their own stream sequence).
            partition.lastSequence = min(partition.lastSequence, after)
            partition.generation &+= 1
            partition.rereadRequested = true
            partition.subscription?.unsubscribe()
            return
        }
        partition.lastSequence = max(partition.lastSequence, message.streamSequence)
        // A partition stopped while its results were being published may have left some unpublished: its state must
        // not be checkpointed past them (the next owner re-makes them from the last checkpoint).
        if Date().timeIntervalSince1970 >= partition.nextCheckpoint, isActive(partition) { checkpoint(partition) }
    }

    private func reject(_ reason: String, _ detail: String, message: NATSMessage) {
        let text = "worker \(options.id): rejected \(message.subject) #\(message.streamSequence) (\(reason)): \(detail)"
        lock.withLock {
            stats.rejected[reason, default: 0] += 1
            stats.lastRejection = text
        }
        options.log(text)
    }

    /// What the partition does after a message.
    private enum Outcome {
        /// Go on with the next message.
        case next
        /// Read the partition again after this stream sequence: a batch before this one was not delivered.
        case readAgain(after: UInt64)
    }

    private func process(_ message: NATSMessage, in partition: Partition) -> Outcome {
        let batch: FrameBatch
        do { batch = try FrameBatch.decode(message) } catch {
            reject("undecodable", "\(error)", message: message)
            return .next
        }
        let state: DeviceState
        if let known = partition.devices[batch.device] {
            if message.streamSequence <= known.streamSequence {
                lock.withLock { stats.skippedBatches += 1 }
                return .next
            }
            state = known
        } else {
            do {
                let engine = try FleetDeviceEngine(descriptor: batch.descriptor, settings: options.settings)
                state = DeviceState(
                    engine: engine, epoch: batch.epoch, nextFrame: batch.firstFrame, lastTime: .nan, streamSequence: 0,
                    revision: 0)
            } catch {
                reject("unusableDescriptor", "\(error)", message: message)
                return .next
            }
            partition.devices[batch.device] = state
            lock.withLock {
                stats.devices += 1
                partition.deviceCount += 1
            }
        }
        guard batch.descriptor == state.engine.descriptor else {
            reject("descriptorChanged", "the stream's descriptor differs from its first one", message: message)
            return .next
        }
        if batch.epoch < state.epoch || (batch.epoch == state.epoch && batch.firstFrame < state.nextFrame) {
            reject(
                "sequenceBackwards",
                "session \(batch.epoch) frame \(batch.firstFrame) after session \(state.epoch) frame \(state.nextFrame)",
                message: message)
            return .next
        }
        // Frames jumped within a session: a batch the consumer did not deliver, or frames the gateway dropped. Read
        // the partition again once from this device's last batch to tell them apart.
        if batch.epoch == state.epoch, batch.firstFrame > state.nextFrame, state.rereadBefore != batch.firstFrame {
            state.rereadBefore = batch.firstFrame
            options.log(
                "worker \(options.id): \(batch.device) jumped from frame \(state.nextFrame) to \(batch.firstFrame) "
                    + "(#\(message.streamSequence)); reading partition \(partition.index) again after #\(state.streamSequence)")
            return .readAgain(after: state.streamSequence)
        }
        state.rereadBefore = nil
        // Frames the gateway could not deliver (a full spool) or a new gateway session: a gap measured in time.
        var extraGap: GapRecord?
        if (batch.epoch > state.epoch || batch.firstFrame > state.nextFrame), state.lastTime.isFinite {
            let missing = max(0, Int(((batch.rows[0] - state.lastTime) * batch.descriptor.nominalRate).rounded()) - 1)
            extraGap = GapRecord(
                cause: batch.epoch > state.epoch ? .linkLoss : .overflow, missingCount: missing, start: state.lastTime,
                end: batch.rows[0])
        }
        let rawTime = String(message.timestamp)
        var spectra = 0
        var zones = 0
        state.engine.feed(rows: batch.rows, gaps: batch.gaps, extraGapBeforeFirst: extraGap) { kind, row in
            let index = Int(row[1])
            let spectrum = kind == .spectrum
            publish(
                subject: spectrum ? FleetSubjects.spectra(batch.device) : FleetSubjects.zones(batch.device),
                row: row, id: "\(batch.device).\(spectrum ? "s" : "z").\(index)", rawTime: rawTime, partition: partition)
            if spectrum { spectra += 1 } else { zones += 1 }
        }
        state.epoch = batch.epoch
        state.nextFrame = batch.firstFrame + UInt64(batch.frameCount)
        state.lastTime = batch.rows[(batch.frameCount - 1) * batch.rowWidth]
        state.streamSequence = message.streamSequence
        state.dirty = true
        let lag = Date().timeIntervalSince1970 - Double(message.timestamp) / 1e9
        lock.withLock {
            stats.batches += 1
            stats.frames += batch.frameCount
            stats.spectra += spectra
            stats.zones += zones
            stats.lag = lag
            stats.maxLag = max(stats.maxLag, lag)
        }
        return .next
    }

    /// Publishes one result row, retrying with the same id until it is stored or the partition is no longer ours.
    private func publish(subject: String, row: UnsafeBufferPointer<Double>, id: String, rawTime: String, partition: Partition) {
        let data = Float64LE.encode(row)
        let headers = ["Axon-Raw-Time": rawTime, "Axon-Worker": options.id]
        while isActive(partition) {
            do {
                let ack = try nats.publish(
                    subject: subject, data: data, headers: headers, messageID: id, timeout: options.publishTimeout)
                if ack.duplicate { lock.withLock { stats.duplicateResults += 1 } }
                return
            } catch {
                lock.withLock { stats.publishRetries += 1 }
            }
        }
    }

    // MARK: - Checkpoints

    /// A revision lost to a write whose outcome is unknown (timed out): read it back before the next write.
    private static let unknownRevision = UInt64.max

    /// Writes `value` under `key` with compare-and-set on `revision` (0: create). After a write that timed out, the
    /// revision is read back: ours if the stored record names this worker, else fenced.
    private func write(_ key: String, _ value: [UInt8], revision: UInt64, ours: (Data) -> Bool) throws(NATSError) -> UInt64 {
        var last = revision
        if last == Self.unknownRevision {
            guard let entry = try checkpoints.get(key) else { return try checkpoints.create(key, value: value) }
            guard ours(Data(entry.value)) else { throw NATSError("checkpoint \(key) written by another worker", status: NATS_ERR, fenced: true) }
            last = entry.revision
        }
        return last == 0 ? try checkpoints.create(key, value: value) : try checkpoints.update(key, value: value, last: last)
    }

    /// Writes the partition's dirty devices, then its position. Under the partition's lock.
    private func checkpoint(_ partition: Partition) {
        partition.nextCheckpoint = Date().timeIntervalSince1970 + options.checkpointInterval
        let encoder = FleetJSON.encoder()
        let decoder = FleetJSON.decoder()
        let me = options.id
        var written = 0
        var pending: [DeviceState] = []
        do {
            for (device, state) in partition.devices where state.dirty {
                pending.append(state)
                let record = FleetDeviceCheckpoint(
                    device: device, descriptor: state.engine.descriptor, epoch: state.epoch, nextFrame: state.nextFrame,
                    lastTime: state.lastTime, streamSequence: state.streamSequence,
                    processor: state.engine.processor.snapshot(), worker: me)
                state.revision = try write(
                    FleetDeviceCheckpoint.key(device), Array(try encoder.encode(record)), revision: state.revision
                ) { (try? decoder.decode(FleetDeviceCheckpoint.self, from: $0))?.worker == me }
                state.dirty = false
                pending.removeLast()
                written += 1
            }
            let position = Array(
                try encoder.encode(FleetPartitionCheckpoint(streamSequence: partition.lastSequence, worker: me)))
            partition.checkpointRevision = try write(
                "part.\(partition.index)", position, revision: partition.checkpointRevision
            ) { (try? decoder.decode(FleetPartitionCheckpoint.self, from: $0))?.worker == me }
            lock.withLock { stats.checkpoints += written }
        } catch let error as NATSError where error.isWrongRevision {
            // Someone else wrote since we read: the partition moved on without us.
            options.log("worker \(options.id): partition \(partition.index) checkpoint fenced: \(error)")
            lock.withLock {
                partition.active = false
                stats.lostPartitions += 1
            }
        } catch {
            // The outcome of the failed write is unknown: read its revision back next time.
            for state in pending { state.revision = Self.unknownRevision }
            partition.checkpointRevision = Self.unknownRevision
            options.log("worker \(options.id): partition \(partition.index) checkpoint failed: \(error)")
            lock.withLock { stats.checkpointFailures += 1 }
        }
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return .nan }
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
