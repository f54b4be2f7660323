import AxonEEG
import Foundation

/// Formats the engine's output for a terminal: one compact row per spectrum frame, one line per indicator.
struct EEGPrinter {
    let labels: [String]
    let bands: [EEGEngineBand]
    /// Seconds added to a frame's sample time for display (the start of the replayed segment).
    let timeOffset: Double
    let sampleRate: Double

    struct EEGEngineBand {
        let low: Double
        let high: Double
    }

    init(configuration: EEGEngine.Configuration, displayLabels: [String]? = nil, timeOffset: Double = 0) {
        self.labels = displayLabels ?? configuration.channelLabels
        self.bands = configuration.bands.map { EEGEngineBand(low: $0.lower, high: $0.upper) }
        self.timeOffset = timeOffset
        self.sampleRate = configuration.sampleRate
    }

    /// Two header lines naming the channels and the bands.
    func header() -> String {
        let bandNames = bands.map { "\(fmt($0.low, 0))–\(fmt($0.high, 0))" }.joined(separator: " ")
        let columns = labels.map { $0.rightPadded(columnWidth) }.joined(separator: " ")
        return "dominant frequency (Hz) per channel in bands \(bandNames); α% = alpha's share of 3–30 Hz power\n"
            + "  time s  baseline  " + columns
    }

    /// One row: time, baseline progress, and per channel the dominant frequency per band and alpha's share.
    func row(_ frame: SpectrumFrame) -> String {
        let time = Double(frame.sampleIndex + 1) / sampleRate + timeOffset
        let baseline: String
        switch frame.baselineState {
        case .notStarted: baseline = "   -    "
        case .collecting: baseline = "collect "
        case .complete: baseline = "  done  "
        }
        let cells = frame.channels.map { channel in
            // "–": the band holds no peak of its own.
            let peaks = channel.bands.map { ($0.dominantFrequency.map { fmt($0, 1) } ?? "–").leftPadded(4) }
                .joined(separator: " ")
            let alphaShare = channel.bands.count > 1 ? fmt(channel.bands[1].relativePower * 100, 0) : ""
            return (peaks + " " + (alphaShare + "%").leftPadded(4)).rightPadded(columnWidth)
        }
        let filled = frame.filledSamples > 0 ? "  (\(frame.filledSamples) samples filled in)" : ""
        let artifacts = frame.artifacts.isEmpty ? "" : "  [\(frame.artifacts)]"
        return "  " + fmt(time, 1).leftPadded(6) + "  " + baseline + "  " + cells.joined(separator: " ") + filled
            + artifacts
    }

    /// One indicator line: overall zone and percent, per-channel colours, and the z-scores behind them.
    func indicator(_ indicator: ActivityIndicators) -> String {
        let time = Double(indicator.sampleIndex + 1) / sampleRate + timeOffset
        let channels = zip(labels, indicator.channels).map { label, channel in
            channel.level.map { "\(label) \($0.zone) \(percent($0.percent))" } ?? "\(label) left out"
        }.joined(separator: ", ")
        let scores = indicator.zScores.map { fmt($0, 1) }.joined(separator: " ")
        let excluded = indicator.excludedFrames > 0 ? "   (\(indicator.excludedFrames) windows left out)" : ""
        return "  ── \(fmt(time, 1)) s  zone \(indicator.activity.zone) \(percent(indicator.activity.percent))"
            + "   [\(channels)]   z(θ α β) \(scores)" + excluded
    }

    /// One running individual alpha frequency line: pooled PAF and CoG, and each channel's PAF.
    func alpha(_ update: IndividualAlphaUpdate) -> String {
        let time = Double(update.sampleIndex + 1) / sampleRate + timeOffset
        let estimate = update.estimate
        let channels = zip(labels, estimate.channels).map { label, channel in
            "\(label) " + (channel.peak.map { fmt($0, 2) } ?? "–")
        }.joined(separator: ", ")
        return "  ── \(fmt(time, 1)) s  individual alpha frequency over \(update.windows) clean windows: PAF "
            + (estimate.peak.map { fmt($0, 2) + " Hz" } ?? "none") + ", CoG "
            + (estimate.centreOfGravity.map { fmt($0, 2) + " Hz" } ?? "none") + "   [PAF \(channels)]"
    }

    /// A channel's column: 18 characters, or its longest label's, so no label is cut.
    private var columnWidth: Int { max(18, labels.map(\.count).max() ?? 0) }

    private func percent(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }
}

func fmt(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// Padded with spaces on the right to `width`; never cut (a table's label column is as wide as its longest).
    func rightPadded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
