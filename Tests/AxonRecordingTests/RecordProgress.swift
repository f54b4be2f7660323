import Foundation

/// Reads `axon record`'s output from `handle` until its progress lines (`recorded 12.00 s (…)`) reach `seconds` or
/// the output ends, handing every other line to `other`; returns the seconds recorded.
func readRecordProgress(_ handle: FileHandle, until seconds: Double, other: (String) -> Void = { _ in }) -> Double {
    var recorded = 0.0
    var pending = ""
    while recorded < seconds {
        let data = handle.availableData
        if data.isEmpty { break }
        pending += String(decoding: data, as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
            let line = String(pending[..<newline])
            pending = String(pending[pending.index(after: newline)...])
            if line.hasPrefix("recorded "), let value = Double(line.split(separator: " ")[1]) {
                recorded = value
                if recorded >= seconds { return recorded }
            } else {
                other(line)
            }
        }
    }
    return recorded
}
