/// The entries of a BrainVision marker file (`.vmrk`): `[Marker Infos]` lines
/// `Mk<n>=<type>,<description>,<position>,<size>,<channel>[,<date>]`, in the order of `n`.
///
/// Threading: an immutable value; share freely.
struct BrainVisionMarkerFile: Sendable {
    /// One marker as written.
    struct Entry: Sendable, Hashable {
        /// `Stimulus`, `Response`, `Comment`, `New Segment`, … (commas restored from `\1`).
        var type: String
        /// `S  1`, free text, … (commas restored).
        var description: String
        /// 1-based sample of the data file.
        var position: Int
        /// Length in samples (0 or 1: an instant).
        var size: Int
        /// 1-based channel, 0 for all.
        var channel: Int
        /// The `New Segment` date as Unix seconds, when there is one.
        var date: Double?
        /// The date field as written (empty when absent).
        var dateText: String
        /// 1-based line in the file.
        var line: Int
    }

    /// The markers, by `Mk` number.
    let entries: [Entry]
    /// The codepage the file was decoded with.
    let codepage: String

    /// Parses a marker file.
    ///
    /// - Throws: ``BrainVisionProblem/badMarker(line:text:reason:)`` for a marker line whose position, size or
    ///   channel is not a number, or that has fewer than 3 fields; ``BrainVisionProblem/badValue(line:key:value:reason:)``
    ///   when the first line is not a marker file's.
    init(bytes: [UInt8]) throws(BrainVisionProblem) {
        let text = BrainVisionText(bytes: bytes)
        guard BrainVisionText.isVersionLine(text.firstLine, kind: "Marker") else {
            throw .badValue(
                line: 1, key: "version line", value: text.firstLine,
                reason: "expected \"Brain Vision Data Exchange Marker File, Version 1.0\"")
        }
        codepage = text.codepage
        var numbered: [(Int, Entry)] = []
        for entry in text.entries("Marker Infos") {
            guard entry.key.hasPrefix("mk"), let number = Int(entry.key.dropFirst(2)) else { continue }
            let fields = entry.value.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3 else {
                throw .badMarker(
                    line: entry.line, text: entry.value, reason: "fewer than 3 fields (type, description, position)")
            }
            func integer(_ index: Int, _ name: String, default value: Int) throws(BrainVisionProblem) -> Int {
                guard index < fields.count else { return value }
                let field = fields[index].trimmingCharacters(in: .whitespaces)
                if field.isEmpty, index > 2 { return value }
                guard let number = Int(field), (-2_147_483_648...2_147_483_647).contains(number) else {
                    throw .badMarker(
                        line: entry.line, text: entry.value,
                        reason: "the \(name) \"\(field)\" is not a whole number of 32 bits")
                }
                return number
            }
            let position = try integer(2, "position", default: 1)
            let size = try integer(3, "size", default: 1)
            let channel = try integer(4, "channel", default: 0)
            let dateText = fields.count > 5 ? fields[5].trimmingCharacters(in: .whitespaces) : ""
            numbered.append(
                (
                    number,
                    Entry(
                        type: BrainVisionText.unescaped(fields[0]), description: BrainVisionText.unescaped(fields[1]),
                        position: position, size: size, channel: channel, date: BrainVisionDate.unixTime(dateText),
                        dateText: dateText, line: entry.line)
                ))
        }
        entries = numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
