import Foundation

/// The real EDF readers (pyedflib and MNE in `.venv-peers`, made by `scripts/python-peers.sh`) and the checker
/// script that runs them on a file against an expectation.
enum EDFPeers {
    static let python = TestData.root.appendingPathComponent(".venv-peers/bin/python").path
    static let checker = TestData.root.appendingPathComponent("scripts/check-edf.py").path

    /// Whether the peers are installed (`make test` installs them; a bare `swift test` may not have them).
    static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

    /// An annotation the readers must find.
    struct Annotation: Codable, Equatable {
        var onset: Double
        var text: String
    }

    /// What the checker compares the file with (see scripts/check-edf.py).
    struct Expectation: Codable {
        var labels: [String]
        var units: [String]
        var rate: Double
        var duration: Double?
        var min_duration: Double?
        var values: String?
        var steps: [Double]?
        var start: Double? = nil
        var annotations: [Annotation]
        var annotation_margin: Double?
    }

    /// Runs the checker; returns its exit status and output.
    static func check(file: String, expectation: Expectation, values: [[Double]]? = nil) throws -> (Int32, String) {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        var expectation = expectation
        if let values {
            let path = folder.appendingPathComponent(UUID().uuidString + ".f64").path
            var flat: [Double] = []
            for channel in values { flat.append(contentsOf: channel) }
            try flat.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
            expectation.values = path
        }
        let json = folder.appendingPathComponent(UUID().uuidString + ".json")
        try JSONEncoder().encode(expectation).write(to: json)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [checker, file, "--expect-json", json.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// What MNE-Python makes of a file (scripts/mne-read.py): labels, units, rate and samples per channel in the
    /// unit as written.
    struct MNEReading: Decodable {
        var labels: [String]
        var units: [String]
        var rate: Double
        var samples: Int
        var warnings: [String]
        /// With `findEvents`: MNE's `find_events` on the `Status` channel, `[sample, code]` (codes masked to 16 bits),
        /// with `consecutive=True` and with MNE's default `consecutive="increasing"`.
        var events: [[Int]]?
        var eventsDefault: [[Int]]?
        /// MNE's annotations: onset in samples from the first sample, and text (`Stimulus/S  1`, `Comment/T0`).
        var annotations: [MNEAnnotation]
        /// MNE's `meas_date` as Unix seconds, or nil.
        var measDate: Double?
        var values: [[Double]] = []

        private enum CodingKeys: String, CodingKey {
            case labels, units, rate, samples, warnings, events, annotations
            case eventsDefault = "events_default"
            case measDate = "meas_date"
        }
    }

    /// One of MNE's annotations, at a sample.
    struct MNEAnnotation: Decodable, Equatable {
        var sample: Int
        var text: String
    }

    /// Reads `file` with MNE (and its BioSemi Status triggers with `findEvents`); throws with MNE's message when MNE
    /// cannot read it.
    static func mneRead(file: String, findEvents: Bool = false) throws -> MNEReading {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("axon-mne-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: out + ".json")
            try? FileManager.default.removeItem(atPath: out + ".f64")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [TestData.root.appendingPathComponent("scripts/mne-read.py").path, file, out]
            + (findEvents ? ["--find-events"] : [])
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let errors = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["mne": errors]) }
        var reading = try JSONDecoder().decode(MNEReading.self, from: Data(contentsOf: URL(fileURLWithPath: out + ".json")))
        let data = try Data(contentsOf: URL(fileURLWithPath: out + ".f64"))
        let flat = data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
        reading.values = (0..<reading.labels.count).map { Array(flat[($0 * reading.samples)..<(($0 + 1) * reading.samples)]) }
        return reading
    }

    /// A fresh temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("axon-edf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
