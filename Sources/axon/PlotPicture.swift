import AxonEEG
import Foundation

/// What `axon plot` draws, already computed: the display traces, the engine's mean spectra with its median dominant
/// frequencies, its band powers per window and its zone timeline. Times are seconds from the recording's first
/// sample (not the plotted span's), so a `--from` picture reads the same seconds as the file.
struct PlotData {
    /// One channel's display trace.
    struct Trace {
        var label: String
        var unit: String
        /// The samples of the plotted span, filtered for display.
        var values: [Double]
    }

    /// One channel's mean spectrum over the plotted span.
    struct Spectrum {
        var label: String
        var unit: String
        var binWidth: Double
        /// Mean of the engine's window spectra, bin `k` at `k · binWidth` Hz.
        var power: [Double]
        /// Per band, the engine's median dominant frequency (`nil`: no peak in any window).
        var dominant: [Double?]
    }

    /// One indicator period.
    struct ZonePeriod {
        var from: Double
        var to: Double
        var zone: String
        var percent: Double
    }

    var title: String
    /// Lines under the title: what was filtered, how the engine ran.
    var notes: [String]
    var start: Double
    var duration: Double
    var sampleRate: Double
    var traces: [Trace]
    var spectra: [Spectrum]
    /// The engine's bands, Hz.
    var bands: [(low: Double, high: Double)]
    /// Per window: its end (seconds) and each band's power, the mean over channels.
    var bandPowers: [(time: Double, powers: [Double])]
    var zones: [ZonePeriod]
    /// Why there are no zones, when there are none.
    var zoneNote: String?
}

/// Lays out ``PlotData`` as one SVG of stacked panels — traces, spectra, band powers, zones — with stable ids and
/// classes (`#traces path.trace[data-channel]`, `#spectra g.spectrum`, `#bandpowers path.bandpower`,
/// `#zones rect.zone[data-zone]`) so tests and scripts can find what they need.
enum PlotPicture {
    static let width = 1200.0
    static let left = 110.0
    static let right = 20.0
    static var plotWidth: Double { width - left - right }
    static let laneHeight = 56.0
    static let bandColours = ["#4e79a7", "#59a14f", "#f28e2b", "#b07aa1", "#9c755f"]
    static let zoneColours: [ActivityZone: String] = [
        .relaxation: "#8fd18f", .highRelaxation: "#1b9e77", .dream: "#7570b3", .normalActivity: "#c7c7c7",
        .agitation: "#fdae61", .highAgitation: "#d7191c",
    ]

    static let style = """
            text { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; font-size: 11px; fill: #222; }
            .title { font-size: 16px; font-weight: bold; }
            .note { font-size: 11px; fill: #555; }
            .panel-title { font-size: 13px; font-weight: bold; }
            .trace { fill: none; stroke: #1f3b73; stroke-width: 0.7; }
            .spectrum-line { fill: none; stroke: #1f3b73; stroke-width: 1; }
            .axis, .tick { stroke: #444; stroke-width: 1; }
            .grid { stroke: #e4e4e4; stroke-width: 1; }
            .scale-bar { stroke: #c0392b; stroke-width: 2; }
            .dominant { stroke: #c0392b; stroke-width: 1; stroke-dasharray: 3 2; }
            .dominant-label { font-size: 9px; fill: #c0392b; }
            .band { opacity: 0.15; }
            .bandpower { fill: none; stroke-width: 1.3; }
            .zone { stroke: #fff; stroke-width: 1; }
        """

    /// The picture's SVG text.
    static func svg(_ data: PlotData) -> String {
        let spectrumRows = (data.spectra.count + 3) / 4
        let headerHeight = 30.0 + 15 * Double(data.notes.count) + 10
        let tracesHeight = 30 + laneHeight * Double(max(1, data.traces.count)) + 40
        let spectraHeight = 30 + 200 * Double(max(1, spectrumRows))
        let bandHeight = 30 + 150.0 + 45
        let zonesHeight = 30 + 40.0 + 45 + 30
        var svg = SVGWriter(
            width: width, height: headerHeight + tracesHeight + spectraHeight + bandHeight + zonesHeight)
        svg.element("rect", ["x": "0", "y": "0", "width": "100%", "height": "100%", "fill": "#ffffff"])
        svg.text(data.title, x: 10, y: 22, className: "title")
        for (index, note) in data.notes.enumerated() {
            svg.text(note, x: 10, y: 40 + 15 * Double(index), className: "note")
        }
        var top = headerHeight
        traces(data, into: &svg, top: top)
        top += tracesHeight
        spectra(data, into: &svg, top: top)
        top += spectraHeight
        bandPowers(data, into: &svg, top: top)
        top += bandHeight
        zones(data, into: &svg, top: top)
        return svg.document(style: style)
    }

    /// x of a time in the time panels.
    private static func x(_ time: Double, _ data: PlotData) -> Double {
        left + (time - data.start) / max(data.duration, 1e-9) * plotWidth
    }

    /// The time axis under a time panel: a line, ticks at a round step, and "time (s)".
    private static func timeAxis(_ data: PlotData, into svg: inout SVGWriter, y: Double) {
        let n = SVGWriter.number
        svg.open("g", ["class": "x-axis time-axis"])
        svg.element("line", ["class": "axis", "x1": n(left), "y1": n(y), "x2": n(left + plotWidth), "y2": n(y)])
        for tick in ticks(from: data.start, to: data.start + data.duration, count: 10) {
            let px = x(tick, data)
            svg.element("line", ["class": "tick", "x1": n(px), "y1": n(y), "x2": n(px), "y2": n(y + 5)])
            svg.text(label(tick), x: px, y: y + 17, anchor: "middle", className: "tick-label")
        }
        svg.text("time (s)", x: left + plotWidth / 2, y: y + 32, anchor: "middle", className: "axis-label")
        svg.close("g")
    }

    private static func traces(_ data: PlotData, into svg: inout SVGWriter, top: Double) {
        let n = SVGWriter.number
        svg.open("g", ["id": "traces"])
        svg.text("Traces", x: 10, y: top + 18, className: "panel-title")
        let scale = traceScale(data.traces)
        let unit = data.traces.first?.unit ?? ""
        for (index, trace) in data.traces.enumerated() {
            let laneTop = top + 30 + laneHeight * Double(index)
            let centre = laneTop + laneHeight / 2
            let pixelsPerUnit = laneHeight * 0.4 / scale
            svg.open("g", ["class": "lane", "data-channel": trace.label])
            svg.element(
                "line", ["class": "grid", "x1": n(left), "y1": n(centre), "x2": n(left + plotWidth), "y2": n(centre)])
            svg.text(trace.label, x: 10, y: centre + 4, className: "trace-label")
            // The scale bar: `scale` in the channel's unit, the same in every lane.
            let barX = left - 8
            svg.element(
                "line",
                [
                    "class": "scale-bar", "x1": n(barX), "y1": n(centre), "x2": n(barX),
                    "y2": n(centre - scale * pixelsPerUnit),
                ])
            svg.text(
                "\(label(scale)) \(trace.unit)", x: barX - 4, y: centre - 2, anchor: "end", className: "trace-scale")
            let half = laneHeight / 2 - 1
            let points = decimated(trace.values, columns: Int(plotWidth)).map { point in
                (x: left + point.column, y: centre - max(-half, min(half, point.value * pixelsPerUnit)))
            }
            svg.element("path", ["class": "trace", "data-channel": trace.label, "d": SVGWriter.pathData(points)])
            svg.close("g")
        }
        timeAxis(data, into: &svg, y: top + 30 + laneHeight * Double(data.traces.count) + 2)
        svg.element("desc", text: "scale bars: \(label(scale)) \(unit) in every lane")
        svg.close("g")
    }

    /// The height one lane's scale bar stands for: the median over channels of each channel's 99th percentile of
    /// |value|, rounded up to 1, 2 or 5 × 10ⁿ — one loud channel (a railed electrode) does not flatten the others.
    static func traceScale(_ traces: [PlotData.Trace]) -> Double {
        let levels = traces.map { trace -> Double in
            let magnitudes = trace.values.filter(\.isFinite).map(abs).sorted()
            guard !magnitudes.isEmpty else { return 0 }
            return magnitudes[min(magnitudes.count - 1, Int(Double(magnitudes.count) * 0.99))]
        }.sorted()
        let level = levels.isEmpty ? 0 : levels[levels.count / 2]
        return niceCeiling(level > 0 ? level : 1)
    }

    /// At most two points per pixel column: each column's minimum and maximum, in the order they occur, so spikes
    /// survive and the file stays small. A trace with fewer samples than two per column keeps them all.
    static func decimated(_ values: [Double], columns: Int) -> [(column: Double, value: Double)] {
        let count = values.count
        guard count > 0, columns > 0 else { return [] }
        let width = Double(columns)
        if count <= 2 * columns {
            return values.enumerated().map {
                (Double($0.offset) / Double(max(1, count - 1)) * width, finite($0.element))
            }
        }
        var points: [(column: Double, value: Double)] = []
        points.reserveCapacity(2 * columns)
        for column in 0..<columns {
            let start = column * count / columns
            let end = max(start + 1, (column + 1) * count / columns)
            var low = (index: start, value: finite(values[start]))
            var high = low
            for index in start..<end {
                let value = finite(values[index])
                if value < low.value { low = (index, value) }
                if value > high.value { high = (index, value) }
            }
            let x = Double(column) + 0.5
            let pair = low.index <= high.index ? [low.value, high.value] : [high.value, low.value]
            points.append((x, pair[0]))
            if low.index != high.index { points.append((x, pair[1])) }
        }
        return points
    }

    private static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }

    private static func spectra(_ data: PlotData, into svg: inout SVGWriter, top: Double) {
        let n = SVGWriter.number
        let maxFrequency = 40.0
        svg.open("g", ["id": "spectra"])
        svg.text(
            "Spectra (mean of the engine's window spectra; dashed: median dominant frequency per band)",
            x: 10, y: top + 18, className: "panel-title")
        // One decade range for all panels, so channels compare at a glance.
        let shown = data.spectra.flatMap { spectrum in
            spectrum.power.enumerated().filter { bin in
                let frequency = Double(bin.offset) * spectrum.binWidth
                return frequency >= 0.5 && frequency <= maxFrequency && bin.element > 0 && bin.element.isFinite
            }.map { log10($0.element) }
        }
        let lowDecade = floor(shown.min() ?? -1)
        let highDecade = max(lowDecade + 1, ceil(shown.max() ?? 1))
        for (index, spectrum) in data.spectra.enumerated() {
            let panelLeft = 300 * Double(index % 4) + 62
            let panelTop = top + 30 + 200 * Double(index / 4) + 18
            let plotW = 222.0
            let plotH = 132.0
            func px(_ frequency: Double) -> Double { panelLeft + frequency / maxFrequency * plotW }
            func py(_ power: Double) -> Double {
                let level = log10(max(power, pow(10, lowDecade)))
                return panelTop + plotH - (level - lowDecade) / (highDecade - lowDecade) * plotH
            }
            svg.open("g", ["class": "spectrum", "data-channel": spectrum.label])
            svg.text(
                spectrum.label, x: panelLeft + plotW / 2, y: panelTop - 6, anchor: "middle", className: "spectrum-title"
            )
            for (band, range) in data.bands.enumerated() {
                let colour = bandColours[band % bandColours.count]
                svg.element(
                    "rect",
                    [
                        "class": "band", "data-band": bandName(range), "x": n(px(range.low)), "y": n(panelTop),
                        "width": n(px(min(range.high, maxFrequency)) - px(range.low)), "height": n(plotH),
                        "fill": colour,
                    ])
            }
            for decade in stride(from: lowDecade, through: highDecade, by: 1) {
                let y = py(pow(10, decade))
                svg.element(
                    "line", ["class": "grid", "x1": n(panelLeft), "y1": n(y), "x2": n(panelLeft + plotW), "y2": n(y)])
                svg.element(
                    "line", ["class": "tick", "x1": n(panelLeft - 4), "y1": n(y), "x2": n(panelLeft), "y2": n(y)])
                svg.text(powerLabel(decade), x: panelLeft - 6, y: y + 4, anchor: "end", className: "tick-label")
            }
            let points = spectrum.power.enumerated().compactMap { bin -> (x: Double, y: Double)? in
                let frequency = Double(bin.offset) * spectrum.binWidth
                guard frequency >= 0.5, frequency <= maxFrequency else { return nil }
                return (px(frequency), py(bin.element))
            }
            svg.element(
                "path", ["class": "spectrum-line", "data-channel": spectrum.label, "d": SVGWriter.pathData(points)])
            for (band, frequency) in spectrum.dominant.enumerated() {
                guard let frequency, band < data.bands.count, frequency <= maxFrequency else { continue }
                let x = px(frequency)
                svg.element(
                    "line",
                    [
                        "class": "dominant", "data-band": bandName(data.bands[band]),
                        "data-frequency": label(frequency, 2),
                        "x1": n(x), "y1": n(panelTop), "x2": n(x), "y2": n(panelTop + plotH),
                    ])
                svg.text(
                    label(frequency, 1) + " Hz", x: x + 2, y: panelTop + 10 + 10 * Double(band),
                    className: "dominant-label")
            }
            svg.element(
                "line",
                ["class": "axis", "x1": n(panelLeft), "y1": n(panelTop), "x2": n(panelLeft), "y2": n(panelTop + plotH)])
            svg.element(
                "line",
                [
                    "class": "axis", "x1": n(panelLeft), "y1": n(panelTop + plotH), "x2": n(panelLeft + plotW),
                    "y2": n(panelTop + plotH),
                ])
            for frequency in stride(from: 0.0, through: maxFrequency, by: 10) {
                let x = px(frequency)
                svg.element(
                    "line",
                    ["class": "tick", "x1": n(x), "y1": n(panelTop + plotH), "x2": n(x), "y2": n(panelTop + plotH + 4)])
                svg.text(label(frequency), x: x, y: panelTop + plotH + 15, anchor: "middle", className: "tick-label")
            }
            svg.text(
                "frequency (Hz)", x: panelLeft + plotW / 2, y: panelTop + plotH + 28, anchor: "middle",
                className: "axis-label x-label")
            svg.text(
                "power (\(spectrum.unit)² per bin, log)", x: panelLeft - 44, y: panelTop + plotH / 2,
                anchor: "middle", className: "axis-label y-label",
                extra: ["transform": "rotate(-90 \(n(panelLeft - 44)) \(n(panelTop + plotH / 2)))"])
            svg.close("g")
        }
        svg.close("g")
    }

    private static func bandPowers(_ data: PlotData, into svg: inout SVGWriter, top: Double) {
        let n = SVGWriter.number
        let plotTop = top + 30
        let plotH = 150.0
        let unit = data.spectra.first?.unit ?? ""
        svg.open("g", ["id": "bandpowers"])
        svg.text("Band power over time (mean over channels, each window)", x: 10, y: top + 18, className: "panel-title")
        let levels = data.bandPowers.flatMap(\.powers).filter { $0 > 0 && $0.isFinite }.map(log10)
        let lowDecade = floor(levels.min() ?? 0)
        let highDecade = max(lowDecade + 1, ceil(levels.max() ?? 1))
        func py(_ power: Double) -> Double {
            let level = log10(max(power, pow(10, lowDecade)))
            return plotTop + plotH - (level - lowDecade) / (highDecade - lowDecade) * plotH
        }
        for decade in stride(from: lowDecade, through: highDecade, by: 1) {
            let y = py(pow(10, decade))
            svg.element("line", ["class": "grid", "x1": n(left), "y1": n(y), "x2": n(left + plotWidth), "y2": n(y)])
            svg.text(powerLabel(decade), x: left - 6, y: y + 4, anchor: "end", className: "tick-label")
        }
        svg.element(
            "line", ["class": "axis", "x1": n(left), "y1": n(plotTop), "x2": n(left), "y2": n(plotTop + plotH)])
        svg.text(
            "power (\(unit)², log)", x: 40, y: plotTop + plotH / 2, anchor: "middle", className: "axis-label y-label",
            extra: ["transform": "rotate(-90 40 \(n(plotTop + plotH / 2)))"])
        for (band, range) in data.bands.enumerated() {
            let colour = bandColours[band % bandColours.count]
            let points = data.bandPowers.map { (x: x($0.time, data), y: py($0.powers[band])) }
            svg.element(
                "path",
                [
                    "class": "bandpower", "data-band": bandName(range), "stroke": colour,
                    "d": SVGWriter.pathData(points),
                ])
            let legendX = left + plotWidth - 300 + 100 * Double(band)
            svg.element(
                "rect",
                [
                    "class": "legend-swatch", "x": n(legendX), "y": n(top + 8), "width": "14", "height": "10",
                    "fill": colour,
                ])
            svg.text(bandName(range), x: legendX + 18, y: top + 17, className: "legend-label")
        }
        timeAxis(data, into: &svg, y: plotTop + plotH + 2)
        svg.close("g")
    }

    private static func zones(_ data: PlotData, into svg: inout SVGWriter, top: Double) {
        let n = SVGWriter.number
        let rowTop = top + 30
        let rowHeight = 40.0
        svg.open("g", ["id": "zones"])
        svg.text("Zone timeline (one indicator per period)", x: 10, y: top + 18, className: "panel-title")
        svg.element(
            "rect",
            [
                "class": "zone-frame", "x": n(left), "y": n(rowTop), "width": n(plotWidth), "height": n(rowHeight),
                "fill": "none", "stroke": "#bbb",
            ])
        for period in data.zones {
            let colour = ActivityZone(name: period.zone).flatMap { zoneColours[$0] } ?? "#999"
            let from = max(period.from, data.start)
            svg.element(
                "rect",
                [
                    "class": "zone", "data-zone": period.zone, "x": n(x(from, data)), "y": n(rowTop),
                    "width": n(max(0, x(period.to, data) - x(from, data))), "height": n(rowHeight), "fill": colour,
                ], title: "\(period.zone) \(Int(period.percent * 100))%, \(label(period.from))–\(label(period.to)) s")
        }
        if let note = data.zoneNote {
            svg.text(
                note, x: left + plotWidth / 2, y: rowTop + rowHeight / 2 + 4, anchor: "middle", className: "zone-note")
        }
        timeAxis(data, into: &svg, y: rowTop + rowHeight + 2)
        svg.open("g", ["class": "legend"])
        for (index, zone) in ActivityZone.allCases.enumerated() {
            let legendX = left + 160 * Double(index)
            let legendY = rowTop + rowHeight + 48
            svg.element(
                "rect",
                [
                    "class": "legend-swatch", "data-zone": zone.description, "x": n(legendX), "y": n(legendY),
                    "width": "14",
                    "height": "10", "fill": zoneColours[zone] ?? "#999",
                ])
            svg.text(zone.description, x: legendX + 18, y: legendY + 9, className: "legend-label")
        }
        svg.close("g")
        svg.close("g")
    }

    /// About `count` round ticks (1, 2 or 5 × 10ⁿ apart) from `low` to `high`.
    static func ticks(from low: Double, to high: Double, count: Int) -> [Double] {
        guard high > low else { return [low] }
        let step = niceCeiling((high - low) / Double(count))
        let first = (low / step).rounded(.up) * step
        return stride(from: first, through: high + step * 1e-9, by: step).map { $0 }
    }

    /// The smallest 1, 2 or 5 × 10ⁿ at least `value`.
    static func niceCeiling(_ value: Double) -> Double {
        let decade = pow(10, floor(log10(value)))
        for multiple in [1.0, 2, 5, 10] where multiple * decade >= value * (1 - 1e-12) { return multiple * decade }
        return 10 * decade
    }

    /// `3–7 Hz`: a band as the picture and its `data-band` attributes name it.
    static func bandName(_ band: (low: Double, high: Double)) -> String {
        "\(label(band.low))–\(label(band.high)) Hz"
    }

    /// A decade's value as people write it: 0.01, 0.1, 1, 10, 1000, 1e+06.
    private static func powerLabel(_ decade: Double) -> String {
        let value = pow(10, decade)
        if decade >= 5 || decade <= -4 { return String(format: "1e%+.0f", decade) }
        return decade >= 0 ? String(Int(value.rounded())) : String(format: "%.\(Int(-decade))f", value)
    }

    /// `value` with at most `digits` decimals and no trailing zeros: 12, 12.5, 0.25.
    static func label(_ value: Double, _ digits: Int = 2) -> String {
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
