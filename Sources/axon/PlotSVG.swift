/// Plain SVG 1.1 text, built element by element: the writer behind `axon plot`. It knows elements, attributes,
/// escaping and how to print a coordinate, nothing about EEG.
///
///     var svg = SVGWriter(width: 1200, height: 800)
///     svg.open("g", ["id": "traces"])
///     svg.element("path", ["class": "trace", "d": "M0 0 L10 10"])
///     svg.close("g")
///     let text = svg.document()
///
/// Threading: a plain value; build it on one thread.
struct SVGWriter {
    /// The picture's size in pixels (user units).
    let width: Double
    let height: Double
    private var lines: [String] = []
    private var depth = 1

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Opens an element that holds others; close it with ``close(_:)``.
    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        lines.append(indent + "<\(name)\(Self.attributes(attributes))>")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        lines.append(indent + "</\(name)>")
    }

    /// An element with no content, or with `text` as its content (escaped), or with a `<title>` (a tooltip).
    mutating func element(
        _ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String? = nil, title: String? = nil
    ) {
        let head = "<\(name)\(Self.attributes(attributes))"
        switch (text, title) {
        case (nil, nil): lines.append(indent + head + "/>")
        case (let text?, nil): lines.append(indent + head + ">" + Self.escaped(text) + "</\(name)>")
        case (let text, let title?):
            lines.append(
                indent + head + "><title>" + Self.escaped(title) + "</title>" + Self.escaped(text ?? "")
                    + "</\(name)>")
        }
    }

    /// `<text>` at (`x`, `y`); `anchor` is `start`, `middle` or `end`.
    mutating func text(
        _ content: String, x: Double, y: Double, anchor: String = "start", className: String,
        extra: KeyValuePairs<String, String> = [:]
    ) {
        var attributes = ["x": Self.number(x), "y": Self.number(y), "class": className]
        if anchor != "start" { attributes["text-anchor"] = anchor }
        let more = extra.map { " \($0.key)=\"\(Self.escaped($0.value))\"" }.joined()
        let ordered = ["class", "x", "y", "text-anchor"].compactMap { key in
            attributes[key].map { " \(key)=\"\(Self.escaped($0))\"" }
        }.joined()
        lines.append(indent + "<text" + ordered + more + ">" + Self.escaped(content) + "</text>")
    }

    /// A path through `points` (`M x y L x y …`), or an empty string for none.
    static func pathData(_ points: [(x: Double, y: Double)]) -> String {
        guard let first = points.first else { return "" }
        var data = "M" + number(first.x) + " " + number(first.y)
        data.reserveCapacity(points.count * 12)
        for point in points.dropFirst() { data += "L" + number(point.x) + " " + number(point.y) }
        return data
    }

    /// The whole document: the XML declaration, the `<svg>` root with `style` as its stylesheet, the elements.
    func document(style: String) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(Self.number(width))\" "
            + "height=\"\(Self.number(height))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\">\n"
        text += "  <style type=\"text/css\"><![CDATA[\n" + style + "\n  ]]></style>\n"
        text += lines.joined(separator: "\n")
        text += "\n</svg>\n"
        return text
    }

    /// A coordinate with at most one decimal (a tenth of a pixel is below what a screen shows) and no `-0`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = (value * 10).rounded()
        if tenths == 0 { return "0" }
        let whole = Int(tenths) / 10
        let fraction = abs(Int(tenths) % 10)
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// `text` with the five XML special characters escaped, for content and attribute values alike.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    private static func attributes(_ pairs: KeyValuePairs<String, String>) -> String {
        pairs.map { " \($0.key)=\"\(escaped($0.value))\"" }.joined()
    }
}
