import Foundation

/// What `axon band records` and `axon scale records` share: reading a store that must already exist, UTC times
/// in ISO 8601, aligned tables and JSON.
enum StoredRecordsOutput {
    /// A store that is not there: reading never creates one (an empty file would hide a mistyped path).
    struct MissingStore: Error, CustomStringConvertible {
        let path: String
        let writer: String
        var description: String { "no event store at \(path) (\(writer) --out \(path) writes one)" }
    }

    /// Fails with ``MissingStore`` unless `path` exists.
    static func requireStore(_ path: String, writer: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw MissingStore(path: path, writer: writer) }
    }

    /// Unix seconds as ISO 8601 in UTC (`2026-11-27T07:30:00Z`): the same text whatever the host's zone.
    static func isoTime(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// Minutes after midnight as `HH:MM`.
    static func clock(minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }

    /// Rows under headers, each column as wide as its widest cell, two spaces apart.
    static func table(_ headers: [String], _ rows: [[String]]) -> String {
        var widths = headers.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }

    /// `value` as pretty JSON with sorted keys.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One stored record in JSON: its id in the store, its time and the payload in its own encoding.
    struct Row<Payload: Encodable>: Encodable {
        /// The device's identity for the record (the store's `device_record_id`).
        let id: String
        /// ISO 8601, UTC.
        let time: String
        /// The payload as stored.
        let record: Payload
    }
}
