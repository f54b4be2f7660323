// AxonEEG — the report as `axon analyze --json` prints it, one text for every caller (the command, the C interface).

import Foundation

extension EEGAnalysisReport {
    /// The report as one JSON object with sorted keys: the report's keys, and `filters`, the filters that ran on the
    /// recording before the engine, one description each (empty when none did). `axon analyze --json` prints this;
    /// the C interface's `axon_analysis_json` returns it, so both give the same text for the same analysis.
    ///
    /// Threading: a pure function of the value.
    public func jsonText(filters: [String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(FilteredReport(report: self, filters: filters)), as: UTF8.self)
    }
}

/// The report's keys with `filters` joined to them.
private struct FilteredReport: Encodable {
    let report: EEGAnalysisReport
    let filters: [String]

    private enum Key: String, CodingKey { case filters }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)  // a keyed object: `filters` joins its keys
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(filters, forKey: .filters)
    }
}
