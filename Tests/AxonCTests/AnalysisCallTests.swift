import CAxonABI
import Foundation
import StreamTestSupport
import Testing

/// axon_analyze against `axon analyze --json`, its options, and recordings made from a caller's samples.
@Suite("axon_analyze gives axon analyze --json's report; axon_recording_from_samples holds the caller's samples")
struct AnalysisCallTests {
    static let openBCI = "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"

    /// The report's JSON for `recording` with `options`: the status, and the text (or the last error).
    static func analyze(_ recording: OpaquePointer?, _ options: String?) -> (status: CInt, text: String) {
        var analysis: OpaquePointer?
        let status = axon_analyze(recording, options, &analysis)
        guard status == AXON_OK else { return (status, C.lastError) }
        defer { axon_analysis_destroy(&analysis) }
        var length = 0
        #expect(axon_analysis_json(analysis, nil, 0, &length) == AXON_ERR_BUFFER_TOO_SMALL)
        var buffer = [CChar](repeating: 0, count: length + 1)
        let copied = buffer.withUnsafeMutableBufferPointer { axon_analysis_json(analysis, $0.baseAddress, $0.count, &length) }
        return (copied, C.string(buffer))
    }

    /// Two JSON values equal, numbers to 1e-9 relative or 1e-12 absolute: each process measures its own FFTW plan,
    /// and under load another algorithm's rounding moves a z-score near zero by about 1e-14.
    static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (a as [String: Any], b as [String: Any]):
            return a.keys.sorted() == b.keys.sorted() && a.allSatisfy { key, value in same(value, b[key]!) }
        case let (a as [Any], b as [Any]):
            return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case let (a as String, b as String): return a == b
        case let (a as NSNumber, b as NSNumber):
            let x = a.doubleValue, y = b.doubleValue
            return x == y || abs(x - y) <= max(1e-9 * max(abs(x), abs(y)), 1e-12)
        case (is NSNull, is NSNull): return true
        default: return false
        }
    }

    @Test("the report equals the command's, with and without options", arguments: [
        ([String](), "{}"),
        (
            ["--channels", "EXG6,EXG7", "--from", "10", "--to", "70", "--baseline", "20", "--indicator", "5",
             "--window", "512", "--hop", "125", "--keep-artifacts", "--blink-scale", "0", "--bands", "alpha=8-13,beta=13-30"],
            #"{"channels": ["EXG6", "EXG7"], "from": 10, "to": 70, "baseline": 20, "indicator": 5, "window": 512, "hop": 125, "keep_artifacts": true, "blink_scale": 0, "bands": "alpha=8-13,beta=13-30"}"#
        ),
    ])
    func reportEqualsTheCommand(flags: [String], options: String) throws {
        let file = BuiltLibrary.file(Self.openBCI)
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let run = try BuiltLibrary.run(axon, ["analyze", file, "--json"] + flags)
        try #require(run.status == 0, "\(run.errors)")
        var (status, recording) = C.open(file)
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { axon_recording_close(&recording) }
        let (analysed, text) = Self.analyze(recording, options)
        try #require(analysed == AXON_OK, "\(text)")
        let command = try JSONSerialization.jsonObject(with: Data(run.output.utf8))
        let call = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect(Self.same(command, call), "axon_analyze's report differs from axon analyze --json \(flags)")
        #expect(text.hasPrefix(#"{"artifacts":"#))  // sorted keys, as the command prints
    }

    @Test("bad options are refused with a message naming them")
    func badOptions() throws {
        var (status, recording) = C.open(BuiltLibrary.file(Self.openBCI))
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { axon_recording_close(&recording) }
        let cases: [(String, String)] = [
            (#"{"windw": 256}"#, #"unknown option "windw""#),
            (#"{"window": "256"}"#, #"option "window" takes a whole number"#),
            (#"{"window": 4}"#, "window ≥ 8"),
            (#"{"keep_artifacts": 1}"#, #"option "keep_artifacts" takes true or false"#),
            (#"{"channels": ["Oz"]}"#, #"no channel "Oz""#),
            (#"{"channels": []}"#, "non-empty list"),
            (#"{"from": 500, "to": 600}"#, "segment"),
            (#"{"bands": "alpha=13-8"}"#, "bands"),
            (#"{"rail": -1}"#, "rail"),
            ("[1, 2]", "options"),
            ("not json", "options"),
        ]
        for (options, message) in cases {
            let (status, text) = Self.analyze(recording, options)
            #expect(status == AXON_ERR_INVALID_ARGUMENT && text.contains("axon_analyze") && text.contains(message),
                "\(options): \(status) \(text)")
        }
        var closed: OpaquePointer?
        #expect(axon_analyze(recording, nil, &closed) == AXON_OK)
        let stale = closed
        #expect(axon_analysis_destroy(&closed) == AXON_OK && closed == nil)
        var length = 0
        #expect(axon_analysis_json(stale, nil, 0, &length) == AXON_ERR_CLOSED_HANDLE)
        #expect(axon_analysis_json(recording, nil, 0, &length) == AXON_ERR_CLOSED_HANDLE)  // another kind
        #expect(axon_analyze(recording, nil, nil) == AXON_ERR_INVALID_ARGUMENT)
    }

    @Test("a recording from samples reads them back and analyses as its file does")
    func recordingFromSamples() throws {
        var (status, file) = C.open(BuiltLibrary.file(Self.openBCI))
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { axon_recording_close(&file) }
        var info = axon_recording_info()
        #expect(axon_recording_get_info(file, &info) == AXON_OK)
        let channels = info.channel_count, count = Int(info.frame_count)
        var samples = [Double](repeating: 0, count: channels * count)
        var read = 0
        #expect(axon_recording_read(file, 0, count, &samples, samples.count, nil, &read) == AXON_OK && read == count)
        let labels = (0..<channels).map { strdup("EXG\($0)") }
        defer { labels.forEach { free($0) } }
        var made: OpaquePointer?
        let labelPointers = labels.map { UnsafePointer($0) }
        status = labelPointers.withUnsafeBufferPointer {
            axon_recording_from_samples(samples, channels, count, info.sample_rate, $0.baseAddress, nil, info.start_time, &made)
        }
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { axon_recording_close(&made) }
        var back = [Double](repeating: .nan, count: samples.count)
        var times = [Double](repeating: .nan, count: count)
        #expect(axon_recording_read(made, 0, count, &back, back.count, &times, &read) == AXON_OK && back == samples)
        #expect(times[0] == info.start_time && abs(times[count - 1] - (info.start_time + Double(count - 1) / 250)) < 1e-6)
        #expect(C.text { axon_recording_channel_label(made, 6, $0, $1, $2) }.text == "EXG6")
        #expect(C.text { axon_recording_channel_unit(made, 0, $0, $1, $2) }.text == "µV")
        // The analysis of the same samples: the channels' summaries are the file's (its times differ: the file's
        // own stamps against start + n / rate).
        let fromFile = try JSONSerialization.jsonObject(with: Data(Self.analyze(file, nil).text.utf8)) as? [String: Any]
        let fromSamples = try JSONSerialization.jsonObject(with: Data(Self.analyze(made, nil).text.utf8)) as? [String: Any]
        #expect(Self.same(try #require(fromFile?["channels"]), try #require(fromSamples?["channels"])))
        #expect(Self.same(try #require(fromFile?["bandPowers"]), try #require(fromSamples?["bandPowers"])))
        // Refused: a non-finite sample, no channels, no frames, a rate of 0, NULL samples.
        samples[5] = .nan
        #expect(axon_recording_from_samples(samples, channels, count, 250, nil, nil, .nan, &made) == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError.contains("sample 5 of channel 0 is nan"))
        #expect(axon_recording_from_samples(samples, 0, count, 250, nil, nil, .nan, &made) == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_recording_from_samples(samples, channels, 0, 250, nil, nil, .nan, &made) == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_recording_from_samples(samples, channels, count, 0, nil, nil, .nan, &made) == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_recording_from_samples(nil, channels, count, 250, nil, nil, .nan, &made) == AXON_ERR_INVALID_ARGUMENT)
    }
}
