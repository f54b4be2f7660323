import AxonMemory
import AxonStreams

/// An LSL stream as an Axon source: a liblsl inlet pulled on the pipeline's source thread.
///
/// - The descriptor comes from the stream's full info (labels, units, types, rate, format, source id).
/// - Time: each sample's LSL timestamp is mapped onto this machine's clock with `lsl_time_correction` (refreshed
///   every ``Options/timeCorrectionInterval``; on one machine both are CLOCK_MONOTONIC and the correction is a few
///   microseconds). That corrected time is what the frame carries as its arrival time: it is when the sample was
///   taken, whereas the pull time only says when liblsl handed over a chunk. The frame's counter is the sample's
///   index in the stream, so the pipeline's ``AxonStreams/StreamTimeline`` fits Axon's clock estimator to index ÷ rate
/// against
///   those times — the regression over sample index that XDF readers call dejittering — and the timestamps come
///   out evenly spaced however the chunks arrived.
/// - Outages: the inlet is created with liblsl's *recover* on, so when the outlet disappears and an outlet with
///   the same source id comes back, pulling resumes. A silence longer than ``Options/outageThreshold`` marks the
///   next sample as the first after a link loss (``AxonStreams/FrameWriter/noteLinkLoss()``) and its index jumps by the
///   samples its timestamp says were missed (rounded at the nominal rate), which the timeline reports as one
///   ``AxonStreams/GapRecord`` of cause `.linkLoss`: never a silent stitch. Without an outage, a timestamp jump of more
/// than
///   0.1 s counts the same way (cause `.deviceCounter`); smaller irregularities are taken as the sender's jitter.
///   Irregular streams carry no counter.
///
///     let source = try LSLInletSource(selector: .init(parsing: "type=EEG"))
///     let pipeline = StreamPipeline(source: source, sinks: [edf])
///
/// Threading contract: created on any thread; `run` on the pipeline's source thread, once. The inlet is used by
/// that thread only; its buffers are allocated before the loop, which allocates nothing itself (liblsl's own
/// internals are outside Axon's control).
public final class LSLInletSource: SampleSource, @unchecked Sendable {
    // Sendable invariant: the inlet handle and buffers are used only by `run`, on one thread, after init; the time
    // correction others read is behind a mutex (taken every few seconds, never per sample).

    /// How the inlet behaves.
    public struct Options: Sendable, Hashable {
        /// Seconds to wait for the stream when resolving it.
        public var resolveTimeout: Double
        /// Seconds without a sample after which the stream counts as lost until it sends again.
        public var outageThreshold: Double
        /// Seconds between time-correction refreshes.
        public var timeCorrectionInterval: Double
        /// Stop after this many samples (`nil`: until the pipeline is stopped).
        public var sampleLimit: Int?
        /// Stop after this many seconds of a regular stream's samples (duration × nominal rate of them).
        public var duration: Double?
        /// Seconds of the stream (samples × 100 for an irregular one) liblsl keeps for this inlet while Axon falls
        /// behind; older samples are dropped by liblsl beyond that.
        public var maxBuffered: Int32

        /// Creates options.
        public init(
            resolveTimeout: Double = 5, outageThreshold: Double = 0.5, timeCorrectionInterval: Double = 5,
            sampleLimit: Int? = nil, duration: Double? = nil, maxBuffered: Int32 = 360
        ) {
            self.duration = duration
            self.maxBuffered = maxBuffered
            self.resolveTimeout = resolveTimeout
            self.outageThreshold = outageThreshold
            self.timeCorrectionInterval = timeCorrectionInterval
            self.sampleLimit = sampleLimit
        }
    }

    /// The stream, from the outlet's full info.
    public let descriptor: StreamDescriptor
    /// The stream's LSL header and channel metadata.
    public let info: LSLStreamInfo
    /// The settings.
    public let options: Options

    private let library: LSLLibrary
    private let inlet: UnsafeMutableRawPointer
    private let chunkFrames: Int
    private let data: OwnedBuffer<Double>
    private let stamps: OwnedBuffer<Double>
    /// Outages seen so far (written by the source thread; read it after the pipeline has finished).
    public private(set) var outages = 0
    /// The time correction applied now, seconds: liblsl's `lsl_time_correction`, what to add to the outlet's
    /// timestamps for this machine's clock (any thread; it changes every ``Options/timeCorrectionInterval``).
    public var timeCorrection: Double { publishedCorrection.withLock { $0 } }
    private let publishedCorrection = ThreadLocked(0.0)
    /// For the first sample after each outage: seconds from its (corrected) LSL timestamp to its pull, that is how
    /// long after the outlet pushed it Axon had it (read after the pipeline has finished).
    public private(set) var resumeDelays: [Double] = []

    /// Resolves the first stream matching `selector`, opens an inlet on it and reads its full description.
    ///
    /// - Throws: ``LSLError``: liblsl missing, no such stream, a string stream (not a sample source), or a
    ///   failing liblsl call.
    public init(
        selector: LSLStreamSelector, options: Options = .init(), library: LSLLibrary? = nil
    ) throws(LSLError) {
        let lsl = try LSLLibrary.given(library)
        let handles = try LSLResolver.resolve(selector, timeout: options.resolveTimeout, library: lsl)
        defer { for handle in handles { lsl.api.destroyStreamInfo(handle) } }
        guard let inlet = lsl.api.createInlet(handles[0], options.maxBuffered, 0, 1) else {
            throw .nullResult(function: "lsl_create_inlet", message: lsl.lastError())
        }
        var code: Int32 = 0
        guard let full = lsl.api.fullInfo(inlet, options.resolveTimeout, &code) else {
            lsl.api.destroyInlet(inlet)
            throw .call(function: "lsl_get_fullinfo", code: code < 0 ? code : -4, message: lsl.lastError())
        }
        defer { lsl.api.destroyStreamInfo(full) }
        let info: LSLStreamInfo
        do throws(LSLError) {
            try lsl.check(code, "lsl_get_fullinfo")
            info = try LSLStreamInfo(handle: full, library: lsl)
            guard info.format != .string else {
                throw LSLError.unsupportedStream(
                    "\(info.name) is a string (marker) stream; Axon takes numeric LSL streams as sample sources")
            }
            guard info.channelCount >= 1 else { throw LSLError.unsupportedStream("\(info.name) has no channels") }
            lsl.api.openStream(inlet, options.resolveTimeout, &code)
            try lsl.check(code, "lsl_open_stream")
        } catch {
            lsl.api.destroyInlet(inlet)
            throw error
        }
        self.library = lsl
        self.inlet = inlet
        self.info = info
        self.options = options
        self.descriptor = info.descriptor
        self.chunkFrames = max(16, Int((info.nominalRate * 0.05).rounded(.up)))
        self.data = OwnedBuffer(repeating: 0, count: chunkFrames * info.channelCount)
        self.stamps = OwnedBuffer(repeating: 0, count: chunkFrames)
        resumeDelays.reserveCapacity(64)
    }

    deinit {
        library.api.destroyInlet(inlet)
    }

    /// Pulls samples and writes them until the pipeline asks to stop or ``Options/sampleLimit`` is reached.
    ///
    /// - Throws: ``LSLError/call(function:code:message:)`` when liblsl reports an error other than a timeout.
    public func run(into writer: FrameWriter) throws {
        let channels = info.channelCount
        let api = library.api
        var code: Int32 = 0
        // The first estimate takes a few round trips; later calls return liblsl's running estimate.
        var timeCorrection = 0.0
        let first = api.timeCorrection(inlet, 2, &code)
        if code == 0 {
            timeCorrection = first
            publishedCorrection.withLock { $0 = first }
        }
        var lastCorrection = HostClock.now()
        var lastData = lastCorrection
        var silent = false
        var resumed = false
        var written = 0
        var index: UInt64 = 0
        var previousStamp = -Double.infinity
        let byDuration = info.nominalRate > 0 ? options.duration.map { Int(($0 * info.nominalRate).rounded()) } : nil
        let limit = min(options.sampleLimit ?? .max, byDuration ?? .max)
        let jumpTolerance = 0.1
        while !writer.isStopRequested, written < limit {
            code = 0
            let room = UInt(min(chunkFrames, limit - written))
            let elements = data.withUnsafeMutableBufferPointer { data in
                stamps.withUnsafeMutableBufferPointer { stamps in
                    api.pullChunkDouble(
                        inlet, data.baseAddress!, stamps.baseAddress!, room * UInt(channels), room, 0.1, &code)
                }
            }
            if code < 0, code != -1 { try library.check(code, "lsl_pull_chunk_d") }
            let now = HostClock.now()
            let frames = Int(elements) / channels
            guard frames > 0 else {
                if now - lastData > options.outageThreshold { silent = true }
                continue
            }
            if silent {
                writer.noteLinkLoss()
                outages += 1
                silent = false
                resumed = true
                // The outlet that came back may be another process: its clock offset is measured afresh.
                lastCorrection = -.infinity
            }
            if now - lastCorrection >= options.timeCorrectionInterval {
                code = 0
                let correction = api.timeCorrection(inlet, resumed ? 2 : 0.5, &code)
                if code == 0 {
                    timeCorrection = correction
                    publishedCorrection.withLock { $0 = correction }
                }
                lastCorrection = now
            }
            let rate = info.nominalRate
            for frame in 0..<frames {
                let stamp = stamps[frame] + timeCorrection
                if rate > 0 {
                    // The index advances by one, or by the samples a timestamp jump says were missed: after an
                    // outage, or a jump longer than `jumpTolerance` (senders that stamp chunks jitter by less).
                    let step = (stamp - previousStamp) * rate
                    let jumped = previousStamp.isFinite && step > 1.5 && (resumed || step > jumpTolerance * rate)
                    index += jumped ? UInt64(step.rounded()) : (previousStamp.isFinite ? 1 : 0)
                    previousStamp = stamp
                }
                if resumed {
                    resumeDelays.append(now - stamp)
                    resumed = false
                }
                data.withUnsafeBufferPointer { data in
                    let values = UnsafeBufferPointer(start: data.baseAddress! + frame * channels, count: channels)
                    writer.write(values, counter: rate > 0 ? index : nil, arrivalTime: stamp)
                }
            }
            written += frames
            lastData = now
        }
    }
}
