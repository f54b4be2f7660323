// AxonEEG — absolute (µV²) and relative (%) power per channel in named bands, from the engine's spectra.

import AxonDSP

/// Per channel and band (``AxonDSP/PowerBands``, delta…gamma by default): the **absolute power**, the power spectral density
/// integrated over the band's bins (unit², µV² for EEG), and the **relative power**, the absolute power divided by
/// the sum of the absolute powers of all listed bands, in percent (as BrainFlow's `get_avg_band_powers` does: the
/// listed bands share 100 % between them, whatever lies outside them; overlapping bands make the sum exceed 100).
///
/// From one of the engine's spectra (``SpectrumFrame``, ``SpectrumFrameView``: a ``AxonDSP/SpectrumScaling/power``
/// spectrum, in which a sine of amplitude A reads A²/2 at its bin): absolute = Σ over the band's bins
/// (``AxonDSP/PowerBands`` edge rule, `[LO, HI)`) of `spectrum[k] / ENBW`, where ENBW is the window's equivalent
/// noise bandwidth in bins (1.5 for the Hann window). That equals Σ `PSD[k] · Δf` of the density-scaled periodogram
/// (SciPy's `welch(..., scaling='density')` times the bin width), so a sine of amplitude A µV well inside a band
/// gives ≈ A²/2 µV² in it. A channel whose listed bands hold no power at all (a flat window) has relative NaN.
///
/// Storage is allocated once by ``init(bands:configuration:)``; ``compute(from:)-(SpectrumFrameView)`` and
/// ``compute(channel:spectrum:)`` then write in place and allocate nothing (keep one owner so the arrays are never
/// shared and copied on write).
///
/// Threading: a plain value, `Sendable`; mutate it from one thread at a time.
///
///     var powers = try BandPowers(bands: .standard, configuration: engine.configuration)
///     engine.withSpectrum { powers.compute(from: $0) }       // after each .spectrum event, no allocation
///     print(powers.absolute(channel: 0, band: 2), powers.relative(channel: 0, band: 2))  // alpha µV², %
public struct BandPowers: Sendable, Hashable {
    /// The bands.
    public let bands: PowerBands
    /// The channels' labels, in stream order.
    public let channelLabels: [String]
    /// Hz between spectrum bins.
    public let binWidth: Double
    /// Bins per spectrum.
    public let binCount: Int
    /// The window's equivalent noise bandwidth, bins (``AxonDSP/Window/equivalentNoiseBandwidth``).
    public let equivalentNoiseBandwidth: Double
    /// Absolute power, unit², channel-major: `[channel * bands.bands.count + band]`.
    public private(set) var absolute: [Double]
    /// Relative power, percent, laid out like ``absolute``.
    public private(set) var relative: [Double]
    /// Index of the last sample of the window the values come from (−1 before the first).
    public private(set) var sampleIndex: Int = -1
    /// Time of that sample, milliseconds since 1970 (NaN before the first).
    public private(set) var timeframe: Double = .nan
    private let ranges: [Range<Int>]
    /// The frame layout last read and where its first spectrum starts and how far apart the channels' are.
    private var lanes: Lanes?

    private struct Lanes: Sendable, Hashable {
        let layout: SpectrumFrameLayout
        let first: Int
        let stride: Int
    }

    /// Storage for `bands` over the spectra of an engine configured with `configuration` (its channels, sample
    /// rate, window length and window function).
    ///
    /// - Throws: ``AxonDSP/PowerBandsError`` when a band ends above the Nyquist frequency or holds no bin;
    ///   ``EEGError`` for a window that cannot be made.
    public init(bands: PowerBands, configuration: EEGEngine.Configuration) throws {
        let window = try Window(configuration.window, length: configuration.windowSize)
        try self.init(
            bands: bands, channelLabels: configuration.channelLabels, sampleRate: configuration.sampleRate,
            windowSize: configuration.windowSize, equivalentNoiseBandwidth: window.equivalentNoiseBandwidth)
        let layout = SpectrumFrameLayout(
            channelCount: configuration.channelCount, bandCount: max(1, configuration.bands.count), binCount: binCount)
        lanes = Lanes(layout: layout, first: layout.spectrumLane(channel: 0), stride: layout.channelStride)
    }

    /// Storage for `bands` over power spectra of `windowSize`-point windows at `sampleRate` (`windowSize / 2 + 1`
    /// bins) tapered by a window whose equivalent noise bandwidth is `equivalentNoiseBandwidth` bins.
    ///
    /// - Throws: ``AxonDSP/PowerBandsError`` when a band ends above the Nyquist frequency or holds no bin.
    public init(
        bands: PowerBands, channelLabels: [String], sampleRate: Double, windowSize: Int,
        equivalentNoiseBandwidth: Double
    ) throws(PowerBandsError) {
        precondition(!channelLabels.isEmpty && windowSize >= 2 && sampleRate > 0 && equivalentNoiseBandwidth > 0)
        let binWidth = sampleRate / Double(windowSize)
        let binCount = windowSize / 2 + 1
        try bands.check(sampleRate: sampleRate, binWidth: binWidth, binCount: binCount)
        self.bands = bands
        self.channelLabels = channelLabels
        self.binWidth = binWidth
        self.binCount = binCount
        self.equivalentNoiseBandwidth = equivalentNoiseBandwidth
        self.ranges = bands.bands.indices.map { bands.bins(of: $0, binWidth: binWidth, binCount: binCount) }
        self.absolute = Array(repeating: .nan, count: channelLabels.count * bands.bands.count)
        self.relative = Array(repeating: .nan, count: channelLabels.count * bands.bands.count)
    }

    /// Channels.
    public var channelCount: Int { channelLabels.count }
    /// Bands per channel.
    public var bandCount: Int { ranges.count }

    /// A channel's absolute power in a band, unit².
    @inlinable public func absolute(channel: Int, band: Int) -> Double { absolute[channel * bandCount + band] }
    /// A channel's relative power in a band, percent of the listed bands' sum.
    @inlinable public func relative(channel: Int, band: Int) -> Double { relative[channel * bandCount + band] }

    /// Computes every channel's band powers from one engine spectrum frame, read in place.
    ///
    /// - Complexity: O(channels · bins in the bands); no allocation, no lock.
    public mutating func compute(from view: SpectrumFrameView) {
        precondition(view.layout.channelCount == channelCount && view.layout.binCount == binCount)
        if lanes?.layout != view.layout {
            // Once per layout: the layout's lane arithmetic builds `Quality.allCases` arrays in unoptimised builds.
            let first = view.layout.spectrumLane(channel: 0)
            lanes = Lanes(layout: view.layout, first: first, stride: view.layout.channelStride)
        }
        let (first, stride) = (lanes!.first, lanes!.stride)
        for channel in 0..<channelCount { compute(channel: channel, row: view.row, offset: first + channel * stride) }
        sampleIndex = view.sampleIndex
        timeframe = view.timeframe
    }

    /// Computes every channel's band powers from an owned spectrum frame.
    ///
    /// - Complexity: O(channels · bins in the bands); no allocation.
    public mutating func compute(from frame: SpectrumFrame) {
        precondition(frame.channels.count == channelCount)
        for (channel, spectrum) in frame.channels.enumerated() {
            spectrum.spectrum.withUnsafeBufferPointer { compute(channel: channel, spectrum: $0) }
        }
        sampleIndex = frame.sampleIndex
        timeframe = frame.timeframe
    }

    /// Computes one channel's band powers from its power spectrum (``binCount`` bins; a mean of several windows'
    /// spectra gives their Welch average).
    ///
    /// - Complexity: O(bins in the bands); no allocation.
    public mutating func compute(channel: Int, spectrum: UnsafeBufferPointer<Double>) {
        precondition(spectrum.count >= binCount)
        compute(channel: channel, row: spectrum, offset: 0)
    }

    /// One channel's band powers from the spectrum at `row[offset...]` (read in place: no slice is made).
    private mutating func compute(channel: Int, row: UnsafeBufferPointer<Double>, offset: Int) {
        precondition(channel >= 0 && channel < channelCount && offset + binCount <= row.count)
        let base = channel * bandCount
        var total = 0.0
        for band in 0..<bandCount {
            var sum = 0.0
            for bin in ranges[band] { sum += row[offset + bin] }
            let power = sum / equivalentNoiseBandwidth
            absolute[base + band] = power
            total += power
        }
        for band in 0..<bandCount {
            relative[base + band] = total > 0 ? absolute[base + band] / total * 100 : .nan
        }
    }

    /// The bins of band `index` (the ``AxonDSP/PowerBands`` edge rule at this spectrum's bin width).
    public func bins(of index: Int) -> Range<Int> { ranges[index] }
}
