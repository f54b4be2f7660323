import Foundation

/// The speed trace in `Fixtures/two-hard-stops.csv`: (seconds, km/h) at 5 Hz.
enum SpeedTrace {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/two-hard-stops.csv").path
    /// Unix time the trace is placed at, so event ids are the same in every run.
    static let epoch = 1_763_800_000.0

    static func load() throws -> [(time: Double, kmh: Double)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("time") }
            .map { line in
                let fields = line.split(separator: ",")
                return (epoch + Double(fields[0])!, Double(fields[1])!)
            }
    }
}
