import AxonDSP
import Foundation

@testable import AxonEEG

/// Deterministic generators for the engine's tests.
struct NoiseGenerator {
    private var state: UInt64
    private var spare: Double?
    private var pink = (0.0, 0.0, 0.0)

    init(seed: UInt64) { state = seed }

    /// SplitMix64 → uniform in (0, 1).
    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (Double(z >> 11) + 0.5) / Double(1 << 53)
    }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        if let value = spare {
            spare = nil
            return value
        }
        let radius = (-2 * Foundation.log(uniform())).squareRoot()
        let angle = 2 * Double.pi * uniform()
        spare = radius * Foundation.sin(angle)
        return radius * Foundation.cos(angle)
    }

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
