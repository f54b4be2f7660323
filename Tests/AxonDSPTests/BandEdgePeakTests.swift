@testable import AxonDSP
import Foundation
import Testing

/// A band's local maximum counts only where its refined peak lies inside the band, and only when it stands out
/// of the window's 1/f background.
@Suite struct BandEdgePeakTests {
    /// 1 plus a Gaussian bump of height 100 centred on bin `centre`, `width` bins wide (its standard deviation).
    static func gaussianBump(at centre: Double, width: Double, bins: Int) -> [Double] {
        (0..<bins).map { (bin: Int) -> Double in
            let z: Double = (Double(bin) - centre) / width
            return 1 + 100 * exp(-0.5 * z * z)
        }
    }

    @Test func aMaximumWhoseVertexLiesPastTheEdgeIsNoPeak() throws {
        let grid = try FrequencyGrid(sampleRate: 256, fftSize: 256)  // 1 Hz bins: 7 and 13 Hz are bin centres
        let band = try FrequencyBand(7, 13)
        // A peak at 13.4 Hz: bin 13 is the band's largest and a local maximum, but the peak lies past 13 Hz.
        let spectrum = Self.gaussianBump(at: 13.4, width: 0.7, bins: grid.binCount)
        let refined = spectrum.withUnsafeBufferPointer { grid.refinedPosition(of: $0, at: 13) }
        #expect(refined > 13)
        #expect(try grid.localPeak(of: spectrum, in: band) == nil)
        // The plain strongest-bin peak still clamps onto the edge, as documented.
        #expect(try grid.peak(of: spectrum, in: band).frequency == 13)
        // Inside the band it is reported where it is, not on the edge.
        let inside = Self.gaussianBump(at: 12.7, width: 0.7, bins: grid.binCount)
        let peak = try #require(try grid.localPeak(of: inside, in: band))
        #expect(abs(peak.frequency - 12.7) < 0.05 && peak.frequency < 13)
    }

    @Test func aWiggleOfTheBackgroundIsNoPeakAboveIt() throws {
        let grid = try FrequencyGrid(sampleRate: 250, fftSize: 256)
        let band = try FrequencyBand(14, 24)
        let background = try PowerLawBackground(grid: grid, prominence: 4)
        // 1/f with a 30 % bump at 18 Hz: a local maximum, but not 4× the background.
        var spectrum = (0..<grid.binCount).map { 1 / max(grid.frequency(ofBin: $0), 0.5) }
        spectrum[18] *= 1.3
        let range = try grid.bins(in: band)
        let fit = try #require(spectrum.withUnsafeBufferPointer { background.fit($0) })
        #expect(abs(fit.slope + 1) < 0.05, "\(fit.slope)")
        let weak = spectrum.withUnsafeBufferPointer { grid.localPeak(of: $0, bins: range, in: band, above: fit) }
        #expect(weak == nil)
        spectrum[18] *= 10
        let strong = spectrum.withUnsafeBufferPointer { spectrum -> SpectralPeak? in
            grid.localPeak(of: spectrum, bins: range, in: band, above: background.fit(spectrum))
        }
        #expect(strong?.bin == 18)
    }

    @Test func theFastLogIsWithinABillionthOfTheLibrarys() {
        var worst = 0.0
        var x = 1e-30
        while x < 1e30 {
            worst = max(worst, abs(fastLog(x) - log(x)) / max(1, abs(log(x))))
            let pair = fastLog(SIMD2(x, 3 * x))
            worst = max(worst, abs(pair[0] - log(x)) / max(1, abs(log(x))))
            worst = max(worst, abs(pair[1] - log(3 * x)) / max(1, abs(log(3 * x))))
            x *= 1.0137
        }
        #expect(worst < 1e-9, "\(worst)")
        #expect(fastLog(1) == 0)
        #expect(abs(fastLog(5e-320) - log(5e-320)) < 1e-9)  // subnormal: the library's
    }
}
