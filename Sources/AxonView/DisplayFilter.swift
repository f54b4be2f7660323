// AxonView — the filter the page's traces are drawn through, as the OpenBCI GUI filters its time series.

import AxonDSP

/// What the live view filters its traces with, for display only: the engine, its spectra and any file written see
/// the samples as they came. The OpenBCI GUI's defaults: a band-pass of 1–50 Hz and a notch at the mains
/// frequency — which Axon measures from the run's own spectra (``AxonDSP/MainsLineDetector``) unless one is given.
///
/// The page gets both versions of every trace and a switch between them.
///
/// Threading: a plain value, `Sendable`.
public struct DisplayFilter: Sendable, Hashable {
    /// Where the notch goes.
    public enum Notch: Sendable, Hashable {
        /// At the mains frequency the run's spectra show (none until a line stands out).
        case measured
        /// At this frequency, hertz, and its harmonics.
        case at(Double)
        /// No notch.
        case off
    }

    /// The band-pass edges, hertz; the upper edge is left out (a high-pass only) when it is not below the stream's
    /// Nyquist frequency.
    public var lowCut: Double
    /// See ``lowCut``.
    public var highCut: Double
    /// Butterworth order.
    public var order: Int
    /// The notch.
    public var notch: Notch

    /// The OpenBCI GUI's defaults: 1–50 Hz, order 4, a notch at the measured mains frequency.
    public init(lowCut: Double = 1, highCut: Double = 50, order: Int = 4, notch: Notch = .measured) {
        self.lowCut = lowCut
        self.highCut = highCut
        self.order = order
        self.notch = notch
    }

    /// The cascade for a stream at `sampleRate` with the notch at `mains` hertz (or none).
    ///
    /// - Throws: ``AxonDSP/DSPError`` when an edge does not fit the rate.
    func design(sampleRate: Double, mains: Double?) throws(DSPError) -> SecondOrderSections {
        let nyquist = sampleRate / 2
        let band: PassBand = highCut < nyquist ? .bandPass(lowCut, highCut) : .highPass(lowCut)
        var design = try SecondOrderSections.butterworth(order: order, band, sampleRate: sampleRate)
        if let mains, mains < nyquist {
            design = try design.cascaded(with: .notch(at: mains, harmonics: true, sampleRate: sampleRate))
        }
        return design
    }

    /// `1–50 Hz band-pass` (or `1 Hz high-pass` when 50 Hz is not below the Nyquist frequency of `sampleRate`).
    public func passBandDescription(sampleRate: Double) -> String {
        highCut < sampleRate / 2
            ? "\(Self.hertz(lowCut))–\(Self.hertz(highCut)) Hz band-pass" : "\(Self.hertz(lowCut)) Hz high-pass"
    }

    /// `1`, `0.5`: a frequency without a needless `.0`.
    static func hertz(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : "\(value)"
    }
}
