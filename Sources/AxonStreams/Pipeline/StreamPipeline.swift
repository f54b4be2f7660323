import Dispatch

/// Runs one regular numeric stream: a producer pushes frames into a lock-free ring, one consumer thread pulls
/// them in batches, stamps them (``StreamTimeline``: gaps and dejittered times), runs the processors and fans
/// out to the sinks.
///
///     let pipeline = StreamPipeline(source: SimulatedSource(), sinks: [console])
///     try pipeline.start()
///     …
///     let stats = pipeline.statistics()   // any thread, any time
///     pipeline.stop()                     // delivers everything already buffered, then returns
///
/// The producer is either the pipeline's own source thread (a ``SampleSource``) or a thread of the caller's
/// that writes through ``makeWriter()`` (a device callback).
///
/// Threading contract: `start`, `stop`, `waitUntilFinished` and `makeWriter` from one controlling thread;
/// `statistics()` from any thread. Processors and sinks are used only on the consumer thread while it runs. The
/// consumer loop takes no lock and allocates nothing per frame.
public final class StreamPipeline: @unchecked Sendable {
    // Sendable invariant: mutable state below is touched by the controlling thread only before `start` and
    // after the threads are joined, and by the consumer thread in between (thread start and join are the
    // happens-before edges). `reader` is protected by its mutex; the ring is safe by construction.

    /// Settings of a pipeline.
    public struct Configuration: Sendable {
        /// Ring capacity in frames (rounded up to a power of two). 4096 frames hold 16 s at 250 Hz.
        public var ringCapacity: Int
        /// What a full ring does.
        public var overflow: OverflowPolicy
        /// The most frames pulled and processed at once.
        public var batchSize: Int
        /// Counter unwrapping and clock estimation.
        public var timeline: StreamTimeline.Configuration
        /// How the consumer waits on an empty ring.
        public var idle: IdleStrategy
        /// Seconds between statistics snapshots.
        public var statisticsInterval: Double
        /// CPU affinity, `SCHED_FIFO` priority and locked memory for the consumer thread; off by default.
        public var realTime = RealTimeOptions.off

        /// Creates a configuration.
        public init(
            ringCapacity: Int = 4096, overflow: OverflowPolicy = .dropOldest, batchSize: Int = 256,
            timeline: StreamTimeline.Configuration = .init(), idle: IdleStrategy = .init(),
            statisticsInterval: Double = 0.1
        ) {
            precondition(ringCapacity >= 1 && batchSize >= 1 && statisticsInterval > 0)
            self.ringCapacity = ringCapacity
            self.overflow = overflow
            self.batchSize = batchSize
            self.timeline = timeline
            self.idle = idle
            self.statisticsInterval = statisticsInterval
        }
    }

    /// The real-time options (``Configuration/realTime``) the system refused, one message each; empty when all
    /// were applied or none was asked for. Known once ``start()`` returns. Any thread.
    public var realTimeRefusals: [String] { realTimeRefusalList.withLock { $0 } }
    private let realTimeRefusalList = ThreadLocked<[String]>([])

    /// The stream.
    public let descriptor: StreamDescriptor
    /// The settings.
    public let configuration: Configuration
    /// The frame layout of the stream.
    public let layout: FrameLayout

    private let ring: SPSCRing<Double>
    private let source: (any SampleSource)?
    private let processors: [any SampleProcessor]
    private let sinks: [any SampleSink]
    private let block: SampleBlock
    private let timeline: StreamTimeline
    private let stageTimings: [DurationHistogram]
    private let latency = DurationHistogram()
    private var sinkFailed: [Bool]
    private var delivered = 0
    private var startTime = 0.0
    private var writerTaken = false
    private var started = false
    private var sourceThread: WorkerThread?
    private var consumerThread: WorkerThread?

    // Statistics travel from the consumer thread to readers through a ring of fixed rows, so the consumer
    // never takes a lock to publish them.
    private let statisticsRing: SPSCRing<Double>
    private let reader: ThreadLocked<StatisticsReader>
    private let failures = ThreadLocked<[PipelineFailure]>([])

    private static let fixedStatisticsLanes = 4  // elapsed, delivered, gap records, missing frames
    private static let lanesPerStage = 5  // count, p50, p90, p99, max

    /// Creates a pipeline whose frames come from `source` on a thread of its own.
    public convenience init(
        source: any SampleSource, processors: [any SampleProcessor] = [], sinks: [any SampleSink],
        configuration: Configuration = .init()
    ) {
        self.init(descriptor: source.descriptor, source: source, processors: processors, sinks: sinks,
                  configuration: configuration)
    }

    /// Creates a pipeline whose frames the caller writes through ``makeWriter()``.
    public convenience init(
        descriptor: StreamDescriptor, processors: [any SampleProcessor] = [], sinks: [any SampleSink],
        configuration: Configuration = .init()
    ) {
        self.init(descriptor: descriptor, source: nil, processors: processors, sinks: sinks,
                  configuration: configuration)
    }

    private init(
        descriptor: StreamDescriptor, source: (any SampleSource)?, processors: [any SampleProcessor],
        sinks: [any SampleSink], configuration: Configuration
    ) {
        self.descriptor = descriptor
        self.configuration = configuration
        self.layout = FrameLayout(channelCount: max(1, descriptor.channelCount))
        self.ring = SPSCRing(
            capacity: SPSCRing<Double>.powerOfTwo(atLeast: configuration.ringCapacity), width: layout.width,
            overflow: configuration.overflow, wakeable: true)
        self.source = source
        self.processors = processors
        self.sinks = sinks
        self.block = SampleBlock(layout: layout, capacity: configuration.batchSize)
        self.timeline = StreamTimeline(nominalRate: descriptor.nominalRate, configuration: configuration.timeline)
        self.stageTimings = (0..<(1 + processors.count + sinks.count)).map { _ in DurationHistogram() }
        self.sinkFailed = Array(repeating: false, count: sinks.count)
        let stageNames = ["timeline"] + processors.map(\.name) + sinks.map(\.name)
        let width = Self.fixedStatisticsLanes + Self.lanesPerStage * (stageNames.count + 1)
        self.statisticsRing = SPSCRing(capacity: 4, width: width, overflow: .dropOldest)
        self.reader = ThreadLocked(StatisticsReader(stageNames: stageNames, width: width))
    }

    /// The producer handle for a pipeline created without a source. Call once, before or after `start`.
    public func makeWriter() throws(PipelineError) -> FrameWriter {
        guard source == nil, !writerTaken else { throw .writerUnavailable }
        writerTaken = true
        return FrameWriter(ring: ring, layout: layout)
    }

    /// Opens processors and sinks, then starts the consumer thread and the source thread.
    ///
    /// - Throws: ``PipelineError`` if a stage cannot open (nothing is left running) or a thread cannot start.
    public func start() throws(PipelineError) {
        guard !started else { throw PipelineError.alreadyStarted }
        started = true
        for processor in processors {
            do { try processor.open(descriptor) } catch {
                throw PipelineError.stageFailed(stage: processor.name, cause: error)
            }
        }
        for sink in sinks {
            do { try sink.open(descriptor) } catch {
                throw PipelineError.stageFailed(stage: sink.name, cause: error)
            }
        }
        startTime = HostClock.now()
        let realTimeApplied = DispatchSemaphore(value: 0)
        consumerThread = try WorkerThread(name: "axon-consume") { [self] in
            let refusals = configuration.realTime.applyToCurrentThread()
            realTimeRefusalList.withLock { $0 = refusals }
            realTimeApplied.signal()
            consumeLoop()
        }
        realTimeApplied.wait()
        if let source {
            let writer = FrameWriter(ring: ring, layout: layout)
            sourceThread = try WorkerThread(name: "axon-source") { [self] in
                do { try source.run(into: writer) } catch {
                    recordFailure(PipelineFailure(stage: "source \(source.descriptor.name)", cause: error))
                }
                writer.finish()
            }
        }
    }

    /// Asks the producer to stop, then waits until everything already buffered has reached the sinks and the
    /// sinks are closed. With an external writer, frames written after this call may not be delivered.
    public func stop() {
        ring.requestStop()
        waitUntilFinished()
    }

    /// Waits until the producer has finished (its source ended, or the writer called `finish()`), everything
    /// has been delivered and the sinks are closed.
    public func waitUntilFinished() {
        sourceThread?.join()
        consumerThread?.join()
    }

    /// The latest statistics. Any thread; cheap (a lock held for a copy, never taken by the consumer).
    public func statistics() -> PipelineStatistics {
        var snapshot = reader.withLock { $0.latest(from: statisticsRing) }
        snapshot.received = ring.receivedCount
        snapshot.dropped = ring.droppedCount
        snapshot.occupancy = ring.approximateCount
        snapshot.peakOccupancy = ring.peakOccupancy
        snapshot.capacity = ring.capacity
        snapshot.failures = failures.withLock { $0 }
        return snapshot
    }

    // MARK: - Consumer thread

    private func consumeLoop() {
        var idle = configuration.idle
        var nextPublish = HostClock.now() + configuration.statisticsInterval
        let ownProducer = source != nil
        // A producer that waits for room (`.rejectNewest`, a file replay) can wait while the stages work on the
        // ring's slots in place; one that must always find room (`.dropOldest`) gets its slots back at once.
        let inPlace = configuration.overflow == .rejectNewest
        while true {
            let frames: Int
            if inPlace {
                frames = ring.withOldestSlots(upTo: configuration.batchSize) { first, count in
                    block.lend(rows: first, frameCount: count)
                    deliver()
                    block.useOwnRows()
                }
            } else {
                frames = ring.pop(into: block.ownRows)
                if frames > 0 {
                    block.reset(frameCount: frames)
                    deliver()
                }
            }
            if frames > 0 {
                idle.reset()
            } else if ring.isFinished || (!ownProducer && ring.isStopRequested && ring.isEmpty) {
                break
            } else {
                idle.idle(waitingOn: ring)
            }
            let now = HostClock.now()
            if now >= nextPublish {
                publishStatistics(now: now)
                nextPublish = now + configuration.statisticsInterval
            }
        }
        // Frames the ring rejected after the last delivered one still deserve a gap record.
        block.reset(frameCount: 0)
        timeline.finish(offeredFrames: ring.receivedCount, into: block)
        if block.gapCount > 0 { deliver() }
        for processor in processors { processor.close() }
        for (index, sink) in sinks.enumerated() where !sinkFailed[index] {
            do { try sink.close() } catch {
                recordFailure(PipelineFailure(stage: "sink \(sink.name) close", cause: error))
            }
        }
        publishStatistics(now: HostClock.now())
    }

    private func deliver() {
        var stage = 0
        var mark = HostClock.now()
        func lap() {
            let now = HostClock.now()
            stageTimings[stage].record(now - mark)
            stage += 1
            mark = now
        }
        timeline.process(block)
        lap()
        for processor in processors {
            processor.process(block)
            lap()
        }
        // Every frame of the batch is counted with the wait of its oldest frame, an upper bound of its own: one
        // binning per batch instead of one per frame.
        if block.frameCount > 0 {
            latency.record(mark - block.arrivalTime(ofFrame: 0), times: UInt64(block.frameCount))
        }
        for (index, sink) in sinks.enumerated() {
            if !sinkFailed[index] {
                do { try sink.write(block) } catch {
                    sinkFailed[index] = true
                    recordFailure(PipelineFailure(stage: "sink \(sink.name)", cause: error))
                }
            }
            lap()
        }
        delivered += block.frameCount
    }

    private func recordFailure(_ failure: PipelineFailure) {
        failures.withLock { $0.append(failure) }
    }

    private func publishStatistics(now: Double) {
        statisticsRing.pushSlot { row in
            row[0] = now - startTime
            row[1] = Double(delivered)
            row[2] = Double(timeline.gapRecordCount)
            row[3] = Double(timeline.missingSampleCount)
            var lane = Self.fixedStatisticsLanes
            func put(_ histogram: DurationHistogram) {
                row[lane] = Double(histogram.count)
                row[lane + 1] = histogram.percentile(0.5)
                row[lane + 2] = histogram.percentile(0.9)
                row[lane + 3] = histogram.percentile(0.99)
                row[lane + 4] = histogram.maximum
                lane += Self.lanesPerStage
            }
            for histogram in stageTimings { put(histogram) }
            put(latency)
        }
    }

    /// The reader side of the statistics ring; lives inside the mutex, so it is the ring's single consumer.
    private struct StatisticsReader: ~Copyable {
        let stageNames: [String]
        var row: [Double]

        init(stageNames: [String], width: Int) {
            self.stageNames = stageNames
            self.row = Array(repeating: 0, count: width)
        }

        mutating func latest(from ring: SPSCRing<Double>) -> PipelineStatistics {
            var scratch = row
            while scratch.withUnsafeMutableBufferPointer({ ring.pop(into: $0) }) == 1 { row = scratch }
            func timing(_ index: Int, _ name: String) -> StageTiming {
                let lane = StreamPipeline.fixedStatisticsLanes + index * StreamPipeline.lanesPerStage
                return StageTiming(name: name, count: Int(row[lane]), p50: row[lane + 1], p90: row[lane + 2],
                                   p99: row[lane + 3], max: row[lane + 4])
            }
            return PipelineStatistics(
                elapsed: row[0], received: 0, delivered: Int(row[1]), dropped: 0, gapRecords: Int(row[2]),
                missingFrames: Int(row[3]), occupancy: 0, peakOccupancy: 0, capacity: 0,
                latency: timing(stageNames.count, "latency"),
                stages: stageNames.enumerated().map { timing($0.offset, $0.element) }, failures: [])
        }
    }
}
