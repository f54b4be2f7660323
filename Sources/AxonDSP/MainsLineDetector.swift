// AxonDSP — which mains frequency, 50 or 60 Hz, stands out as a line in a run's power spectra.

/// Tells from a run's power spectra which mains frequency, 50 Hz (most of the world) or 60 Hz (the Americas, parts
/// of Asia), the amplifier picked up, so that a notch can be placed without asking the user where they are.
///
/// For each candidate it adds up, over every spectrum and channel given, the power within ±1 Hz of the candidate
/// (the line; a Hann window's main lobe is two bins either side) and the power between 3 and 6 Hz either side of it
/// (the flanks, outside the line's main lobe). The *line ratio* is the line's mean power per bin over the flanks'.
/// A candidate is the mains frequency once at least ``minimumSpectra`` spectra have been added, its line ratio is at
/// least ``minimumRatio`` and at least twice the other candidate's: broadband EEG has a ratio near 1, a mains line
/// tens to thousands. Sums rather than per-spectrum votes, so a line that comes and goes with a loose cable still
/// adds up.
///
/// Threading: a plain value, `Sendable`; one owner mutates it.
///
///     var detector = MainsLineDetector()
///     for frame in spectra { detector.add(frame.power, binWidth: frame.binWidth) }
///     if let mains = detector.mainsFrequency { … notch at mains … }
/// - Complexity: ``add(_:binWidth:)`` is O(bins within 6 Hz of each candidate); no allocation.
public struct MainsLineDetector: Sendable, Hashable {
    /// The mains frequencies in use, hertz.
    public static let candidates: [Double] = [50, 60]
    /// Half the width of the line, hertz.
    public static let lineHalfWidth = 1.0
    /// The flanks' distance from the candidate, hertz.
    public static let flanks: ClosedRange<Double> = 3...6

    /// Spectra to add before deciding.
    public let minimumSpectra: Int
    /// The line ratio a candidate needs.
    public let minimumRatio: Double
    /// Spectra added so far.
    public private(set) var spectra = 0

    // Per candidate (50, 60): line power, line bins, flank power, flank bins.
    private var line = SIMD2<Double>.zero
    private var lineBins = SIMD2<Double>.zero
    private var flank = SIMD2<Double>.zero
    private var flankBins = SIMD2<Double>.zero

    /// A detector that decides after `minimumSpectra` spectra on a line ratio of at least `minimumRatio`.
    ///
    /// - Throws: ``DSPError/invalidParameter(name:value:requirement:)`` unless `minimumSpectra ≥ 1` and
    ///   `minimumRatio > 1`.
    public init(minimumSpectra: Int = 3, minimumRatio: Double = 4) throws(DSPError) {
        guard minimumSpectra >= 1 else {
            throw .invalidParameter(name: "minimumSpectra", value: Double(minimumSpectra), requirement: "at least 1")
        }
        guard minimumRatio > 1, minimumRatio.isFinite else {
            throw .invalidParameter(name: "minimumRatio", value: minimumRatio, requirement: "finite and above 1")
        }
        self.minimumSpectra = minimumSpectra
        self.minimumRatio = minimumRatio
    }

    /// Adds one channel's one-sided power spectrum, bin `k` at `k · binWidth` hertz (any power unit; every
    /// spectrum added must use the same). A candidate whose flanks lie above the spectrum's last bin uses the
    /// flank bins there are; one with no flank bin at all is not measured. Non-finite bins are skipped.
    public mutating func add<Spectrum: RandomAccessCollection>(_ power: Spectrum, binWidth: Double)
    where Spectrum.Element == Double, Spectrum.Index == Int {
        guard binWidth > 0, binWidth.isFinite, !power.isEmpty else { return }
        for (index, candidate) in Self.candidates.enumerated() {
            let first = max(power.startIndex, Int(((candidate - Self.flanks.upperBound) / binWidth).rounded(.up)))
            let last = min(power.endIndex - 1, Int(((candidate + Self.flanks.upperBound) / binWidth).rounded(.down)))
            guard first <= last else { continue }
            for bin in first...last {
                let value = power[bin]
                guard value.isFinite else { continue }
                let distance = abs(Double(bin) * binWidth - candidate)
                if distance <= Self.lineHalfWidth {
                    line[index] += value
                    lineBins[index] += 1
                } else if Self.flanks.contains(distance) {
                    flank[index] += value
                    flankBins[index] += 1
                }
            }
        }
    }

    /// Marks the end of one spectrum (all its channels added): ``minimumSpectra`` counts these.
    public mutating func endSpectrum() { spectra += 1 }

    /// A candidate's line ratio so far (mean power per bin on the line over the flanks'), or `nil` when it has no
    /// line or flank bins yet or its flanks have no power.
    public func lineRatio(at candidate: Double) -> Double? {
        guard let index = Self.candidates.firstIndex(of: candidate), lineBins[index] > 0, flankBins[index] > 0,
            flank[index] > 0
        else { return nil }
        return (line[index] / lineBins[index]) / (flank[index] / flankBins[index])
    }

    /// The mains frequency in hertz once one stands out (see the type's rules), else `nil`.
    public var mainsFrequency: Double? {
        guard spectra >= minimumSpectra else { return nil }
        let ratios = Self.candidates.map { lineRatio(at: $0) ?? 0 }
        guard let best = ratios.indices.max(by: { ratios[$0] < ratios[$1] }), ratios[best] >= minimumRatio else {
            return nil
        }
        let others = ratios.indices.filter { $0 != best }.map { ratios[$0] }
        guard others.allSatisfy({ ratios[best] >= 2 * $0 }) else { return nil }
        return Self.candidates[best]
    }
}
