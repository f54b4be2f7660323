import AxonStreams
import Foundation

/// The publishing half of an ingest gateway for one device: frames in, ``FrameBatch`` messages out to JetStream,
/// with the bounded on-disk ``FleetSpool`` in between when the broker does not acknowledge.
///
/// Order is kept: while anything is spooled, new batches go behind it; the spool is replayed oldest first (at most
/// once per ``Options/retryInterval`` after a failure), each message with its original `Nats-Msg-Id`, so a batch
/// the broker stored but did not acknowledge in time is not stored twice (and a "duplicate" answer that names no
/// stored sequence is a failure, retried: ``NATSError/isUnconfirmedDuplicate``). A "duplicate" that names a sequence
/// is checked too, ``Options/duplicateCheckDelay`` later, with the later batches held behind it: a stream leader that
/// was paused answers from proposals its successor never stored, so the batch is published again unless the stream
/// holds it at that sequence. Frames are dropped — and counted in
/// ``Statistics/droppedFrames`` — only when the spool is full; the next batch's `Axon-First-Frame` then jumps, and
/// the worker turns the jump into a gap.
///
/// Every ``Options/statusInterval`` it also publishes its ``Statistics`` on `axon.status.<device>`.
///
/// Threading: one owner thread (a pipeline's consumer thread through ``JetStreamSampleSink``, or a simulator
/// thread). Publishing blocks that thread for up to ``Options/publishTimeout`` per attempt.
public final class FleetPublisher {
    /// How batches are made and kept.
    public struct Options: Sendable, Hashable {
        /// Frames per message (125 = half a second of a 250 Hz headset).
        public var batchFrames: Int
        /// Folder of the spool (one subfolder per device).
        public var spoolDirectory: URL
        /// Bytes the device's spool may hold.
        public var spoolLimit: Int
        /// Seconds to wait for a publish acknowledgement.
        public var publishTimeout: Double
        /// Seconds between replay attempts after a failure.
        public var retryInterval: Double
        /// Seconds between status messages.
        public var statusInterval: Double
        /// Seconds after a "duplicate" acknowledgement before the stream is asked whether it holds the batch: long
        /// enough for a deposed leader to have learned of its successor.
        public var duplicateCheckDelay: Double

        /// Creates options.
        public init(
            batchFrames: Int = 125, spoolDirectory: URL, spoolLimit: Int = 64 << 20, publishTimeout: Double = 1,
            retryInterval: Double = 0.5, statusInterval: Double = 2, duplicateCheckDelay: Double = 2
        ) {
            self.batchFrames = batchFrames
            self.spoolDirectory = spoolDirectory
            self.spoolLimit = spoolLimit
            self.publishTimeout = publishTimeout
            self.retryInterval = retryInterval
            self.statusInterval = statusInterval
            self.duplicateCheckDelay = duplicateCheckDelay
        }
    }

    /// What the gateway did so far.
    ///
    /// Threading: a plain value.
    public struct Statistics: Sendable, Hashable, Codable {
        /// The device.
        public var device = ""
        /// Frames accepted from the source.
        public var frames = 0
        /// Messages acknowledged by JetStream (first try or replay).
        public var publishedBatches = 0
        /// Acknowledgements that said "duplicate": a retry of something already stored, or so the stream said.
        public var duplicateAcknowledgements = 0
        /// Publish attempts that failed (timeout, no quorum, disconnected), and "duplicate" acknowledgements the
        /// stream did not bear out (its sequence held another message or none).
        public var publishFailures = 0
        /// Messages that went to the spool.
        public var spooledBatches = 0
        /// Spooled messages published later.
        public var replayedBatches = 0
        /// Frames lost because the spool was full.
        public var droppedFrames = 0
        /// Spool files that could not be read back (removed; the worker sees their frames as a gap).
        public var damagedSpoolFiles = 0
        /// Messages in the spool now.
        public var spoolBatches = 0
        /// Bytes in the spool now.
        public var spoolBytes = 0
        /// Unix time of this report.
        public var time = 0.0
    }

    /// The device.
    public let device: String
    /// The stream.
    public let descriptor: StreamDescriptor
    /// The session.
    public let epoch: UInt64
    /// The options.
    public let options: Options
    private let nats: NATSConnection
    private let spool: FleetSpool
    private var rows: [Double] = []
    private var gaps: [FrameBatch.Gap] = []
    private var batchFrames = 0
    private var nextFirstFrame: UInt64 = 0
    private var nextRetry = 0.0
    private var nextStatus = 0.0
    /// The oldest spooled batch was acknowledged as a duplicate of the message at `sequence`: checked at `due`.
    private var duplicateToCheck: (sequence: UInt64, due: Double)?
    /// What it did so far.
    public private(set) var statistics = Statistics()

    /// Creates the publisher of `device`'s stream; opens its spool (replaying what a previous run left first).
    ///
    /// - Parameter epoch: the session; by default Unix milliseconds now, so a restarted gateway's batches never
    ///   share ids with the previous run's.
    /// - Throws: ``FleetError`` for a bad device id, a batch size outside 1…``FrameBatch/maxFrames`` or a spool
    ///   folder that cannot be used.
    public init(
        nats: NATSConnection, device: String, descriptor: StreamDescriptor, options: Options,
        epoch: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000)
    ) throws(FleetError) {
        try FleetSubjects.validate(deviceID: device)
        guard (1...FrameBatch.maxFrames).contains(options.batchFrames) else {
            throw .invalidOption("batch frames must be 1…\(FrameBatch.maxFrames)")
        }
        self.nats = nats
        self.device = device
        self.descriptor = descriptor
        self.epoch = epoch
        self.options = options
        self.spool = try FleetSpool(directory: options.spoolDirectory.appendingPathComponent(device), limit: options.spoolLimit)
        statistics.device = device
        rows.reserveCapacity(options.batchFrames * (2 + descriptor.channelCount))
    }

    /// Adds one frame: its Unix time (seconds), its device counter (NaN if none) and one value per channel.
    /// Publishes when the batch is full.
    public func append(time: Double, counter: Double, values: UnsafeBufferPointer<Double>) {
        precondition(values.count == descriptor.channelCount, "a frame needs one value per channel")
        rows.append(time)
        rows.append(counter)
        rows.append(contentsOf: values)
        batchFrames += 1
        statistics.frames += 1
        if batchFrames >= options.batchFrames { flush() }
    }

    /// Records `missing` samples lost before the next appended frame.
    public func noteGap(missing: Int, cause: GapRecord.Cause) {
        gaps.append(FrameBatch.Gap(beforeFrame: batchFrames, missing: missing, cause: cause))
    }

    /// Publishes the frames collected so far as one message (or spools it). Lost samples noted after the last
    /// frame wait for the next frame.
    public func flush() {
        guard batchFrames > 0 else { return }
        let inBatch = gaps.filter { $0.beforeFrame < batchFrames }
        let batch = FrameBatch(
            device: device, epoch: epoch, firstFrame: nextFirstFrame, descriptor: descriptor, rows: rows, gaps: inBatch)
        nextFirstFrame += UInt64(batchFrames)
        gaps = gaps.filter { $0.beforeFrame >= batchFrames }.map {
            FrameBatch.Gap(beforeFrame: 0, missing: $0.missing, cause: $0.cause)
        }
        rows.removeAll(keepingCapacity: true)
        batchFrames = 0
        send(FleetSpool.Record(subject: batch.subject, id: batch.messageID, headers: batch.headers(), body: batch.body()),
             name: String(format: "%020llu-%020llu", batch.epoch, batch.firstFrame))
        publishStatusIfDue()
    }

    /// Flushes, then replays the spool until it is empty or `deadline` (Unix seconds) passes.
    ///
    /// - Returns: whether everything is published (the spool is empty).
    @discardableResult
    public func finish(deadline: Double) -> Bool {
        flush()
        while !spool.isEmpty, Date().timeIntervalSince1970 < deadline {
            // A duplicate's check waits for its due time, not for an event: without this wait the loop would
            // spin, as `replay()` returns at once until then.
            if let check = duplicateToCheck {
                Thread.sleep(forTimeInterval: max(0, min(check.due, deadline) - Date().timeIntervalSince1970))
            }
            nextRetry = 0
            replay()
        }
        publishStatus()
        return spool.isEmpty
    }

    private func send(_ record: FleetSpool.Record, name: String) {
        if !spool.isEmpty { replay() }
        if spool.isEmpty {
            do {
                let ack = try publish(record)
                // A first attempt called a duplicate is odd but possible (a restarted gateway within one epoch
                // millisecond): spooled first in line, it is checked like a replay.
                guard ack.duplicate else { return }
                duplicateToCheck = (ack.sequence, Date().timeIntervalSince1970 + options.duplicateCheckDelay)
            } catch {
                nextRetry = Date().timeIntervalSince1970 + options.retryInterval
            }
        }
        var spooled = false
        do { spooled = try spool.append(record, name: name) } catch {}
        if spooled {
            statistics.spooledBatches += 1
        } else {
            statistics.droppedFrames += Int(record.headers["Axon-Frames"] ?? "") ?? 0
            // A check belongs to the oldest spooled batch; one that never got there leaves nothing to check.
            if spool.isEmpty { duplicateToCheck = nil }
        }
        noteSpool()
    }

    /// Publishes spooled messages in order until one fails (then waits ``Options/retryInterval``).
    private func replay() {
        guard Date().timeIntervalSince1970 >= nextRetry else { return }
        while true {
            let record: FleetSpool.Record?
            do { record = try spool.oldest() } catch {
                // A damaged file cannot be replayed: count it and go on with the rest.
                statistics.damagedSpoolFiles += 1
                duplicateToCheck = nil
                if (try? spool.removeOldest()) == nil { return }
                continue
            }
            guard let record else { break }
            if let check = duplicateToCheck {
                guard Date().timeIntervalSince1970 >= check.due else { break }
                do {
                    let held = try nats.storedMessageID(stream: FleetSubjects.rawStream, sequence: check.sequence)
                    duplicateToCheck = nil
                    if held == record.id {
                        statistics.replayedBatches += 1
                        do { try spool.removeOldest() } catch { break }
                        continue
                    }
                    // Not stored after all: publish it again (the new leader has never seen its id).
                    statistics.publishFailures += 1
                } catch {
                    duplicateToCheck = (check.sequence, Date().timeIntervalSince1970 + options.retryInterval)
                    break
                }
            }
            do {
                let ack = try publish(record)
                if ack.duplicate {
                    duplicateToCheck = (ack.sequence, Date().timeIntervalSince1970 + options.duplicateCheckDelay)
                    break
                }
                statistics.replayedBatches += 1
                try spool.removeOldest()
            } catch {
                nextRetry = Date().timeIntervalSince1970 + options.retryInterval
                break
            }
        }
        noteSpool()
    }

    private func publish(_ record: FleetSpool.Record) throws -> NATSConnection.PublishAck {
        do {
            let ack = try nats.publish(
                subject: record.subject, data: record.body, headers: record.headers, messageID: record.id,
                timeout: options.publishTimeout)
            statistics.publishedBatches += 1
            if ack.duplicate { statistics.duplicateAcknowledgements += 1 }
            return ack
        } catch {
            statistics.publishFailures += 1
            throw error
        }
    }

    private func noteSpool() {
        statistics.spoolBatches = spool.count
        statistics.spoolBytes = spool.bytes
    }

    private func publishStatusIfDue() {
        let now = Date().timeIntervalSince1970
        guard now >= nextStatus else { return }
        nextStatus = now + options.statusInterval
        publishStatus()
    }

    /// Publishes the statistics on `axon.status.<device>` (best effort: a status that cannot be published now is
    /// replaced by the next one).
    private func publishStatus() {
        noteSpool()
        statistics.time = Date().timeIntervalSince1970
        guard let data = try? JSONEncoder().encode(statistics) else { return }
        _ = try? nats.publish(
            subject: FleetSubjects.status(device), data: Array(data), messageID: "\(device).status.\(statistics.time)",
            timeout: options.publishTimeout)
    }
}
