// AxonDSP — the named bands band powers are reported in (delta, theta, alpha, beta, gamma by default).

/// An ordered list of named frequency bands for band powers: `delta=1-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45`
/// by default, the bands Mind Monitor and BrainFlow's `get_avg_band_powers` report.
///
/// **Edge rule.** A band `LO-HI` is half-open, `[LO, HI)`: a spectrum bin whose centre frequency `f` satisfies
/// `LO ≤ f < HI` belongs to it (an edge within 10⁻⁹ of a bin width of a bin centre counts as on it). So adjacent bands
/// (`4-8`, `8-13`) share no bin, and a bin exactly at the Nyquist frequency belongs to no band. This is a different
/// rule from the engine's closed dominant-frequency bands (``FrequencyBand``).
///
/// Validation: names non-empty, without `=`, `,` or spaces, and unique; `0 ≤ LO < HI`, finite (``init(_:)``); `HI ≤`
/// the Nyquist frequency of the stream they are used on (``check(nyquist:)``), and every band must hold at least one
/// bin of the spectrum it is applied to (``bins(of:binWidth:binCount:)`` is then non-empty).
///
/// Threading: a plain value, `Sendable`.
///
///     let bands = try PowerBands(parsing: "alpha=8-13,beta=13-30")
///     try bands.check(nyquist: 125)
public struct PowerBands: Sendable, Hashable, CustomStringConvertible {
    /// One named band, `[low, high)` hertz.
    public struct Band: Sendable, Hashable, Codable {
        /// The band's name (`alpha`).
        public let name: String
        /// Lower edge, Hz (inclusive).
        public let low: Double
        /// Upper edge, Hz (exclusive).
        public let high: Double

        /// A band `[low, high)` named `name`; checked when a ``PowerBands`` is made of it.
        public init(name: String, low: Double, high: Double) {
            self.name = name
            self.low = low
            self.high = high
        }
    }

    /// The bands, in the order they were given.
    public let bands: [Band]

    /// `delta=1-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45` (Hz).
    public static let standard = PowerBands(checked: [
        Band(name: "delta", low: 1, high: 4), Band(name: "theta", low: 4, high: 8),
        Band(name: "alpha", low: 8, high: 13),
        Band(name: "beta", low: 13, high: 30), Band(name: "gamma", low: 30, high: 45),
    ])

    /// The text ``init(parsing:)`` reads for ``standard``.
    public static let standardText = "delta=1-4,theta=4-8,alpha=8-13,beta=13-30,gamma=30-45"

    private init(checked bands: [Band]) { self.bands = bands }

    /// A list of bands.
    ///
    /// - Throws: ``PowerBandsError`` for no band, an empty or duplicate name, or edges that are not `0 ≤ low < high`
    ///   (finite).
    public init(_ bands: [Band]) throws(PowerBandsError) {
        guard !bands.isEmpty else { throw .noBands }
        var seen = Set<String>()
        for band in bands {
            guard !band.name.isEmpty else { throw .emptyName }
            guard !band.name.contains(where: { $0 == "=" || $0 == "," || $0.isWhitespace }) else {
                throw .badName(band.name)
            }
            guard seen.insert(band.name).inserted else { throw .duplicateName(band.name) }
            guard band.low.isFinite, band.high.isFinite, band.low >= 0, band.low < band.high else {
                throw .badEdges(name: band.name, low: band.low, high: band.high)
            }
        }
        self.bands = bands
    }

    /// Reads `NAME=LO-HI,NAME=LO-HI,…` (Hz; spaces around the parts are ignored), e.g.
    /// `delta=1-4,theta=4-8,alpha=8-13`.
    ///
    /// - Throws: ``PowerBandsError/syntax(_:)`` for an entry that is not `NAME=LO-HI` with two numbers, and what
    ///   ``init(_:)`` throws.
    public init(parsing text: String) throws(PowerBandsError) {
        var bands: [Band] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .syntax(String(entry)) }
            let name = Self.trimmed(parts[0])
            let edges = parts[1].split(separator: "-", omittingEmptySubsequences: false)
                .map { Double(Self.trimmed($0)) }
            guard edges.count == 2, let low = edges[0], let high = edges[1] else { throw .syntax(String(entry)) }
            bands.append(Band(name: name, low: low, high: high))
        }
        try self.init(bands)
    }

    /// Checks that every band ends at or below `nyquist` hertz (half the sample rate).
    ///
    /// - Throws: ``PowerBandsError/aboveNyquist(name:high:nyquist:)`` for the first band that does not.
    public func check(nyquist: Double) throws(PowerBandsError) {
        for band in bands where band.high > nyquist + 1e-9 {
            throw .aboveNyquist(name: band.name, high: band.high, nyquist: nyquist)
        }
    }

    /// Checks ``check(nyquist:)`` for `sampleRate` and that every band holds at least one bin of a spectrum with
    /// bins every `binWidth` hertz.
    ///
    /// - Throws: ``PowerBandsError/aboveNyquist(name:high:nyquist:)`` or ``PowerBandsError/noBin(name:binWidth:)``.
    public func check(sampleRate: Double, binWidth: Double, binCount: Int) throws(PowerBandsError) {
        try check(nyquist: sampleRate / 2)
        for index in bands.indices where bins(of: index, binWidth: binWidth, binCount: binCount).isEmpty {
            throw .noBin(name: bands[index].name, binWidth: binWidth)
        }
    }

    /// The bins of band `index` by the edge rule: `k` with `low ≤ k · binWidth < high`, within `0..<binCount`.
    ///
    /// - Complexity: O(1), no allocation.
    @inlinable public func bins(of index: Int, binWidth: Double, binCount: Int) -> Range<Int> {
        let band = bands[index]
        let first = Int((band.low / binWidth - 1e-9).rounded(.up))
        let end = Int((band.high / binWidth - 1e-9).rounded(.up))
        let lower = min(max(first, 0), binCount)
        return lower..<max(lower, min(end, binCount))
    }

    /// `NAME=LO-HI,…`, the text ``init(parsing:)`` reads back.
    public var description: String {
        bands.map { "\($0.name)=\(Self.hertz($0.low))-\(Self.hertz($0.high))" }.joined(separator: ",")
    }

    private static func trimmed(_ text: Substring) -> String {
        var text = text
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }

    /// `8`, `12.5`: a whole number without its `.0`.
    public static func hertz(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Why a band list cannot be used; ``description`` is a sentence for a usage error.
///
/// Threading: a plain value, `Sendable`.
public enum PowerBandsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No band at all.
    case noBands
    /// An entry that is not `NAME=LO-HI`.
    case syntax(String)
    /// A band without a name.
    case emptyName
    /// A name with `=`, `,` or white space.
    case badName(String)
    /// A name given twice.
    case duplicateName(String)
    /// Edges that are not finite with `0 ≤ low < high`.
    case badEdges(name: String, low: Double, high: Double)
    /// A band ending above the Nyquist frequency.
    case aboveNyquist(name: String, high: Double, nyquist: Double)
    /// A band narrower than the spectrum's bins that holds none of them.
    case noBin(name: String, binWidth: Double)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .noBands: return "give at least one band, NAME=LO-HI"
        case .syntax(let entry):
            return "'\(entry)' is not NAME=LO-HI (Hz), e.g. alpha=8-13"
        case .emptyName: return "every band needs a name: NAME=LO-HI, e.g. alpha=8-13"
        case .badName(let name): return "band name '\(name)' may not hold '=', ',' or spaces"
        case .duplicateName(let name): return "band name '\(name)' is given twice; names must be unique"
        case .badEdges(let name, let low, let high):
            return "band \(name)=\(PowerBands.hertz(low))-\(PowerBands.hertz(high)) needs 0 ≤ LO < HI"
        case .aboveNyquist(let name, let high, let nyquist):
            return "band \(name) ends at \(PowerBands.hertz(high)) Hz, above the Nyquist frequency, "
                + "\(PowerBands.hertz(nyquist)) Hz (half the sample rate)"
        case .noBin(let name, let binWidth):
            return "band \(name) holds no spectrum bin (bins every \(PowerBands.hertz(binWidth)) Hz): widen it"
        }
    }
}
