import AxonDSP
import Foundation
import Testing

/// Which mains frequency stands out in a run's spectra: a line at 50 or 60 Hz over a 1/f background is found, a
/// spectrum without one gives no answer, and the rules (spectra needed, ratio, the other candidate) hold.
struct MainsLineDetectorTests {
    static let binWidth = 250.0 / 256

    /// A 1/f background with a seeded ±30 % wobble, plus `line` µV² per bin within ±1 Hz of `mains`.
    static func spectrum(mains: Double?, line: Double, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0...128).map { bin in
            let frequency = Double(bin) * binWidth
            var power = 100 / max(frequency, 0.5) * (0.7 + 0.6 * Double.random(in: 0..<1, using: &generator))
            if let mains, abs(frequency - mains) <= 1 { power += line }
            return power
        }
    }

    @Test("a line at the mains frequency is found after the spectra needed", arguments: [50.0, 60.0])
    func findsTheLine(mains: Double) throws {
        var detector = try MainsLineDetector()
        for index in 0..<3 {
            #expect(detector.mainsFrequency == nil, "decided after \(index) spectra")
            for channel in 0..<4 {
                detector.add(Self.spectrum(mains: mains, line: 20, seed: UInt64(10 * index + channel)), binWidth: Self.binWidth)
            }
            detector.endSpectrum()
        }
        #expect(detector.mainsFrequency == mains)
        let ratio = try #require(detector.lineRatio(at: mains))
        #expect(ratio > 4, "line ratio \(ratio)")
        let other = try #require(detector.lineRatio(at: mains == 50 ? 60 : 50))
        #expect(other > 0.5 && other < 2, "the other candidate's ratio \(other)")
    }

    @Test("broadband EEG without a line gives no mains frequency")
    func noLineNoAnswer() throws {
        var detector = try MainsLineDetector()
        for index in 0..<20 {
            detector.add(Self.spectrum(mains: nil, line: 0, seed: UInt64(index)), binWidth: Self.binWidth)
            detector.endSpectrum()
        }
        #expect(detector.mainsFrequency == nil)
        #expect(try #require(detector.lineRatio(at: 50)) < 2)
    }

    @Test("a weak line, or lines at both candidates alike, is no answer")
    func ambiguousOrWeak() throws {
        var weak = try MainsLineDetector()
        var both = try MainsLineDetector()
        for index in 0..<5 {
            // About twice the background per bin: below the ratio of 4.
            weak.add(Self.spectrum(mains: 50, line: 2, seed: UInt64(index)), binWidth: Self.binWidth)
            weak.endSpectrum()
            var twoLines = Self.spectrum(mains: 50, line: 30, seed: UInt64(index))
            for bin in twoLines.indices where abs(Double(bin) * Self.binWidth - 60) <= 1 { twoLines[bin] += 30 }
            both.add(twoLines, binWidth: Self.binWidth)
            both.endSpectrum()
        }
        #expect(weak.mainsFrequency == nil, "ratio \(weak.lineRatio(at: 50) ?? 0)")
        #expect(both.mainsFrequency == nil)
    }

    @Test("a spectrum that ends below a candidate's flanks measures what it has; below the line, nothing")
    func shortSpectra() throws {
        var detector = try MainsLineDetector(minimumSpectra: 1)
        // 128 Hz sampling: bins up to 64 Hz, so 60 Hz has its lower flank and 3–4 Hz of the upper one.
        let binWidth = 128.0 / 256
        let power = (0...128).map { bin -> Double in
            let frequency = Double(bin) * binWidth
            return 1 + (abs(frequency - 60) <= 1 ? 50 : 0)
        }
        detector.add(power, binWidth: binWidth)
        detector.endSpectrum()
        #expect(detector.mainsFrequency == 60)
        var empty = try MainsLineDetector(minimumSpectra: 1)
        empty.add([Double](repeating: 1, count: 80), binWidth: 0.5)   // up to 39.5 Hz
        empty.endSpectrum()
        #expect(empty.lineRatio(at: 50) == nil && empty.mainsFrequency == nil)
    }

    @Test("parameters outside their range are typed errors")
    func invalidParameters() {
        #expect(throws: DSPError.self) { try MainsLineDetector(minimumSpectra: 0) }
        #expect(throws: DSPError.self) { try MainsLineDetector(minimumRatio: 1) }
        #expect(throws: DSPError.self) { try MainsLineDetector(minimumRatio: .infinity) }
    }
}
