import ArgumentParser
import AxonDSP
import AxonEEG
import AxonRecording
import Foundation

extension Axon {
    /// A picture of a recording in one SVG (and a PNG when `rsvg-convert` is installed): traces filtered for
    /// display, the engine's spectra with its dominant frequencies, its band powers over time and its zone timeline.
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a recording as an SVG (or PNG): traces, a spectrum per channel with the dominant "
                + "frequencies, band powers over time and the zone timeline.",
            discussion: """
                The spectra, dominant frequencies, band powers and zones are the engine's, from the same run as \
                axon analyze with the same options. The traces are band-passed for display only (--display-band, \
                zero-phase); the picture says so. --bandpass, --highpass, --lowpass and --notch filter the recording \
                before the engine, as in analyze. An existing OUT is never replaced without --force. A PNG needs \
                rsvg-convert (Debian/Ubuntu package librsvg2-bin). docs/plot.md has the details.
                """)

        @Argument(help: "The recording to draw (any format axon reads: see axon info).")
        var file: String

        @OptionGroup var reading: RecordingReadOptions

        @OptionGroup(title: "Filters (zero-phase, before the engine, as in analyze)") var filters: FilterOptions

        @Option(
            help: ArgumentHelp(
                "The file to write: .svg, or .png (through rsvg-convert). Default: FILE's name with .svg, in the "
                    + "current directory.", valueName: "out"))
        var out: String?

        @Flag(help: "Also write a PNG beside the SVG (same name, .png), through rsvg-convert.")
        var png = false

        @Flag(help: "Replace OUT (and its PNG) if it exists.")
        var force = false

        @Option(help: "Channels to draw, by label (comma-separated); default all.")
        var channels: String?

        @Option(help: "Draw from this second.")
        var from: Double?

        @Option(help: "Draw up to this second.")
        var to: Double?

        @Option(
            name: .customLong("display-band"),
            help: ArgumentHelp(
                "Band-pass the traces from LOW to HIGH Hz for display (Butterworth order 4, zero-phase), or 'none' "
                    + "for the signal as the engine sees it (offset removed).", valueName: "low,high|none"))
        var displayBand = "1,40"

        @Option(help: "Seconds of baseline from the start of the drawn span (0 = no baseline, no zones).")
        var baseline: Double = 60

        @Option(help: "Seconds between indicators.")
        var indicator: Double = 10

        /// `--display-band` as a range, `nil` for `none`.
        private func displayEdges() throws -> ClosedRange<Double>? {
            if displayBand.lowercased() == "none" { return nil }
            let parts = displayBand.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low > 0, low < high, high.isFinite else {
                throw ValidationError("--display-band takes LOW,HIGH in Hz with 0 < LOW < HIGH (e.g. 1,40), or none")
            }
            return low...high
        }

        /// Where the picture goes: `--out`, else FILE's name with `.svg` in the current directory.
        var outputPath: String {
            if let out { return out }
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            return name + ".svg"  // relative: the current directory
        }

        private var outputExtension: String { URL(fileURLWithPath: outputPath).pathExtension.lowercased() }

        func validate() throws {
            _ = try displayEdges()
            guard ["svg", "png"].contains(outputExtension) else {
                throw ValidationError("--out must end in .svg or .png")
            }
            if png, outputExtension == "png" {
                throw ValidationError("--png writes a PNG beside an SVG; with --out NAME.png give no --png")
            }
            guard baseline >= 0, indicator > 0 else { throw ValidationError("need baseline ≥ 0 and indicator > 0") }
        }

        func run() throws {
            // Every file this run would write, refused before any work when one exists.
            let svgPath = outputExtension == "svg" ? outputPath : nil
            var pngPath = outputExtension == "png" ? outputPath : nil
            if png, let svgPath { pngPath = URL(fileURLWithPath: svgPath).deletingPathExtension().path + ".png" }
            for path in [svgPath, pngPath].compactMap({ $0 }) where !force {
                if FileManager.default.fileExists(atPath: path) { throw OutputFileError.exists(path: path) }
            }
            let converter = try pngPath.map { _ in try PNGConverter.find() }

            let data = try picture()
            let text = PlotPicture.svg(data)
            if let svgPath {
                try OutputFile.write(to: svgPath, replace: force) {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: $0))
                }
                print("axon plot: wrote \(svgPath) (\(text.utf8.count) bytes)")
            }
            if let pngPath, let converter {
                try OutputFile.write(to: pngPath, replace: force) { try converter.convert(svg: text, to: $0) }
                print("axon plot: wrote \(pngPath)")
            }
        }

        /// Reads, analyses and filters the recording as the picture needs it.
        func picture() throws -> PlotData {
            var recording = try reading.read(path: file)
            for warning in recording.warnings { printError("warning: \(warning)") }
            if let channels {
                recording = try recording.selecting(
                    channels: channels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            // The whole file, before any segment: the segment's edges then see no padding (as analyze does).
            recording = try filters.filtered(recording)
            let start = from ?? 0
            let whole = recording
            if from != nil || to != nil {
                recording = try recording.segment(from: start, to: to ?? recording.duration)
            }
            let loaded = recording
            var configuration = EEGEngine.Configuration(windowSize: 256, hop: 250, indicatorPeriod: indicator)
            configuration.sampleRate = loaded.sampleRate
            configuration.hop = Int(loaded.sampleRate.rounded())
            configuration.channelLabels = loaded.channelLabels
            if let range = loaded.descriptor.channels.compactMap(\.range).first {
                configuration.quality.railMagnitude = max(abs(range.lowerBound), abs(range.upperBound))
            }

            let width = loaded.channelCount
            var sums: [[Double]] = Array(repeating: [], count: width)
            var binWidth = 0.0
            var spectrumCount = 0
            var bandPowers: [(time: Double, powers: [Double])] = []
            let report = try EEGOfflineAnalysis.run(
                configuration: configuration, frameCount: loaded.frameCount,
                baselineSeconds: baseline > 0 ? baseline : nil,
                value: { loaded.value(frame: $0, channel: $1) }, time: { loaded.time(ofFrame: $0) },
                gaps: loaded.gaps.map { ($0.beforeFrame, $0.gap.missingCount) },
                onFrame: { frame in
                    spectrumCount += 1
                    binWidth = frame.binWidth
                    for (channel, spectrum) in frame.channels.enumerated() {
                        if sums[channel].isEmpty { sums[channel] = Array(repeating: 0, count: spectrum.spectrum.count) }
                        for (bin, power) in spectrum.spectrum.enumerated() { sums[channel][bin] += power }
                    }
                    let powers = configuration.bands.indices.map { band in
                        frame.channels.map { $0.bands[band].power }.reduce(0, +) / Double(max(1, frame.channels.count))
                    }
                    bandPowers.append((start + Double(frame.sampleIndex + 1) / loaded.sampleRate, powers))
                })
            guard spectrumCount > 0 else {
                throw PlotError.tooShort(
                    seconds: loaded.duration, window: configuration.windowSize, rate: loaded.sampleRate)
            }

            let edges = try displayEdges()
            let design = try edges.map { edges -> SecondOrderSections in
                guard edges.upperBound < loaded.sampleRate / 2 else {
                    throw ValidationError(
                        "--display-band's upper edge \(PlotPicture.label(edges.upperBound)) Hz is not below the "
                            + "Nyquist frequency, \(PlotPicture.label(loaded.sampleRate / 2)) Hz")
                }
                return try SecondOrderSections.butterworth(
                    order: 4, .bandPass(edges.lowerBound, edges.upperBound), sampleRate: loaded.sampleRate)
            }
            let units = loaded.descriptor.channels.map { $0.unit.isEmpty ? "units" : $0.unit }
            // The display filter runs over the whole file and the span is cut afterwards, so the span's edges show
            // no filter start-up; `segment` starts at the same rounded frame.
            let first = Int((start * whole.sampleRate).rounded())
            let traces = try (0..<width).map { channel in
                let shown: [Double]
                if design == nil {  // the span's own mean: the offset where it is drawn
                    shown = try Self.displayed(
                        (0..<loaded.frameCount).map { loaded.value(frame: $0, channel: channel) }, design: nil)
                } else {
                    let values = (0..<whole.frameCount).map { whole.value(frame: $0, channel: channel) }
                    shown = Array(try Self.displayed(values, design: design)[first..<(first + loaded.frameCount)])
                }
                return PlotData.Trace(label: loaded.channelLabels[channel], unit: units[channel], values: shown)
            }
            let spectra = report.channels.enumerated().map { channel, summary in
                PlotData.Spectrum(
                    label: summary.label, unit: units[channel], binWidth: binWidth,
                    power: sums[channel].map { $0 / Double(spectrumCount) }, dominant: summary.bands.map(\.median))
            }
            let zones = report.zones.map {
                PlotData.ZonePeriod(
                    from: start + $0.time - indicator, to: start + $0.time, zone: $0.zone, percent: $0.percent)
            }
            var zoneNote: String?
            if zones.isEmpty {
                zoneNote =
                    baseline > 0
                    ? "no zones: the span is not longer than the \(PlotPicture.label(baseline)) s baseline"
                    : "no zones: no baseline (--baseline 0)"
            }

            let name = URL(fileURLWithPath: file).lastPathComponent
            var notes = [
                "\(loaded.channelCount) channels at \(PlotPicture.label(loaded.sampleRate)) Hz, "
                    + "\(PlotPicture.label(start))–\(PlotPicture.label(start + loaded.duration)) s of the recording; "
                    + "\(spectrumCount) engine windows of \(configuration.windowSize) samples every "
                    + "\(configuration.hop); baseline \(PlotPicture.label(baseline)) s, indicators every "
                    + "\(PlotPicture.label(indicator)) s.",
                "Traces filtered for display only: "
                    + (edges.map {
                        "band-pass \(PlotPicture.label($0.lowerBound))–\(PlotPicture.label($0.upperBound)) Hz "
                            + "(Butterworth order 4, zero-phase)"
                    } ?? "none (each channel's mean removed)")
                    + ". Spectra, band powers and zones: the engine on the "
                    + (filters.isActive ? "filtered signal." : "unfiltered signal."),
            ]
            if let summary = filters.summary(.zeroPhase, sampleRate: loaded.sampleRate) {
                notes.append("Filtered before the engine: \(summary).")
            }
            return PlotData(
                title: "axon plot: \(name)", notes: notes, start: start, duration: loaded.duration,
                sampleRate: loaded.sampleRate, traces: traces, spectra: spectra,
                bands: configuration.bands.map { ($0.lower, $0.upper) }, bandPowers: bandPowers, zones: zones,
                zoneNote: zoneNote)
        }

        /// One channel as the traces panel shows it: band-passed forward and backward by `design`, or with its mean
        /// removed when there is none or the channel is too short for the filter's padding (a Cyton's raw values sit
        /// on an offset of thousands of µV). Non-finite values are drawn at zero rather than spread over the channel
        /// by the filter.
        static func displayed(_ values: [Double], design: SecondOrderSections?) throws -> [Double] {
            let finite = values.map { $0.isFinite ? $0 : 0 }
            let mean = finite.reduce(0, +) / Double(max(1, finite.count))
            let centred = finite.map { $0 - mean }
            guard let design, centred.count > design.defaultPadLength else { return centred }
            return try design.zeroPhaseFiltered(centred)
        }
    }
}

/// Why `axon plot` could not draw.
enum PlotError: Error, CustomStringConvertible {
    /// The span holds less than one engine window, so there is no spectrum to draw.
    case tooShort(seconds: Double, window: Int, rate: Double)
    /// A PNG was asked for and `rsvg-convert` is not on the PATH.
    case noConverter
    /// `rsvg-convert` ran and failed.
    case conversionFailed(status: Int32, message: String)

    var description: String {
        switch self {
        case .tooShort(let seconds, let window, let rate):
            "the span is \(PlotPicture.label(seconds)) s, shorter than one engine window (\(window) samples, "
                + "\(PlotPicture.label(Double(window) / rate)) s): nothing to draw"
        case .noConverter:
            "a PNG needs rsvg-convert, which is not installed (Debian/Ubuntu: apt-get install librsvg2-bin); "
                + "nothing was written; without --png (or with --out NAME.svg) axon plot writes the SVG alone"
        case .conversionFailed(let status, let message):
            "rsvg-convert failed (exit status \(status)): \(message)"
        }
    }
}

/// `rsvg-convert` (librsvg), found on the PATH: SVG text in, a PNG file out.
struct PNGConverter {
    let executable: String

    /// The converter on the PATH.
    ///
    /// - Throws: ``PlotError/noConverter`` when there is none.
    static func find() throws -> PNGConverter {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/rsvg-convert"
            if FileManager.default.isExecutableFile(atPath: candidate) { return PNGConverter(executable: candidate) }
        }
        throw PlotError.noConverter
    }

    /// Writes `svg` as a PNG at `path`.
    func convert(svg: String, to path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--format", "png", "--background-color", "white", "--output", path]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(svg.utf8))
        try input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PlotError.conversionFailed(
                status: process.terminationStatus, message: message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
