// The IIR designs, the causal filter and the zero-phase filter against SciPy (Tests/Reference/filter_reference.py).

import AxonDSP
import Foundation
import Testing

@Suite("Filters against SciPy")
struct FilterReferenceTests {
    /// One design, as both sides build it.
    struct Case: Sendable, CustomTestStringConvertible {
        enum Kind: String, Sendable { case lowpass, highpass, bandpass, notch }
        let kind: Kind
        let order: Int
        let cutoffs: [Double]
        let sampleRate: Double
        var quality = 30.0
        var harmonics = false

        var testDescription: String {
            let edges = cutoffs.map { "\($0)" }.joined(separator: "–")
            let detail = kind == .notch ? "Q \(quality)\(harmonics ? " + harmonics" : "")" : "order \(order)"
            return "\(kind) \(edges) Hz, \(detail), fs \(sampleRate)"
        }

        var arguments: [String] {
            var result = ["--kind", kind.rawValue, "--cutoff"] + cutoffs.map { "\($0)" }
            result += ["--fs", "\(sampleRate)", "--order", "\(order)", "--quality", "\(quality)"]
            return result + (harmonics ? ["--harmonics"] : [])
        }

        func design() throws(DSPError) -> SecondOrderSections {
            switch kind {
            case .lowpass: try .butterworth(order: order, .lowPass(cutoffs[0]), sampleRate: sampleRate)
            case .highpass: try .butterworth(order: order, .highPass(cutoffs[0]), sampleRate: sampleRate)
            case .bandpass: try .butterworth(order: order, .bandPass(cutoffs[0], cutoffs[1]), sampleRate: sampleRate)
            case .notch: try .notch(at: cutoffs[0], quality: quality, harmonics: harmonics, sampleRate: sampleRate)
            }
        }
    }

    static let cases: [Case] = [
        Case(kind: .lowpass, order: 2, cutoffs: [30], sampleRate: 250),
        Case(kind: .lowpass, order: 3, cutoffs: [45], sampleRate: 250),
        Case(kind: .lowpass, order: 4, cutoffs: [40], sampleRate: 500),
        Case(kind: .highpass, order: 2, cutoffs: [1], sampleRate: 250),
        Case(kind: .highpass, order: 3, cutoffs: [1], sampleRate: 500),
        Case(kind: .highpass, order: 4, cutoffs: [0.5], sampleRate: 500),
        Case(kind: .bandpass, order: 2, cutoffs: [1, 50], sampleRate: 250),
        Case(kind: .bandpass, order: 4, cutoffs: [1, 50], sampleRate: 250),
        Case(kind: .bandpass, order: 4, cutoffs: [1, 40], sampleRate: 500),
        Case(kind: .bandpass, order: 3, cutoffs: [8, 13], sampleRate: 500),
        Case(kind: .notch, order: 2, cutoffs: [50], sampleRate: 250, harmonics: true),
        Case(kind: .notch, order: 2, cutoffs: [60], sampleRate: 250, harmonics: true),
        Case(kind: .notch, order: 2, cutoffs: [50], sampleRate: 500, harmonics: true),
        Case(kind: .notch, order: 2, cutoffs: [60], sampleRate: 500, harmonics: true),
        Case(kind: .notch, order: 2, cutoffs: [50], sampleRate: 500, quality: 10),
    ]

    static let python = TestSignals.packageRoot().appendingPathComponent(".venv-peers/bin/python").path
    static let script = TestSignals.packageRoot().appendingPathComponent("Tests/Reference/filter_reference.py").path

    /// Why the reference could not be run.
    struct ReferenceFailure: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    /// Every case's reference JSON by its arguments, from one run of the script: SciPy's import dominates its time,
    /// and one run per case cost 45 CPU-seconds.
    static let references: Result<[[String]: Data], ReferenceFailure> = {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return .failure(ReferenceFailure(description: "no \(python): make test installs .venv-peers"))
        }
        do {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [script, "--batch"]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let lines = try cases.map { String(decoding: try JSONEncoder().encode($0.arguments), as: UTF8.self) }
            input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            try input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let answers = data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
            guard process.terminationStatus == 0, answers.count == cases.count else {
                return .failure(ReferenceFailure(
                    description: "filter_reference.py --batch exited \(process.terminationStatus) after "
                        + "\(answers.count) of \(cases.count) cases"))
            }
            return .success(Dictionary(uniqueKeysWithValues: zip(cases.map(\.arguments), answers)))
        } catch {
            return .failure(ReferenceFailure(description: "filter_reference.py --batch: \(error)"))
        }
    }()

    /// The reference's JSON for one case.
    static func reference(_ filterCase: Case) throws -> [String: Any] {
        let data = try #require(try references.get()[filterCase.arguments])
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func numbers(_ json: [String: Any], _ key: String) throws -> [Double] {
        try #require(json[key] as? [Double], "no \(key) in the reference")
    }

    /// One reference per case checks both the response and the output.
    @Test(
        "sosfreqz within 0.1 dB over 0.5–100 Hz; sosfiltfilt and primed sosfilt within 1e-9 of the signal's size",
        arguments: cases)
    func matchesSciPy(_ filterCase: Case) throws {
        let json = try Self.reference(filterCase)
        let design = try filterCase.design()
        try Self.checkResponse(json, design, filterCase)
        try Self.checkFiltering(json, design, filterCase)
    }

    static func checkResponse(_ json: [String: Any], _ design: SecondOrderSections, _ filterCase: Case) throws {
        let frequencies = try Self.numbers(json, "frequencies")
        let decibels = try #require(json["decibels"] as? [Any])
        try #require(frequencies.count == 200 && decibels.count == 200)
        var worst = 0.0
        var compared = 0
        for (frequency, value) in zip(frequencies, decibels) {
            let ours = design.magnitudeDecibels(at: frequency)
            // Below −100 dB (and at an exact zero, null in the JSON) both sides are rounding error over a tiny
            // magnitude, so decibels are not compared there; ours must still be deep in the stop band.
            guard let theirs = value as? Double, theirs > -100 else {
                #expect(ours < -80, "\(frequency) Hz: reference below −100 dB, ours \(ours) dB")
                continue
            }
            worst = max(worst, abs(ours - theirs))
            compared += 1
        }
        print("\(filterCase.testDescription): worst |ΔdB| \(worst) over \(compared) frequencies")
        #expect(compared >= 190)
        #expect(worst <= 0.1, "worst |ΔdB| \(worst)")
    }

    static func checkFiltering(_ json: [String: Any], _ design: SecondOrderSections, _ filterCase: Case) throws {
        let signal = try Self.numbers(json, "signal")
        let zeroPhase = try Self.numbers(json, "zeroPhase")
        let causal = try Self.numbers(json, "causal")
        try #require(signal.count >= 2000 && zeroPhase.count == signal.count && causal.count == signal.count)
        let scale = signal.map(abs).max()!

        let ours = try design.zeroPhaseFiltered(signal)
        let zeroPhaseError = zip(ours, zeroPhase).map { abs($0 - $1) }.max()!

        // Causal, in blocks of 37 frames, primed on the first value like sosfilt with zi = sosfilt_zi · x[0].
        let filter = try SOSFilter(design, channelCount: 1)
        var running = signal
        running.withUnsafeMutableBufferPointer { values in
            for start in stride(from: 0, to: values.count, by: 37) {
                filter.filter(values.baseAddress! + start, frameCount: min(37, values.count - start), stride: 1)
            }
        }
        let causalError = zip(running, causal).map { abs($0 - $1) }.max()!
        print(
            "\(filterCase.testDescription): zero-phase max |Δ| \(zeroPhaseError), causal max |Δ| \(causalError)"
                + " (signal max \(scale))")
        #expect(zeroPhaseError <= 1e-9 * scale, "zero-phase max |Δ| \(zeroPhaseError)")
        #expect(causalError <= 1e-9 * scale, "causal max |Δ| \(causalError)")
        #expect(filter.heldValues == 0)
    }
}
