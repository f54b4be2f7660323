import AxonDSP
import AxonStreams
import Foundation

@testable import AxonEEG

/// Deterministic noise for the engine's tests: Gaussian white noise from the library's seeded generator, and
/// pink (1/f) noise made from it.
struct NoiseGenerator {
    private var random: SplitMix64
    private var pink = (0.0, 0.0, 0.0)

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Standard normal.
    mutating func gaussian() -> Double { random.gaussian() }

    /// Pink (1/f) noise, Kellet's three-pole economy filter on white noise; ≈ unit-order rms.
    mutating func pinkNoise() -> Double {
        let white = gaussian()
        pink.0 = 0.99765 * pink.0 + white * 0.0990460
        pink.1 = 0.96300 * pink.1 + white * 0.2965164
        pink.2 = 0.57000 * pink.2 + white * 1.0526913
        return pink.0 + pink.1 + pink.2 + white * 0.1848
    }
}

/// Test configuration: Brainiac defaults with instant FFT planning.
func testConfiguration(
    baseline: Double = 60, indicator: Double = 10, channels: [String] = ["T3", "O1", "T4", "O2"]
) -> EEGEngine.Configuration {
    EEGEngine.Configuration(
        channelLabels: channels, baselineDuration: baseline, indicatorPeriod: indicator, rigor: .estimate)
}

let testStartTime = 1_700_000_000.0
