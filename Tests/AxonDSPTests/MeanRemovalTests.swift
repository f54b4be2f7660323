// The analyzer removes the window's mean after the FFT, from the few bins where the window's own spectrum lives:
// the result must be the spectrum of the mean-free window, whatever the offset, for every window kind.

import Foundation
import Testing

@testable import AxonDSP

@Suite("Mean removal after the transform")
struct MeanRemovalTests {
    /// A 10.3 Hz sine, a 2.1 Hz one and fixed-seed noise: 256 samples at 250 Hz.
    static func signal(offset: Double) -> [Double] {
        var state: UInt64 = 7
        return (0..<256).map { n in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Double(state >> 11) * 0x1p-53 - 0.5
            let t = Double(n) / 250
            let tones: Double = 20 * sin(2 * Double.pi * 10.3 * t) + 5 * sin(2 * Double.pi * 2.1 * t)
            return tones + 4 * noise + offset
        }
    }

    @Test("an offset of 0, −3 000, 1e5 or 187 500 µV gives the same spectrum to 1e-9 of its peak", arguments: WindowKind.allCases)
    func offsetsDoNotMatter(window: WindowKind) throws {
        let analyzer = try SpectrumAnalyzer(.init(window: window, rigor: .estimate))
        try analyzer.analyze(Self.signal(offset: 0))
        let reference = analyzer.withSpectrum { Array($0) }
        let peak = reference.max()!
        for offset in [-3_000.0, 1e5, 187_500] {
            try analyzer.analyze(Self.signal(offset: offset))
            let worst = analyzer.withSpectrum { zip($0, reference).map { abs($0 - $1) }.max()! }
            #expect(worst <= 1e-9 * peak, "offset \(offset): \(worst) against a peak of \(peak)")
            #expect(abs(analyzer.lastTrend.intercept - offset) < 1, "mean \(analyzer.lastTrend.intercept)")
        }
    }

    @Test("a constant window has no power left in any bin (to 1e-18 of its square)")
    func constantWindowIsFlat() throws {
        let analyzer = try SpectrumAnalyzer(.init(rigor: .estimate))
        try analyzer.analyze([Double](repeating: 4_321.5, count: 256))
        #expect(analyzer.withSpectrum { $0.allSatisfy { $0 <= 1e-18 * 4_321.5 * 4_321.5 } })
    }
}
