import AxonStreams

/// Plays a ``Recording`` into a stream pipeline as if the device were sending it: every frame goes through the
/// pipeline's ring, timeline, processors and sinks like live data.
///
///     let recording = try RecordingReader.read(path: "session.txt")
///     let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
///     let pipeline = StreamPipeline(source: replay, sinks: [mySink],
///                                   configuration: replay.pipelineConfiguration())
///     try pipeline.start()
///     pipeline.waitUntilFinished()
///
/// What each frame carries:
/// - values: the recording's frame;
/// - `deviceTime`: the recording's own time of the frame (``Recording/time(ofFrame:)``: its timestamp in Unix
///   seconds when the file has them, else seconds from the first frame at the nominal rate) — or, with
///   ``DeviceClock/nominalRate``, the first frame's time + index ÷ rate;
/// - `counter`: the recording's device counter (for example OpenBCI's sample index, wrapping at 256) when it has
///   one, else the frame index plus the samples missing in the recording's ``Recording/gaps`` before it (so each
///   gap comes out of the pipeline's timeline as a `.deviceCounter` ``AxonStreams/GapRecord`` of the same length);
/// - `arrivalTime`: when the frame is due on the replay's schedule (below).
///
/// Schedule: frame `i` is due `(deviceTime(i) − deviceTime(0)) ÷ multiplier` seconds after the replay starts
/// (never earlier than the frame before it), so the recording's own timing — packets, jitter, pauses — is
/// reproduced. ``Speed/realTime(multiplier:)`` sleeps to those deadlines with `HostClock.sleep(until:)` on
/// absolute monotonic times (no drift accumulates), writing the frames due within one ``Options/packetInterval``
/// together, stamped with the time the packet is due (its last frame's). ``Speed/asFastAsPossible`` does not sleep
/// but stamps the same *virtual* arrival times at multiplier 1, so timestamps and gaps downstream mean what they
/// would in real time.
///
/// A full ring: with ``RingFull/wait`` (the default) the replay never loses a frame — it writes only as many
/// frames as ``AxonStreams/FrameWriter/freeCapacity`` says fit and, while the ring is full, waits until the consumer
/// has emptied half of it (``AxonStreams/FrameWriter/waitForRoom(atLeast:spins:timeout:)``), so
/// the ring's overflow policy never engages and the pipeline's `dropped` count stays 0 under any configuration.
/// (Retrying a rejected `write` would not do: each rejection consumes a sequence number and appears downstream as
/// an overflow gap.) With ``RingFull/overflow`` it behaves like a live device that cannot wait: the pipeline's
/// ``AxonStreams/OverflowPolicy`` decides, and every loss is counted and reported as a `.overflow` gap.
/// ``pipelineConfiguration(ringCapacity:batchSize:overflow:)`` builds a matching configuration (counter modulus
/// from the recording, so counter wraps are unwrapped and real losses in the file show as `.deviceCounter` gaps).
///
/// Stops at the end of the recording or as soon as `writer.isStopRequested` (checked per packet, every 256
/// frames, and while waiting for room).
///
/// Threading contract: an immutable value; `run` is called once, on the pipeline's source thread. Allocates
/// nothing per frame.
public struct RecordingReplaySource: SampleSource {
    /// How fast to play.
    public enum Speed: Sendable, Hashable {
        /// Paced on the host's monotonic clock; `multiplier` 2 plays twice as fast. Must be finite and > 0.
        case realTime(multiplier: Double = 1)
        /// As fast as the pipeline takes frames, with virtual arrival times at multiplier 1.
        case asFastAsPossible
    }

    /// What the replay does when the ring is full.
    public enum RingFull: Sendable, Hashable {
        /// Wait for room: nothing is lost.
        case wait
        /// Write anyway, like a live device: the ring's overflow policy decides, and losses are reported.
        case overflow
    }

    /// Which time axis the frames' `deviceTime` (and the schedule) follow.
    public enum DeviceClock: Sendable, Hashable {
        /// The recording's timestamps when it has them, else index ÷ rate. OpenBCI's timestamps are the GUI's
        /// packet arrival stamps (pairs of frames share one), muse-lsl's are LSL's dejittered stamps.
        case recorded
        /// The first frame's time + index ÷ nominal rate: an ideal device clock.
        case nominalRate
    }

    /// Replay settings.
    public struct Options: Sendable, Hashable {
        /// How fast to play.
        public var speed: Speed
        /// Host seconds of frames written together in real time: 4 ms is one frame per write at 250 Hz and 1×,
        /// about 200 frames per write at 200×. Ignored by ``Speed/asFastAsPossible``.
        public var packetInterval: Double
        /// What a full ring does to the replay.
        public var whenRingFull: RingFull
        /// The time axis of `deviceTime`.
        public var deviceClock: DeviceClock

        /// Creates options; `packetInterval` must be finite and ≥ 0, a real-time multiplier finite and > 0.
        public init(
            speed: Speed = .realTime(), packetInterval: Double = 0.004, whenRingFull: RingFull = .wait,
            deviceClock: DeviceClock = .recorded
        ) {
            if case .realTime(let multiplier) = speed {
                precondition(multiplier.isFinite && multiplier > 0, "a replay multiplier must be finite and > 0")
            }
            precondition(packetInterval.isFinite && packetInterval >= 0, "a packet interval must be finite and ≥ 0")
            self.speed = speed
            self.packetInterval = packetInterval
            self.whenRingFull = whenRingFull
            self.deviceClock = deviceClock
        }
    }

    /// What is played.
    public let recording: Recording
    /// How it is played.
    public let options: Options
    /// For a recording with ``Recording/gaps`` and no counters: the first frame after each gap and the samples
    /// missing before it in all, so frame `i`'s counter is `i` plus what went missing before it.
    private let missingBefore: [(frame: Int, total: Int)]

    /// The recording's stream.
    public var descriptor: StreamDescriptor { recording.descriptor }

    /// Creates a replay of `recording`.
    public init(recording: Recording, options: Options = .init()) {
        self.recording = recording
        self.options = options
        var total = 0
        missingBefore = recording.counters == nil ? recording.gaps.map { gap in
            total += gap.gap.missingCount
            return (gap.beforeFrame, total)
        } : []
    }

    /// A pipeline configuration that suits this replay: the recording's counter modulus in the timeline, and
    /// `overflow` as the ring's policy (irrelevant with ``RingFull/wait``, which never fills the ring past its
    /// capacity; it decides what is lost with ``RingFull/overflow``). At ``Speed/asFastAsPossible`` the arrival
    /// times are virtual (derived from the recording's own clock), so the timeline runs without a clock
    /// estimator: fitting them against the recorded device times could only give those times back. The batch size
    /// defaults to 1024 frames at full speed (fewer per-batch costs) and 256 otherwise.
    public func pipelineConfiguration(
        ringCapacity: Int = 4096, batchSize: Int? = nil, overflow: OverflowPolicy = .rejectNewest
    ) -> StreamPipeline.Configuration {
        let fast = options.speed == .asFastAsPossible
        let clock: ClockEstimator.Configuration? = fast ? nil : .init()
        return StreamPipeline.Configuration(
            ringCapacity: ringCapacity, overflow: overflow, batchSize: batchSize ?? (fast ? 1024 : 256),
            timeline: .init(counterModulus: recording.counterModulus, clock: clock))
    }

    /// The `deviceTime` written with frame `index`. O(1).
    public func deviceTime(ofFrame index: Int) -> Double {
        switch options.deviceClock {
        case .recorded:
            return recording.time(ofFrame: index)
        case .nominalRate:
            return recording.time(ofFrame: 0) + Double(index) / recording.sampleRate
        }
    }

    /// The `counter` written with frame `index`: the recording's counter, else the frame index plus the samples
    /// of the recording's ``Recording/gaps`` before it, so the pipeline's timeline reports each gap as the same
    /// ``AxonStreams/GapRecord`` (cause `.deviceCounter`). O(1) without gaps, O(log gaps) with them.
    public func counter(ofFrame index: Int) -> UInt64 {
        if let counters = recording.counters { return counters[index] }
        guard !missingBefore.isEmpty else { return UInt64(index) }
        var low = 0
        var high = missingBefore.count
        while low < high {
            let middle = (low + high) / 2
            if missingBefore[middle].frame <= index { low = middle + 1 } else { high = middle }
        }
        return UInt64(index + (low == 0 ? 0 : missingBefore[low - 1].total))
    }

    /// Writes every frame (or until a stop is requested); see the type's documentation for the timing.
    public func run(into writer: FrameWriter) throws {
        let frames = recording.frameCount
        guard frames > 0 else { return }
        let channels = recording.channelCount
        let origin = deviceTime(ofFrame: 0)
        let start = HostClock.now()
        var pacer = Pacer(writer: writer, lossless: options.whenRingFull == .wait)
        recording.values.withUnsafeBufferPointer { values in
            func write(_ index: Int, arrival: Double) -> Bool {
                guard pacer.waitForRoom() else { return false }
                let frame = UnsafeBufferPointer(rebasing: values[(index * channels)..<((index + 1) * channels)])
                writer.write(
                    frame, deviceTime: deviceTime(ofFrame: index), counter: counter(ofFrame: index),
                    arrivalTime: arrival)
                return true
            }
            var due = 0.0  // seconds after start, never decreasing
            func advance(to index: Int, multiplier: Double) -> Double {
                due = max(due, (deviceTime(ofFrame: index) - origin) / multiplier)
                return due
            }
            switch options.speed {
            case .asFastAsPossible:
                // Up to 256 frames per push (as many as the ring has room for when lossless): one publication and
                // one wake-up check per batch instead of per frame.
                var index = 0
                while index < frames {
                    if writer.isStopRequested { return }
                    guard let room = pacer.waitForRoom(upTo: min(256, writer.ringCapacity, frames - index)) else { return }
                    let first = index
                    let batch = UnsafeBufferPointer(rebasing: values[(first * channels)...])
                    // `fill` runs in frame order, so the arrival times advance exactly as one write per frame would.
                    _ = writer.write(
                        frames: batch, count: room, stride: channels,
                        deviceTime: { deviceTime(ofFrame: first + $0) }, counter: { counter(ofFrame: first + $0) },
                        arrivalTime: { start + advance(to: first + $0, multiplier: 1) })
                    _ = advance(to: first + room - 1, multiplier: 1)  // frames the ring rejected count too
                    index += room
                }
            case .realTime(let multiplier):
                var first = 0
                var firstDue = advance(to: 0, multiplier: multiplier)
                while first < frames, !writer.isStopRequested {
                    // The packet: frames due less than one packet interval after its first frame.
                    var end = first + 1
                    var lastDue = firstDue
                    var nextDue = 0.0
                    while end < frames {
                        nextDue = advance(to: end, multiplier: multiplier)
                        if nextDue - firstDue >= options.packetInterval { break }
                        lastDue = nextDue
                        end += 1
                    }
                    let arrival = start + lastDue
                    HostClock.sleep(until: arrival)  // the packet leaves once its last frame exists
                    for index in first..<end {
                        guard write(index, arrival: arrival) else { return }
                    }
                    first = end
                    firstDue = nextDue
                }
            }
        }
    }
}

/// Waits for room in the ring on behalf of a lossless replay.
private struct Pacer {
    let writer: FrameWriter
    let lossless: Bool
    var room = 0

    init(writer: FrameWriter, lossless: Bool) {
        self.writer = writer
        self.lossless = lossless
    }

    /// How many of `wanted` frames (≥ 1) may be written now: at least one, at most `wanted`; `nil` when a stop was
    /// requested while waiting for room. Without losslessness, all of them.
    mutating func waitForRoom(upTo wanted: Int) -> Int? {
        guard lossless else { return wanted }
        guard waitForRoom() else { return nil }
        let granted = min(wanted, room + 1)
        room -= granted - 1
        return granted
    }

    /// `true` when one frame may be written now (`false`: a stop was requested while waiting).
    mutating func waitForRoom() -> Bool {
        guard lossless else { return true }
        if room == 0 {
            room = writer.freeCapacity
            while room == 0 {
                if writer.isStopRequested { return false }
                // Until the consumer has emptied half the ring — yielding, then asleep until it rings — not for a
                // fixed nap: at full speed the consumer drains a full ring in about a tenth of a millisecond.
                writer.waitForRoom(atLeast: max(1, writer.ringCapacity / 2))
                room = writer.freeCapacity
            }
        }
        room -= 1
        return true
    }
}
