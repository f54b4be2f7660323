// AxonEEG — reading a spectrum frame in place, without copying or allocating.

/// A borrowed, read-only view of one spectrum frame row (see ``SpectrumFrameLayout``).
///
/// Valid only while the storage it points into is: the engine's frame until its next spectrum, or a ring slot
/// during a pop. Copy it into a ``SpectrumFrame`` to keep it.
///
/// Threading: confined to the thread that owns the storage.
public struct SpectrumFrameView {
    /// The row.
    public let row: UnsafeBufferPointer<Double>
    /// How the row is laid out.
    public let layout: SpectrumFrameLayout

    /// Wraps a row of `layout.width` doubles.
    public init(row: UnsafeBufferPointer<Double>, layout: SpectrumFrameLayout) {
        precondition(row.count >= layout.width, "a spectrum frame row needs \(layout.width) doubles")
        self.row = row
        self.layout = layout
    }

    /// Wraps a row known to hold `layout.width` doubles (the engine's own frame), without checking: the check's lane
    /// arithmetic allocates in unoptimised builds, and the engine lends its frame on the real-time path.
    @usableFromInline
    init(unchecked row: UnsafeBufferPointer<Double>, layout: SpectrumFrameLayout) {
        self.row = row
        self.layout = layout
    }

    /// Serial number of the frame, from 0 (the seed's `counter`).
    @inlinable public var counter: Int { Int(row[layout.lane(.counter)]) }
    /// Index of the window's last sample in the stream.
    @inlinable public var sampleIndex: Int { Int(row[layout.lane(.sampleIndex)]) }
    /// Time of the window's last sample, milliseconds since 1970 (the seed's `timeframe`).
    @inlinable public var timeframe: Double { row[layout.lane(.timeframe)] }
    /// Samples of the window filled in for lost ones (0 = intact).
    @inlinable public var filledSamples: Int { Int(row[layout.lane(.filledSamples)]) }
    /// The baseline's state when the frame was made.
    @inlinable public var baselineState: BaselineState {
        BaselineState(rawValue: Int(row[layout.lane(.baselineState)])) ?? .notStarted
    }
    /// Spectra the baseline had collected when the frame was made.
    @inlinable public var baselineFrames: Int { Int(row[layout.lane(.baselineFrames)]) }

    /// Artifacts found in the window (eyes, muscle).
    @inlinable public var artifacts: ArtifactKinds { ArtifactKinds(rawValue: UInt8(row[layout.lane(.artifacts)])) }
    /// Whether the frame was left out of the baseline and the indicators as a whole.
    @inlinable public var isExcluded: Bool { row[layout.lane(.excluded)] != 0 }

    /// Dominant frequency of a channel inside a band, Hz (`data1…3` of the seed for bands 0…2); `nil` when the
    /// band holds no peak of its own (``AxonDSP/FrequencyGrid/localPeak(of:bins:in:above:)``).
    @inlinable public func dominantFrequency(channel: Int, band: Int) -> Double? {
        let value = row[layout.dominantLane(channel: channel, band: band)]
        return value.isNaN ? nil : value
    }
    /// Power of the dominant bin, in the spectrum's unit (unit²; a sine of amplitude A reads A²/2 at its bin);
    /// `nil` when the band holds no peak.
    @inlinable public func peakPower(channel: Int, band: Int) -> Double? {
        let value = row[layout.peakPowerLane(channel: channel, band: band)]
        return value.isNaN ? nil : value
    }
    /// One of a channel's signal-quality measures for this window.
    @inlinable public func quality(channel: Int, _ measure: SpectrumFrameLayout.Quality) -> Double {
        row[layout.qualityLane(channel: channel, measure)]
    }
    /// Whether the channel's window was usable (not railed, not flat, analysed).
    @inlinable public func isUsable(channel: Int) -> Bool { quality(channel: channel, .usable) != 0 }
    /// Mean-square power of a channel inside a band, unit².
    @inlinable public func bandPower(channel: Int, band: Int) -> Double {
        row[layout.bandPowerLane(channel: channel, band: band)]
    }
    /// A band's power as a share of the reference band's (0…1 when the band lies inside it).
    @inlinable public func relativePower(channel: Int, band: Int) -> Double {
        row[layout.relativePowerLane(channel: channel, band: band)]
    }
    /// Mean-square power of a channel inside the reference band, unit².
    @inlinable public func referencePower(channel: Int) -> Double { row[layout.referencePowerLane(channel: channel)] }
    /// The one-sided power spectrum of a channel's window (`binCount` values).
    @inlinable public func spectrum(channel: Int) -> UnsafeBufferPointer<Double> {
        let start = layout.spectrumLane(channel: channel)
        return UnsafeBufferPointer(rebasing: row[start..<(start + layout.binCount)])
    }
}
