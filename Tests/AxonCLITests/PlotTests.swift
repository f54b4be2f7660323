import Foundation
import StreamTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `axon plot` on the shipped OpenBCI recording, its SVG read back with Foundation's XML parser: the panels, their
/// labels and axes, the engine's numbers (the same as `axon analyze`'s), `--channels`, `--from/--to`, and the rule
/// that an existing file is not replaced without `--force`.
@Suite("axon plot")
struct PlotTests {
    static let recording = SignalTruthTests.openBCI
    static let labels = (0..<8).map { "EXG\($0)" }
    static let zoneNames: Set<String> = [
        "Relaxation", "HighRelaxation", "Dream", "NormalActivity", "Agitation", "HighAgitation",
    ]

    /// One element of the parsed SVG: its name, attributes, own text and children.
    final class Node {
        let name: String
        let attributes: [String: String]
        var text = ""
        var children: [Node] = []
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        /// This node and everything under it, depth first.
        var all: [Node] { [self] + children.flatMap(\.all) }

        /// Descendants (and self) named `name` whose `class` attribute lists `className` (any class when nil).
        func find(_ name: String, class className: String? = nil) -> [Node] {
            all.filter { node in
                node.name == name
                    && (className.map { (node.attributes["class"] ?? "").split(separator: " ").contains(Substring($0)) }
                        ?? true)
            }
        }

        func find(id: String) -> Node? { all.first { $0.attributes["id"] == id } }
    }

    /// Builds the ``Node`` tree from XMLParser's events; a parse error fails the parse.
    final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Node] = []
        var root: Node?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            let node = Node(name: elementName, attributes: attributes)
            stack.last?.children.append(node)
            if root == nil { root = node }
            stack.append(node)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { stack.last?.text += string }
    }

    /// `svg` parsed, or a failed expectation when it is not well-formed XML.
    static func parse(_ svg: Data) throws -> Node {
        let parser = XMLParser(data: svg)
        let builder = TreeBuilder()
        parser.delegate = builder
        let parsed = parser.parse()
        #expect(parsed, "not well-formed XML: \(String(describing: parser.parserError))")
        return try #require(builder.root)
    }

    /// A fresh temporary directory.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("axon-plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `axon plot RECORDING ARGUMENTS --out DIR/plot.svg`, its exit status, output and parsed SVG (nil if none).
    static func plot(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String, svg: Node?) {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let out = folder.appendingPathComponent("plot.svg")
        let (status, output) = try AxonExecutable.run(axon, ["plot", recording] + arguments + ["--out", out.path])
        guard let data = FileManager.default.contents(atPath: out.path) else { return (status, output, nil) }
        return (status, output, try parse(data))
    }

    /// The texts of `node`'s tick labels under `#id`'s time axis.
    static func timeTicks(_ root: Node, _ id: String) throws -> [Double] {
        let panel = try #require(root.find(id: id))
        let axis = try #require(panel.find("g", class: "time-axis").first)
        return axis.find("text", class: "tick-label").compactMap { Double($0.text) }
    }

    @Test("the shipped recording: 8 labelled traces, 8 spectra with axes and the engine's dominant lines, zones")
    func wholeRecording() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, parsed) = try Self.plot([], in: folder)
        #expect(status == 0, "\(output)")
        let svg = try #require(parsed, "no SVG written: \(output)")
        #expect(svg.name == "svg")
        #expect(svg.attributes["width"] == "1200")

        // Traces: one path per channel, labelled, with a µV scale, decimated to ≤ 2 points per pixel column.
        let traces = try #require(svg.find(id: "traces"))
        let paths = traces.find("path", class: "trace")
        #expect(paths.map { $0.attributes["data-channel"] ?? "" } == Self.labels)
        #expect(traces.find("text", class: "trace-label").map(\.text) == Self.labels)
        let scales = traces.find("text", class: "trace-scale").map(\.text)
        #expect(scales.count == 8 && scales.allSatisfy { $0.hasSuffix(" µV") }, "\(scales)")
        for path in paths {
            let points = (path.attributes["d"] ?? "").filter { $0 == "M" || $0 == "L" }.count
            #expect(points > 1000 && points <= 2 * 1070, "\(path.attributes["data-channel"] ?? ""): \(points) points")
        }
        let ticks = try Self.timeTicks(svg, "traces")
        #expect(ticks.first == 0 && (ticks.last ?? 0) >= 80 && (ticks.last ?? 0) <= 90, "\(ticks)")
        #expect(traces.find("text").contains { $0.text == "time (s)" })
        // The picture says how the traces were filtered.
        #expect(svg.find("text", class: "note").contains { $0.text.contains("band-pass 1–40 Hz") })

        // Spectra: one group per channel with both axis labels, frequency ticks 0–40 and the three bands shaded.
        let spectra = try #require(svg.find(id: "spectra")).find("g", class: "spectrum")
        #expect(spectra.map { $0.attributes["data-channel"] ?? "" } == Self.labels)
        for spectrum in spectra {
            let texts = spectrum.find("text").map(\.text)
            #expect(texts.contains("frequency (Hz)"))
            #expect(texts.contains("power (µV² per bin, log)"))
            #expect(["0", "10", "20", "30", "40"].allSatisfy(texts.contains), "\(texts)")
            #expect(
                spectrum.find("rect", class: "band").map { $0.attributes["data-band"] ?? "" }
                    == ["3–7 Hz", "7–13 Hz", "14–24 Hz"])
            #expect(spectrum.find("path", class: "spectrum-line").count == 1)
        }

        // The dominant lines are analyze's medians, channel by channel and band by band.
        let report = try SignalTruthTests.analyze([Self.recording])
        let channels = try #require(report["channels"] as? [[String: Any]])
        var lines = 0
        for (spectrum, channel) in zip(spectra, channels) {
            let bands = try #require(channel["bands"] as? [[String: Any]])
            let drawn = Dictionary(
                uniqueKeysWithValues: spectrum.find("line", class: "dominant").map {
                    ($0.attributes["data-band"] ?? "", Double($0.attributes["data-frequency"] ?? "") ?? .nan)
                })
            for band in bands {
                guard let median = band["median"] as? Double, let low = band["low"] as? Double,
                    let high = band["high"] as? Double
                else { continue }
                let name = "\(Int(low))–\(Int(high)) Hz"
                let frequency = try #require(drawn[name], "\(spectrum.attributes["data-channel"] ?? "") \(name)")
                #expect(abs(frequency - median) < 0.006, "\(name): drawn \(frequency), analyze \(median)")
                #expect(frequency >= low && frequency <= high)
                lines += 1
            }
        }
        #expect(lines == 24, "the recording has a peak in every band of every channel")

        // Band powers: one path per band over the same time axis.
        let bandPowers = try #require(svg.find(id: "bandpowers"))
        #expect(bandPowers.find("path", class: "bandpower").count == 3)
        #expect(try Self.timeTicks(svg, "bandpowers") == ticks)

        // Zones: analyze's timeline (60, 70, 80 s), one rect per period with its zone as title, and a legend.
        let zonesPanel = try #require(svg.find(id: "zones"))
        let zones = zonesPanel.find("rect", class: "zone")
        let zoneTimes = try #require(report["zones"] as? [[String: Any]])
        #expect(zones.count == zoneTimes.count && zones.count == 3)
        for (rect, zone) in zip(zones, zoneTimes) {
            let name = try #require(rect.attributes["data-zone"])
            #expect(Self.zoneNames.contains(name))
            #expect(name == zone["zone"] as? String)
            #expect(rect.find("title").first?.text.hasPrefix(name) == true)
        }
        let legend = zonesPanel.find("rect", class: "legend-swatch").compactMap { $0.attributes["data-zone"] }
        #expect(Set(legend) == Self.zoneNames)
    }

    @Test("--channels with 2 labels draws 2 traces and 2 spectra")
    func twoChannels() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, parsed) = try Self.plot(["--channels", "EXG1,EXG6"], in: folder)
        #expect(status == 0, "\(output)")
        let svg = try #require(parsed)
        let traces = try #require(svg.find(id: "traces")).find("path", class: "trace")
        #expect(traces.map { $0.attributes["data-channel"] ?? "" } == ["EXG1", "EXG6"])
        #expect(try #require(svg.find(id: "spectra")).find("g", class: "spectrum").count == 2)
    }

    @Test("--from/--to narrows the time axis to the recording's own seconds; no zones within the baseline")
    func span() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, parsed) = try Self.plot(["--from", "20", "--to", "50"], in: folder)
        #expect(status == 0, "\(output)")
        let svg = try #require(parsed)
        let ticks = try Self.timeTicks(svg, "traces")
        #expect(ticks.first == 20 && ticks.last == 50, "\(ticks)")
        #expect(ticks.allSatisfy { $0 >= 20 && $0 <= 50 })
        // 20 s sits at the panel's left edge and 50 s at its right (x 110 to 1180).
        let axis = try #require(svg.find(id: "traces")?.find("g", class: "time-axis").first)
        let positions = axis.find("text", class: "tick-label").compactMap { Double($0.attributes["x"] ?? "") }
        #expect(positions.first == 110 && positions.last == 1180, "\(positions)")
        let zones = try #require(svg.find(id: "zones"))
        #expect(zones.find("rect", class: "zone").isEmpty)
        #expect(zones.find("text", class: "zone-note").first?.text.contains("60 s baseline") == true)
        // 30 s at 250 Hz is 7,500 samples, over 2 per column: still decimated to the column count.
        let path = try #require(svg.find(id: "traces")?.find("path", class: "trace").first)
        #expect((path.attributes["d"] ?? "").filter { $0 == "L" }.count < 2 * 1070)
    }

    @Test("--display-band: the picture names the traces' filter, or says there is none")
    func displayBand() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, parsed) = try Self.plot(["--display-band", "none", "--channels", "EXG0"], in: folder)
        #expect(status == 0, "\(output)")
        let notes = try #require(parsed).find("text", class: "note").map(\.text)
        #expect(notes.contains { $0.contains("filtered for display only: none") }, "\(notes)")
        #expect(!notes.contains { $0.contains("band-pass") }, "\(notes)")

        let (high, highOutput, _) = try Self.plot(["--display-band", "1,200", "--force"], in: folder)
        #expect(high == 64, "\(highOutput)")
        #expect(highOutput.contains("not below the Nyquist frequency, 125 Hz"), "\(highOutput)")
    }

    @Test("without --out: the recording's name with .svg, in the current directory, and it is not replaced twice")
    func defaultOutput() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let axon = try #require(AxonExecutable.path)
        func plot() throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: axon)
            process.arguments = ["plot", Self.recording, "--channels", "EXG0"]
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try plot() == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(written == ["OpenBCI_GUI-v6-blinks-jawClench-alpha.svg"])
        let before = try Data(contentsOf: folder.appendingPathComponent(written[0]))
        #expect(try plot() == 1)
        #expect(try Data(contentsOf: folder.appendingPathComponent(written[0])) == before)
    }

    @Test("an existing file is left alone without --force and replaced with it")
    func refusesToOverwrite() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("plot.svg")
        try Data("the user's own file\n".utf8).write(to: out)
        let axon = try #require(AxonExecutable.path)
        let (status, output) = try AxonExecutable.run(axon, ["plot", Self.recording, "--out", out.path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("axon plot: \(out.path) exists; pass --force to replace it"), "\(output)")
        #expect(String(decoding: try Data(contentsOf: out), as: UTF8.self) == "the user's own file\n")

        let (forced, forcedOutput, svg) = try Self.plot(["--force"], in: folder)
        #expect(forced == 0, "\(forcedOutput)")
        #expect(svg?.find("path", class: "trace").count == 8)
    }

    /// Whether `rsvg-convert` is on this process's PATH (`make test-deps` installs librsvg2-bin).
    static let rsvgConvertInstalled = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/rsvg-convert")
    }

    @Test(
        "--png: a PNG of the picture's size through rsvg-convert, beside the SVG",
        .enabled(if: rsvgConvertInstalled, "rsvg-convert is not installed (make test-deps installs librsvg2-bin)"))
    func png() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, svg) = try Self.plot(["--png"], in: folder)
        #expect(status == 0, "\(output)")
        let root = try #require(svg, "no SVG written: \(output)")
        let png = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent("plot.png").path))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR, the first chunk: width and height, big-endian, at bytes 16–23.
        let bytes = [UInt8](png.prefix(24))
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect("\(width)" == root.attributes["width"] && "\(height)" == root.attributes["height"], "PNG \(width)×\(height)")
    }

    @Test("--png without rsvg-convert on the PATH: an error naming librsvg2-bin, and no file at all")
    func pngWithoutConverter() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let out = folder.appendingPathComponent("plot.svg")
        // An empty folder as the whole PATH: no converter to find.
        let (status, output) = try AxonExecutable.run(
            axon, ["plot", Self.recording, "--png", "--out", out.path], environment: ["PATH": folder.path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("rsvg-convert") && output.contains("librsvg2-bin"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is written when the PNG cannot be")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("plot.png").path))
    }

    @Test("a missing recording fails as analyze's does: one line, exit status 1, nothing written")
    func missingFile() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let axon = try #require(AxonExecutable.path)
        let missing = folder.appendingPathComponent("no-such-recording.txt").path
        let out = folder.appendingPathComponent("plot.svg").path
        let (status, output) = try AxonExecutable.run(axon, ["plot", missing, "--out", out])
        let (analyzeStatus, analyzeOutput) = try AxonExecutable.run(axon, ["analyze", missing])
        #expect(status == 1 && analyzeStatus == 1, "\(output)")
        #expect(output.hasPrefix("axon plot: ") && analyzeOutput.hasPrefix("axon analyze: "), "\(output)")
        #expect(output.dropFirst("axon plot: ".count) == analyzeOutput.dropFirst("axon analyze: ".count))
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
