import AxonStreams

/// A multi-channel recording held in memory: what the readers return and what ``RecordingReplaySource`` plays.
///
/// Samples are stored *frame-major*: ``values`` holds frame 0's channels, then frame 1's, and so on, so one frame
/// is a contiguous slice (replay writes it to the ring without a gather) and a time segment is one contiguous copy.
/// A single channel is gathered on demand by ``channel(at:)`` in O(frames).
///
///     let recording = try RecordingReader.read(path: "session.txt")
///     let occipital = try recording.selecting(channels: ["EXG6", "EXG7"]).segment(from: 34, to: 76)
///     let o1 = try occipital.channel("EXG6")            // [Double], µV
///
/// Per-sample times and device counters are kept when the file has them. Times in ``segment(from:to:)`` and
/// ``duration`` count from the first frame at the nominal rate; ``timestamps`` are what the file wrote.
///
/// Threading: an immutable value type (copy-on-write arrays); share freely across threads.
public struct Recording: Sendable, Equatable {
    /// The stream the recording holds: channel labels and units, nominal rate, format, provenance in `metadata`.
    public let descriptor: StreamDescriptor
    /// Number of frames (samples per channel).
    public let frameCount: Int
    /// Sample values, frame-major: the value of channel `c` in frame `f` is `values[f * channelCount + c]`, in the
    /// channel's unit.
    public let values: [Double]
    /// Per-frame times in Unix seconds as the file wrote them, or `nil` if the file has none. Recorders stamp
    /// packets, so consecutive frames may share a time; the array never holds NaN.
    public let timestamps: [Double]?
    /// Per-frame device counters (for example the OpenBCI sample index), or `nil` if the file has none.
    public let counters: [UInt64]?
    /// The device counter wraps to 0 at this value (256 for OpenBCI's sample index); `nil` if it never wraps or
    /// there are no counters.
    public let counterModulus: UInt64?
    /// Event markers, in frame order.
    public let markers: [RecordingMarker]
    /// Samples missing between frames (a pause in an XDF stream's timestamps), in frame order; each frame index in
    /// `1..<frameCount`. Replay writes them as a jump in the device counter, so the pipeline reports each as the
    /// same ``AxonStreams/GapRecord``.
    public let gaps: [RecordingGap]
    /// Things a reader noticed but did not fail on (a measured rate far from the nominal one, a last line without
    /// a line terminator, the truncation), as sentences.
    public let warnings: [String]
    /// Set when the file ended in the middle of a row; the rows before it are all here.
    public let truncation: RecordingTruncation?
    /// The file's other streams, each at a rate of its own: an EDF/BDF file's signals at other rates than this
    /// recording's (one recording per rate, in the order of their first signal), an XDF file's other regular numeric
    /// streams. Each is a whole recording (rate, timestamps, metadata); markers and gaps stay with this one, the file's
    /// main stream. Empty for a single-stream file.
    public let companions: [Recording]

    /// Creates a recording from frame-major values.
    ///
    /// The shapes must agree (`values.count` a multiple of the channel count, one timestamp and one counter per
    /// frame, markers inside the recording): a mismatch is a programmer error and traps. Duplicate channel labels
    /// are made unique as MNE-Python does (`EEG`, `EEG` → `EEG-0`, `EEG-1`; see
    /// ``AxonStreams/ChannelInfo/writtenLabel``), with a warning.
    /// - Complexity: O(markers) to check.
    public init(
        descriptor: StreamDescriptor, values: [Double], timestamps: [Double]? = nil, counters: [UInt64]? = nil,
        counterModulus: UInt64? = nil, markers: [RecordingMarker] = [], gaps: [RecordingGap] = [],
        warnings: [String] = [], truncation: RecordingTruncation? = nil, companions: [Recording] = []
    ) {
        let channels = descriptor.channelCount
        precondition(channels >= 1, "a recording needs at least one channel")
        precondition(descriptor.nominalRate > 0, "a recording needs a nominal rate")
        precondition(values.count % channels == 0, "values must hold whole frames")
        let frames = values.count / channels
        precondition(timestamps.map { $0.count == frames } ?? true, "one timestamp per frame")
        precondition(counters.map { $0.count == frames } ?? true, "one counter per frame")
        precondition(markers.allSatisfy { (0..<frames).contains($0.frame) }, "markers must be in range")
        precondition(gaps.allSatisfy { (1..<max(1, frames)).contains($0.beforeFrame) }, "gaps must be between frames")
        // Every reader's labels are made unique here, so `--channels` can name each channel (MNE's names).
        let unique = UniqueChannelLabels.apply(to: descriptor.channels)
        var descriptor = descriptor
        descriptor.channels = unique.channels
        self.descriptor = descriptor
        self.frameCount = frames
        self.values = values
        self.timestamps = timestamps
        self.counters = counters
        self.counterModulus = counterModulus
        self.markers = markers
        self.gaps = gaps
        self.warnings = warnings + (unique.warning.map { [$0] } ?? [])
        self.truncation = truncation
        self.companions = companions
    }

    /// Every stream of the file: this recording (without its companions), then each companion.
    public var streams: [Recording] {
        [withCompanions([])] + companions
    }

    /// This recording with other companions (``companions``); everything else unchanged.
    public func withCompanions(_ companions: [Recording]) -> Recording {
        Recording(
            descriptor: descriptor, values: values, timestamps: timestamps, counters: counters,
            counterModulus: counterModulus, markers: markers, gaps: gaps, warnings: warnings, truncation: truncation,
            companions: companions)
    }

    /// This recording with other sample values of the same shape (a filtered copy), and another descriptor when
    /// given (the same channels); times, counters, markers, gaps, warnings and companions unchanged.
    public func withValues(_ values: [Double], descriptor: StreamDescriptor? = nil) -> Recording {
        Recording(
            descriptor: descriptor ?? self.descriptor, values: values, timestamps: timestamps, counters: counters,
            counterModulus: counterModulus, markers: markers, gaps: gaps, warnings: warnings, truncation: truncation,
            companions: companions)
    }

    /// The frame ranges between ``gaps``, in order and none empty: the stretches a filter runs over without
    /// reaching across missing samples.
    public var stretchesBetweenGaps: [Range<Int>] {
        let cuts = [0] + gaps.map(\.beforeFrame).filter { $0 > 0 && $0 < frameCount } + [frameCount]
        return zip(cuts, cuts.dropFirst()).filter { $0.1 > $0.0 }.map { $0.0..<$0.1 }
    }

    /// Samples per second per channel (the descriptor's nominal rate).
    public var sampleRate: Double { descriptor.nominalRate }

    /// Number of channels.
    public var channelCount: Int { descriptor.channelCount }

    /// Channel labels, in frame order.
    public var channelLabels: [String] { descriptor.channels.map(\.label) }

    /// Length in seconds at the nominal rate: `frameCount / sampleRate` (the samples held; ``gaps`` not counted).
    public var duration: Double { Double(frameCount) / sampleRate }

    /// Unix time of the first frame, if the file has timestamps and at least one frame.
    public var startTime: Double? { timestamps?.first }

    /// The value of one channel in one frame. O(1).
    @inlinable
    public func value(frame: Int, channel: Int) -> Double {
        precondition((0..<channelCount).contains(channel), "channel index out of range")
        return values[frame * channelCount + channel]
    }

    /// One frame's values, one per channel, without a copy. O(1).
    @inlinable
    public func frame(_ index: Int) -> ArraySlice<Double> {
        precondition((0..<frameCount).contains(index), "frame index out of range")
        return values[(index * channelCount)..<((index + 1) * channelCount)]
    }

    /// The recording's own time of a frame: its timestamp (Unix seconds) when the file has them, else seconds
    /// from the first frame at the nominal rate. O(1).
    @inlinable
    public func time(ofFrame index: Int) -> Double {
        if let timestamps { return timestamps[index] }
        return Double(index) / sampleRate
    }
}
