import ArgumentParser
import AxonDSP

/// The filters people bring from the OpenBCI GUI and MNE — `--bandpass LOW,HIGH`, `--highpass HZ`, `--lowpass HZ`,
/// `--notch 50|60` (with its harmonics) and `--filter-order N` — for the commands that show, record, convert or
/// analyse EEG.
///
/// The options only describe the filter; ``design(sampleRate:)`` builds it for a stream's rate (the edges must lie
/// below its Nyquist frequency, so that check waits for the rate) and ``summary(_:)`` says in one line what ran.
/// Files are filtered forward and backward (zero-phase), live streams causally (``AxonDSP/SOSFilter``).
struct FilterOptions: ParsableArguments {
    /// How a design runs, for the description.
    enum Mode {
        /// Forward and backward over a whole recording: no phase shift, the attenuation doubled in decibels.
        case zeroPhase
        /// Sample by sample, as a live stream arrives.
        case causal
    }

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Band-pass every channel from LOW to HIGH Hz (Butterworth, --filter-order), e.g. --bandpass 1,50.",
            valueName: "low,high"))
    var bandpass: String?

    @Option(
        help: ArgumentHelp("High-pass every channel at HZ (Butterworth): removes offsets and drift.", valueName: "hz"))
    var highpass: Double?

    @Option(help: ArgumentHelp("Low-pass every channel at HZ (Butterworth).", valueName: "hz"))
    var lowpass: Double?

    @Option(help: ArgumentHelp(
        "Notch out the mains frequency, 50 or 60 Hz, and its harmonics below the Nyquist frequency (Q 30 each).",
        valueName: "hz"))
    var notch: Double?

    @Option(
        name: .customLong("filter-order"),
        help: ArgumentHelp("Butterworth order of --bandpass, --highpass and --lowpass (1–8).", valueName: "n"))
    var filterOrder: Int?

    /// The order used when `--filter-order` is not given (MNE's and the OpenBCI GUI's 4th order).
    static let defaultOrder = 4

    /// Whether any filter was asked for.
    var isActive: Bool { band != nil || notch != nil }

    /// The Butterworth pass band asked for, or `nil`: `--bandpass`, or `--highpass` and `--lowpass` alone or
    /// together (then each is its own filter, see ``design(sampleRate:)``).
    private var band: (low: Double?, high: Double?)? {
        if let edges = try? Self.edges(bandpass) { return (edges.lowerBound, edges.upperBound) }
        if highpass == nil && lowpass == nil { return nil }
        return (highpass, lowpass)
    }

    /// `--bandpass LOW,HIGH` as a range, `nil` when not given.
    private static func edges(_ text: String?) throws -> ClosedRange<Double>? {
        guard let text else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let low = parts[0], let high = parts[1], low.isFinite, high.isFinite, low > 0,
            low < high
        else {
            throw ValidationError("--bandpass needs LOW,HIGH in Hz with 0 < LOW < HIGH, e.g. --bandpass 1,50")
        }
        return low...high
    }

    func validate() throws {
        _ = try Self.edges(bandpass)
        if bandpass != nil, highpass != nil || lowpass != nil {
            throw ValidationError("--bandpass sets both edges: give it, or --highpass and --lowpass, not both")
        }
        for (name, value) in [("--highpass", highpass), ("--lowpass", lowpass)] {
            if let value, !(value.isFinite && value > 0) {
                let example = name == "--highpass" ? "1" : "40"
                throw ValidationError("\(name) needs a frequency in Hz > 0, e.g. \(name) \(example)")
            }
        }
        if let highpass, let lowpass, highpass >= lowpass {
            throw ValidationError(
                "--highpass \(Self.hertz(highpass)) is not below --lowpass \(Self.hertz(lowpass)): nothing would pass; "
                    + "for a band give --bandpass LOW,HIGH")
        }
        if let notch, notch != 50, notch != 60 {
            throw ValidationError("--notch takes the mains frequency: 50 or 60 (Hz)")
        }
        if let filterOrder {
            guard (1...8).contains(filterOrder) else { throw ValidationError("--filter-order takes 1 to 8") }
            guard band != nil else {
                throw ValidationError("--filter-order sets the order of --bandpass, --highpass or --lowpass; give one")
            }
        }
    }

    /// The cascade for a stream at `sampleRate` Hz — the Butterworth filter first, then the notch — or `nil` when
    /// no filter was asked for.
    ///
    /// - Throws: `ValidationError` when an edge or the notch is not below the Nyquist frequency of that rate.
    func design(sampleRate: Double) throws -> SecondOrderSections? {
        let nyquist = sampleRate / 2
        func check(_ frequency: Double, _ name: String) throws {
            guard frequency < nyquist else {
                throw ValidationError(
                    "\(name) \(Self.hertz(frequency)) Hz is not below the Nyquist frequency, \(Self.hertz(nyquist)) Hz "
                        + "(half of the \(Self.hertz(sampleRate)) Hz sample rate)")
            }
        }
        let order = filterOrder ?? Self.defaultOrder
        var designs: [SecondOrderSections] = []
        if case let (low, high)? = band {
            switch (low, high) {
            case (let low?, let high?) where bandpass != nil:
                try check(high, "--bandpass's upper edge")
                designs.append(try .butterworth(order: order, .bandPass(low, high), sampleRate: sampleRate))
            default:
                if let low {
                    try check(low, "--highpass")
                    designs.append(try .butterworth(order: order, .highPass(low), sampleRate: sampleRate))
                }
                if let high {
                    try check(high, "--lowpass")
                    designs.append(try .butterworth(order: order, .lowPass(high), sampleRate: sampleRate))
                }
            }
        }
        if let notch {
            try check(notch, "--notch")
            designs.append(try .notch(at: notch, harmonics: true, sampleRate: sampleRate))
        }
        guard var cascade = designs.first else { return nil }
        for next in designs.dropFirst() { cascade = try cascade.cascaded(with: next) }
        return cascade
    }

    /// One entry per filter asked for, as people read it: `band-pass 1–50 Hz (Butterworth order 4, zero-phase)`,
    /// `notch 50 Hz + harmonics (Q 30)`; empty when none was. `sampleRate` names the harmonics that fit (100 Hz at
    /// 250 Hz); without it they are left unnamed.
    func descriptions(_ mode: Mode, sampleRate: Double? = nil) -> [String] {
        let how = "Butterworth order \(filterOrder ?? Self.defaultOrder), "
            + (mode == .zeroPhase ? "zero-phase" : "causal")
        var lines: [String] = []
        if case let (low, high)? = band {
            if bandpass != nil, let low, let high {
                lines.append("band-pass \(Self.hertz(low))–\(Self.hertz(high)) Hz (\(how))")
            } else {
                if let low { lines.append("high-pass \(Self.hertz(low)) Hz (\(how))") }
                if let high { lines.append("low-pass \(Self.hertz(high)) Hz (\(how))") }
            }
        }
        if let notch {
            var harmonics = ""
            if let sampleRate {
                let multiples = stride(from: 2 * notch, to: sampleRate / 2, by: notch).map { Self.hertz($0) }
                harmonics = multiples.isEmpty ? "" : " (" + multiples.joined(separator: ", ") + " Hz)"
            }
            lines.append("notch \(Self.hertz(notch)) Hz + harmonics\(harmonics), Q 30"
                + (mode == .zeroPhase ? ", zero-phase" : ", causal"))
        }
        return lines
    }

    /// ``descriptions(_:sampleRate:)`` on one line, or `nil` when no filter was asked for.
    func summary(_ mode: Mode, sampleRate: Double? = nil) -> String? {
        let lines = descriptions(mode, sampleRate: sampleRate)
        return lines.isEmpty ? nil : lines.joined(separator: ", ")
    }

    /// The filters in the words of EDF's per-signal prefiltering field, `HP:1Hz LP:50Hz N:50Hz`; `nil` for none.
    var edfPrefiltering: String? {
        var parts: [String] = []
        if case let (low, high)? = band {
            if let low { parts.append("HP:\(Self.hertz(low))Hz") }
            if let high { parts.append("LP:\(Self.hertz(high))Hz") }
        }
        if let notch { parts.append("N:\(Self.hertz(notch))Hz") }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// These options as command-line arguments again, for a command that hands over to another (`demo --view`).
    var arguments: [String] {
        var arguments: [String] = []
        if let bandpass { arguments.append("--bandpass=\(bandpass)") }
        if let highpass { arguments += ["--highpass", "\(highpass)"] }
        if let lowpass { arguments += ["--lowpass", "\(lowpass)"] }
        if let notch { arguments += ["--notch", "\(notch)"] }
        if let filterOrder { arguments += ["--filter-order", "\(filterOrder)"] }
        return arguments
    }

    /// `1`, `0.5`, `12.25`: a frequency without a needless `.0`.
    private static func hertz(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : "\(value)"
    }
}
