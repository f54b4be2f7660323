import AxonOpenBCI
import AxonRecording
import Foundation
import StreamTestSupport
import Testing

/// The Cyton's lead-off impedance check: the `z C P N Z` command, the GUI's formula, and `axon impedance cyton:PATH`
/// against the simulated board, which adds the 31.25 Hz drive across configured electrodes to a real recording.
@Suite("Cyton impedance", .serialized)
struct CytonImpedanceTests {
    @Test("z C P N Z, the GUI's √2·σ/6 nA − 2.2 kΩ, and σ of the 31.25 Hz component under EEG")
    func leadOffFormula() throws {
        #expect(try CytonLeadOff.command(channel: 4, p: true, n: false) == "z410Z")
        #expect(try CytonLeadOff.command(channel: 9, p: false, n: true) == "zQ01Z")
        #expect(throws: CytonError.self) { try CytonLeadOff.command(channel: 17, p: true, n: true) }
        let parsed = try #require(CytonLeadOff.parse("z801Z"))
        #expect(parsed.channel == 8 && !parsed.p && parsed.n)
        #expect(CytonLeadOff.parse("z8012") == nil && CytonLeadOff.parse("z9 01Z") == nil)
        // OpenBCI GUI: 6 nA through 10 kΩ + 2.2 kΩ is a 73.2 µV sine, σ 51.76 µV, back to 10 kΩ.
        let amplitude = CytonLeadOff.amplitudeMicrovolts(electrodeOhms: 10_000)
        #expect(abs(amplitude - 73.2) < 1e-9)
        #expect(abs(CytonLeadOff.impedanceOhms(stddevMicrovolts: amplitude / 2.0.squareRoot()) - 10_000) < 1e-6)
        #expect(CytonLeadOff.impedanceOhms(stddevMicrovolts: 1) == 0)
        // Under a 10 Hz 50 µV rhythm, an offset and a 60 Hz hum, 1 s at 250 Hz: the drive's σ alone.
        let samples = (0..<250).map { index -> Double in
            let t = Double(index) / 250
            return 120 + 50 * sin(2 * .pi * 10 * t) + 20 * sin(2 * .pi * 60 * t)
                + amplitude * sin(2 * .pi * 31.25 * t + 1)
        }
        let stddev = try #require(CytonLeadOff.componentStddev(samples, sampleRate: 250))
        #expect(abs(CytonLeadOff.impedanceOhms(stddevMicrovolts: stddev) - 10_000) < 1)
        #expect(CytonLeadOff.componentStddev(Array(samples.prefix(7)), sampleRate: 250) == nil)
    }

    @Test("axon impedance cyton:PATH measures each simulated electrode's kΩ and passes it at 750 kΩ")
    func impedanceCommand() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let recording = try RecordingReader.read(path: CytonRoundTripTests.recordingPath).segment(from: 30, to: 40)
        let kiloohms = [5.0, 20.0, 400.0, 900.0, 3000.0]
        let simulator = try SimulatedCyton(
            configuration: .init(
                values: recording.values, channelCount: 8, speed: 4, loops: true,
                electrodeOhms: kiloohms.map { $0 * 1000 }))
        try simulator.start()
        defer { simulator.stop() }
        let (status, output) = try await AxonExecutable.runOffPool(
            axon, ["impedance", "cyton:\(simulator.path)", "--channels", "1,2,3,4,5", "--seconds", "1"])
        print(output)
        #expect(status == 0, "\(output)")
        var rows: [String: (Double, String)] = [:]
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.count >= 4, Int(words[0]) != nil, let value = Double(words[1]) {
                rows[words[0]] = (value, words[words.count - 1])
            }
        }
        for (index, expected) in kiloohms.enumerated() {
            let row = try #require(rows[String(index + 1)], "no row for channel \(index + 1): \(output)")
            // The recording's own 31.25 Hz content is under a µV (≈0.2 kΩ) in a second.
            #expect(
                abs(row.0 - expected) <= max(1, 0.01 * expected),
                "channel \(index + 1): \(row.0) kΩ, simulated \(expected)")
            #expect(row.1 == (expected <= 750 ? "pass" : "fail"))
        }
        #expect(output.contains("failing: 4, 5"), "\(output)")
        let commands = simulator.counters().commands
        #expect(commands.contains("z101Z") && commands.contains("z100Z") && commands.contains("z501Z"), "\(commands)")
    }
}
