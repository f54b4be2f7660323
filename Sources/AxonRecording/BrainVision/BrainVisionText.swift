import Foundation

/// The text of a BrainVision header or marker file as lines of `[Section]`s and `key=value` entries (an INI file
/// with `;` comments), decoded by its `Codepage` (Brain Products' specification, "Common Infos").
///
/// Keys are matched without regard to case, as the specification's readers (and MNE-Python's `configparser`) do;
/// values keep their case and lose surrounding spaces. Only sections whose entries are `key=value` are kept:
/// the free text of a `[Comment]` section is skipped.
///
/// Threading: an immutable value; share freely.
struct BrainVisionText: Sendable {
    /// One `key=value` entry.
    struct Entry: Sendable {
        var key: String
        var value: String
        var line: Int
    }

    /// The first line (the version line), without a byte-order mark or line end.
    let firstLine: String
    /// The `Codepage` the text was decoded with (`UTF-8`, `ANSI` for Windows-1252, or `Latin-1` when UTF-8 fails).
    let codepage: String
    /// Entries per section, sections by lower-cased name, in file order.
    private let sections: [String: [Entry]]

    /// Decodes and splits `bytes`. Never fails: a file that is not a BrainVision header is told apart by
    /// ``firstLine``.
    init(bytes: [UInt8]) {
        // The Codepage key is ASCII in every codepage: find it before decoding.
        let ascii = String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        var declared = "UTF-8"
        for line in ascii.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "codepage" {
                declared = parts[1].trimmingCharacters(in: .whitespaces)
                break
            }
        }
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        let text: String
        if declared.uppercased() == "ANSI", let decoded = String(bytes: body, encoding: .windowsCP1252) {
            text = decoded
            codepage = "ANSI"
        } else if let decoded = String(validatingUTF8Bytes: body) {
            text = decoded
            codepage = "UTF-8"
        } else {
            // Older recorders wrote Latin-1 without saying so; every byte is a Latin-1 character.
            text = String(String.UnicodeScalarView(body.map { Unicode.Scalar($0) }))
            codepage = "Latin-1"
        }
        // "\r\n" is one Character in Swift: split on every line end.
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        firstLine = lines.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        var sections: [String: [Entry]] = [:]
        var current: String?
        for (index, raw) in lines.enumerated().dropFirst() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces).lowercased()
                continue
            }
            guard let section = current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[section, default: []].append(Entry(key: key, value: value, line: index + 1))
        }
        self.sections = sections
    }

    /// The entries of a section (case-insensitive), in file order.
    func entries(_ section: String) -> [Entry] { sections[section.lowercased()] ?? [] }

    /// The first entry of `key` in `section` (both case-insensitive), or `nil`.
    func entry(_ section: String, _ key: String) -> Entry? {
        entries(section).first { $0.key == key.lowercased() }
    }

    /// Whether a first line is the version line of a header (`kind` `Header`) or marker file (`Marker`): Brain
    /// Products' `Brain Vision Data Exchange Header File Version 1.0`, the 2.0 spelling `BrainVision Data Exchange
    /// Header File Version 2.0`, and the `Brain Vision Core Data Format` variant, with or without the comma some
    /// writers put before `Version`.
    static func isVersionLine(_ line: String, kind: String) -> Bool {
        let words = line.lowercased().replacingOccurrences(of: ",", with: " ")
            .split(separator: " ").joined(separator: " ")
        let kind = kind.lowercased()
        let prefixes = [
            "brain vision data exchange \(kind) file version", "brainvision data exchange \(kind) file version",
            "brain vision core data format \(kind) file version",
            "brainvision core data format \(kind) file version",
        ]
        return prefixes.contains { words.hasPrefix($0) }
    }

    /// A field of a comma-separated entry with BrainVision's escape for commas (`\1`) undone.
    static func unescaped(_ field: Substring) -> String {
        field.replacingOccurrences(of: "\\1", with: ",")
    }

    /// A text field as written: commas as `\1`, line ends (which no field can hold) as spaces.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: ",", with: "\\1").replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}

extension String {
    /// The string of UTF-8 `bytes`, or `nil` when they are not valid UTF-8.
    init?(validatingUTF8Bytes bytes: [UInt8]) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = String(scalars)
    }
}
