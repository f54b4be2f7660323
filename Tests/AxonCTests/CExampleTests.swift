import AxonEEG
import AxonRecording
import CAxonABI
import Foundation
import StreamTestSupport
import Testing

/// examples/c/analyze.c, compiled with gcc against the built libAxonC.so and run on shipped recordings: its numbers
/// are the Swift engine's, window for window, and `axon analyze --json`'s on the same file (to FFTW's last bits).
@Suite("the C example: libAxonC.so from gcc gives the engine's and axon analyze's numbers")
struct CExampleTests {
    /// What the example printed: the first channel's windows and the indicators.
    struct Printed {
        var header = ""
        var windows: [(window: Int, sampleIndex: Int, time: Double, dominant: [Double])] = []
        var zones: [(index: Int, time: Double, zone: String, percent: Double)] = []

        init(_ output: String) throws {
            for line in output.split(separator: "\n") {
                let fields = line.split(separator: " ").map(String.init)
                switch fields.first {
                case "window":
                    let numbers = try fields.dropFirst().map { try #require(Double($0), "\(line)") }
                    windows.append((Int(numbers[0]), Int(numbers[1]), numbers[2], Array(numbers[3...])))
                case "zone":
                    zones.append(
                        (
                            try #require(Int(fields[1])), try #require(Double(fields[2])), fields[3],
                            try #require(Double(fields[4]))
                        ))
                default:
                    header = String(line)
                }
            }
        }
    }

    /// Equal to within `tolerance` Hz, NaN only with NaN. Not bitwise: each process plans its FFT with FFTW_MEASURE,
    /// which times candidate algorithms and may pick another one under load, moving the last bits (seen: 2e-15 Hz
    /// relative). Within one process the plans are the same and the engine tests compare bitwise.
    static func same(_ a: Double?, _ b: Double?, tolerance: Double = 1e-9) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.isNaN || b.isNaN ? a.isNaN && b.isNaN : abs(a - b) <= tolerance
    }

    static let recordings = [
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt",
        "datasets/physionet-eegmmidb/S001R02.edf",
    ]

    @Test(
        "every window's dominant frequencies equal EEGOfflineAnalysis's, the medians and zones axon analyze's",
        arguments: recordings)
    func exampleMatchesEngineAndAnalyze(_ path: String) throws {
        let program = try BuiltLibrary.compile("examples/c/analyze.c")
        defer { try? FileManager.default.removeItem(atPath: program) }
        let file = BuiltLibrary.file(path)
        let run = try BuiltLibrary.run(program, [file])
        try #require(run.status == 0, "analyze.c exited \(run.status): \(run.errors)")
        let printed = try Printed(run.output)

        // The engine as `axon analyze FILE` configures it (Analyze.swift), run in this process.
        let recording = try RecordingReader.read(path: file)
        let configuration = EEGEngine.Configuration(windowSize: 256, hop: 250, indicatorPeriod: 10)
            .fitted(to: recording.descriptor, hop: nil)
        var frames: [SpectrumFrame] = []
        let report = try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: recording.frameCount, baselineSeconds: 60,
            value: { recording.value(frame: $0, channel: $1) }, time: { recording.time(ofFrame: $0) },
            gaps: recording.gaps.map { ($0.beforeFrame, $0.gap.missingCount) }, onFrame: { frames.append($0) })

        #expect(printed.header.contains("\(recording.channelCount) channels"), "\(printed.header)")
        #expect(printed.header.contains("channel 0 is \(recording.channelLabels[0])"), "\(printed.header)")
        try #require(printed.windows.count == frames.count, "C printed \(printed.windows.count) windows")
        #expect(frames.count > 50)
        for (window, frame) in zip(printed.windows, frames) {
            #expect(window.window == frame.counter && window.sampleIndex == frame.sampleIndex)
            let expected = frame.channels[0].bands.map { $0.dominantFrequency ?? .nan }
            #expect(window.dominant.count == expected.count)
            #expect(zip(window.dominant, expected).allSatisfy { Self.same($0, $1) }, "window \(window.window)")
        }
        // Peaks and bands without one both occur, so the comparison above saw both kinds of value.
        let values = printed.windows.flatMap(\.dominant)
        #expect(values.contains { $0.isNaN } && values.contains { !$0.isNaN })
        let alpha = printed.windows.map { $0.dominant[1] }

        // `axon analyze FILE --json`, the command line's own process.
        let json = try Self.analyzeJSON(file)
        let channels = try #require(json["channels"] as? [[String: Any]])
        let bands = try #require(channels.first?["bands"] as? [[String: Any]])
        #expect(bands.count == printed.windows[0].dominant.count)
        for (band, summary) in bands.enumerated() {
            let found = printed.windows.map { $0.dominant[band] }.filter { !$0.isNaN }
            #expect(summary["noPeakFrames"] as? Int == printed.windows.count - found.count, "band \(band)")
            #expect(Self.same(summary["min"] as? Double, found.min()), "band \(band)")
            #expect(Self.same(summary["max"] as? Double, found.max()), "band \(band)")
            #expect(Self.same(summary["median"] as? Double, Self.median(found)), "band \(band)")
        }
        let zones = try #require(json["zones"] as? [[String: Any]])
        #expect(printed.zones.count == zones.count && zones.count == report.zones.count)
        for (printedZone, zone) in zip(printed.zones, zones) {
            #expect(printedZone.zone == zone["zone"] as? String)
            #expect(Self.same(printedZone.percent, zone["percent"] as? Double))
            #expect(printedZone.time == zone["time"] as? Double)
        }
        print(
            "analyze.c on \(path): \(printed.windows.count) windows, \(printed.zones.count) zones; channel 0 alpha "
                + "median \(Self.median(alpha.filter { !$0.isNaN }) ?? .nan) Hz, as axon analyze --json says")
    }

    /// `axon analyze FILE --json`'s object (warnings go to standard error, kept apart).
    static func analyzeJSON(_ file: String) throws -> [String: Any] {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let run = try BuiltLibrary.run(axon, ["analyze", file, "--json"])
        try #require(run.status == 0, "\(run.errors)")
        return try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }

    /// The report's median: the middle value, or the mean of the two middle ones.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    @Test("a missing recording: exit status 1 and the status name and message on standard error")
    func exampleReportsAFailure() throws {
        let program = try BuiltLibrary.compile("examples/c/analyze.c")
        defer { try? FileManager.default.removeItem(atPath: program) }
        let run = try BuiltLibrary.run(program, ["/nonexistent/recording.edf"])
        #expect(run.status == 1)
        #expect(run.errors.contains("axon_recording_open: AXON_ERR_NOT_FOUND"), "\(run.errors)")
        #expect(run.errors.contains("/nonexistent/recording.edf"), "\(run.errors)")
        #expect(run.output.isEmpty)
    }

    @Test(
        "the header alone compiles as pedantic C99 and as C++ (its extern \"C\" guards)",
        arguments: [
            ["-x", "c", "-std=c99", "-pedantic"], ["-x", "c++", "-std=c++11", "-pedantic"],
        ])
    func headerCompiles(_ language: [String]) throws {
        let compiler = try #require(
            ["/usr/bin/gcc", "/usr/local/bin/gcc"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let run = try BuiltLibrary.run(
            compiler, language + ["-Wall", "-Wextra", "-Werror", "-fsyntax-only", BuiltLibrary.file("include/axon.h")])
        #expect(run.status == 0, "\(run.errors)")
    }

    @Test("ldd finds every library libAxonC.so needs")
    func libraryDependenciesResolve() throws {
        let folder = try #require(BuiltLibrary.folder, "build libAxonC.so first (swift build --build-tests)")
        let library = folder.appendingPathComponent("libAxonC.so").path
        let run = try BuiltLibrary.run("/usr/bin/ldd", [library])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("libswiftCore.so"), "\(run.output)")
        #expect(!run.output.contains("not found"), "\(run.output)")
    }

    @Test("axon_version() is what axon --version prints")
    func versionMatchesTheCommandLine() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let run = try BuiltLibrary.run(axon, ["--version"])
        #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines) == "axon \(String(cString: axon_version()))")
    }
}
