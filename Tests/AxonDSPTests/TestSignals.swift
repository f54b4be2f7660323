// Signal generators and reference computations shared by the AxonDSP tests.

import Foundation

/// Deterministic pseudo-random numbers (SplitMix64), so that tests never depend on a seed from the clock.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum TestSignals {
    /// `amplitude · sin(2π f n / fs + phase) + offset` for `n = 0..<count`.
    static func sine(
        frequency: Double, sampleRate: Double, count: Int, amplitude: Double = 1, phase: Double = 0,
        offset: Double = 0
    ) -> [Double] {
        (0..<count).map { n in
            amplitude * sin(2 * Double.pi * frequency * Double(n) / sampleRate + phase) + offset
        }
    }

    /// Uniform noise in [-1, 1).
    static func noise(count: Int, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in Double.random(in: -1..<1, using: &generator) }
    }

    /// The direct O(N²) DFT `X[k] = Σₙ x[n] e^(−2πi k n / N)` for `k = 0...N/2`. The phase index `k·n mod N` is
    /// reduced exactly in integers so that the reference itself is accurate to a few ulps times N.
    static func directDFT(_ x: [Double]) -> [(Double, Double)] {
        let count = x.count
        return (0...(count / 2)).map { k in
            var re = 0.0
            var im = 0.0
            for n in 0..<count {
                let angle = 2 * Double.pi * Double((k * n) % count) / Double(count)
                re += x[n] * cos(angle)
                im -= x[n] * sin(angle)
            }
            return (re, im)
        }
    }

    /// The package root: the first ancestor of this file that holds `Package.swift`.
    static func packageRoot(from file: String = #filePath) -> URL {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return directory
    }
}
