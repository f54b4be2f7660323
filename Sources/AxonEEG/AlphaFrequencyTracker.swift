// AxonEEG — the individual alpha frequency of the windows the engine kept, gathered as the engine makes them.

import AxonDSP

/// Gathers the zero-padded periodograms of the engine's clean windows, channel by channel, and estimates the
/// individual alpha frequency (``AxonDSP/IndividualAlphaFrequency``) from their average: Welch's method over
/// exactly the windows whose spectra count (not excluded for a gap or an artifact, the channel usable), as
/// researchers average artifact-free epochs.
///
/// Call ``add(view:from:)`` right after the engine reports ``EEGEngine/Events/spectrum`` for a frame; it reads that
/// frame's window from the engine (``EEGEngine/withCurrentWindow(channel:_:)``).
///
/// Cost: one FFT of `4 × window` points per usable channel per clean window, no allocation; ``estimate()`` is
/// O(bins) and allocates.
///
/// Threading: a single-owner type; use it on the engine's thread (``estimate(fromSpectra:)`` reads only its
/// immutable grid and estimator, and may run on another thread). Not `Sendable`.
public final class AlphaFrequencyTracker {
    /// Each channel's average of the padded periodograms.
    public let periodograms: [AveragedPeriodogram]
    private let estimator: IndividualAlphaFrequency

    /// Creates an empty tracker for an engine configured with `configuration`.
    ///
    /// - Throws: the periodograms' and the estimator's set-up errors, as ``EEGError/dsp(_:)``.
    public init(configuration: EEGEngine.Configuration, parameters: IndividualAlphaFrequency.Parameters = .init())
        throws(EEGError)
    {
        do {
            periodograms = try (0..<configuration.channelCount).map { (_) throws(DSPError) in
                // The estimator reads up to its fit range's top; the reactivity's band lies far below it.
                try AveragedPeriodogram(
                    sampleRate: configuration.sampleRate, windowLength: configuration.windowSize,
                    maximumFrequency: parameters.fitRange.upperBound + 1)
            }
            estimator = try IndividualAlphaFrequency(parameters)
        } catch {
            throw .dsp(error)
        }
    }

    /// Adds the window of the engine's current frame unless the frame is excluded; channels not usable in it are
    /// skipped. Read in place: no allocation, for the real-time loop. Returns whether a window was added.
    @discardableResult
    public func add(view frame: SpectrumFrameView, from engine: EEGEngine) -> Bool {
        guard !frame.isExcluded else { return false }
        var added = false
        for channel in 0..<periodograms.count where frame.isUsable(channel: channel) {
            engine.withCurrentWindow(channel: channel) { older, newer in periodograms[channel].add(older, newer) }
            added = true
        }
        if added { cleanWindows += 1 }
        return added
    }

    /// Windows added (a window counts once, whichever of its channels were usable).
    public private(set) var cleanWindows = 0

    /// The width of ``writeSpectra(into:)``'s row: each channel's averaged spectrum, one after the other.
    public var spectraWidth: Int { periodograms.count * (periodograms.first?.grid.binCount ?? 0) }

    /// Writes every channel's averaged spectrum into `row` (``spectraWidth`` values), without allocating.
    public func writeSpectra(into row: UnsafeMutableBufferPointer<Double>) {
        guard let bins = periodograms.first?.grid.binCount else { return }
        for (channel, periodogram) in periodograms.enumerated() {
            periodogram.copyMean(into: UnsafeMutableBufferPointer(rebasing: row[(channel * bins)..<((channel + 1) * bins)]))
        }
    }

    /// The estimate from spectra written by ``writeSpectra(into:)`` (on another thread: this allocates).
    public func estimate(fromSpectra row: UnsafeBufferPointer<Double>) -> IndividualAlphaFrequency.Estimate? {
        guard let grid = periodograms.first?.grid else { return nil }
        let bins = grid.binCount
        let spectra = (0..<periodograms.count).map { Array(row[($0 * bins)..<(($0 + 1) * bins)]) }
        return estimator.estimate(spectra: spectra, grid: grid)
    }

    /// Each channel's mean power (the input's unit squared) in `band` over the windows added: the averaged density
    /// summed over the padded bins whose centres lie in the band, times the bin width; `nil` for a channel with no
    /// window.
    public func bandPower(in band: ClosedRange<Double>) -> [Double?] {
        periodograms.map { periodogram in
            guard periodogram.count > 0, let band = try? FrequencyBand(band.lowerBound, band.upperBound),
                let sum = try? periodogram.grid.bandSum(of: periodogram.mean, in: band)
            else { return nil }
            return sum * periodogram.grid.binWidth
        }
    }

    /// The estimate from the windows added so far (`nil` before the first).
    public func estimate() -> IndividualAlphaFrequency.Estimate? {
        guard let grid = periodograms.first?.grid, cleanWindows > 0 else { return nil }
        return estimator.estimate(spectra: periodograms.map(\.mean), grid: grid)
    }
}
