import AxonDSP
import Foundation
import Testing

@testable import AxonEEG

/// Band powers (``BandPowers``, ``AxonDSP/PowerBands``): a sine's power lands in its band at A²/2, the edge rule
/// puts each bin in one band, and `--bands` text is read or refused with a reason.
@Suite("band powers")
struct BandPowerTests {
    /// Runs `seconds` of `value(t)` on every channel of a 4-channel, 250 Hz engine; returns every window's band
    /// powers (computed from the engine's frame in place) and the engine.
    static func run(seconds: Double, bands: PowerBands = .standard, _ value: (Double) -> Double) throws
        -> (windows: [BandPowers], engine: EEGEngine)
    {
        let engine = try EEGEngine(testConfiguration())
        var powers = try BandPowers(bands: bands, configuration: engine.configuration)
        var windows: [BandPowers] = []
        for n in 0..<Int(seconds * 250) {
            let t = Double(n) / 250
            let v = value(t)
            if engine.ingest([v, v, v, v], time: testStartTime + t).contains(.spectrum) {
                engine.withSpectrum { powers.compute(from: $0) }
                windows.append(powers)
            }
        }
        return (windows, engine)
    }

    @Test("a 10 µV, 10 Hz sine: ≈ 50 µV² in alpha and ≈ 100 % relative alpha in every window")
    func sineInAlpha() throws {
        let (windows, _) = try Self.run(seconds: 20) { 10 * sin(2 * .pi * 10 * $0 + 0.3) }
        #expect(windows.count == 19)
        for powers in windows {
            for channel in 0..<4 {
                let alpha = powers.absolute(channel: channel, band: 2)
                #expect(abs(alpha - 50) < 0.25, "alpha \(alpha) µV²")
                #expect(powers.relative(channel: channel, band: 2) > 99.5)
                let sum = (0..<5).map { powers.relative(channel: channel, band: $0) }.reduce(0, +)
                #expect(abs(sum - 100) < 1e-9)
            }
        }
    }

    @Test("two sines in two bands: each band holds its own A²/2, and the shares follow")
    func twoSines() throws {
        // 20 µV at 6 Hz (theta, 200 µV²) and 5 µV at 20 Hz (beta, 12.5 µV²).
        let (windows, _) = try Self.run(seconds: 10) { 20 * sin(2 * .pi * 6 * $0) + 5 * sin(2 * .pi * 20 * $0 + 1) }
        let last = try #require(windows.last)
        #expect(abs(last.absolute(channel: 1, band: 1) - 200) < 2, "theta \(last.absolute(channel: 1, band: 1))")
        #expect(abs(last.absolute(channel: 1, band: 3) - 12.5) < 0.15, "beta \(last.absolute(channel: 1, band: 3))")
        #expect(abs(last.relative(channel: 1, band: 1) - 100 * 200 / 212.5) < 1)
    }

    @Test("the frame view and the owned frame give the same numbers; a flat window has NaN shares")
    func viewEqualsFrame() throws {
        let (windows, engine) = try Self.run(seconds: 3) { 7 * sin(2 * .pi * 22 * $0) + 3 * cos(2 * .pi * 2 * $0) }
        let frame = engine.withSpectrum {
            SpectrumFrame(
                $0, labels: engine.configuration.channelLabels, bands: engine.configuration.bands,
                binWidth: engine.grid.binWidth)
        }
        var owned = try BandPowers(bands: .standard, configuration: engine.configuration)
        owned.compute(from: frame)
        let fromView = try #require(windows.last)
        #expect(owned.absolute == fromView.absolute)
        #expect(owned.relative == fromView.relative)
        #expect(owned.sampleIndex == 250 + 255 && owned.timeframe == frame.timeframe)  // 750 samples: 255, 505

        let (flat, _) = try Self.run(seconds: 2) { _ in 0 }
        let window = try #require(flat.first)
        #expect(window.absolute(channel: 0, band: 0) == 0)
        #expect(window.relative(channel: 0, band: 0).isNaN)
    }

    @Test("edge rule LO ≤ f < HI: adjacent bands share no bin and a bin on an edge goes to the band above")
    func edgeRule() throws {
        let bands = PowerBands.standard
        // 160 Hz, 256 samples: bins every 0.625 Hz, so 30 Hz is bin 48 exactly and 45 Hz bin 72.
        #expect(bands.bins(of: 3, binWidth: 0.625, binCount: 129) == 21..<48)  // beta 13.125 … 29.375 Hz
        #expect(bands.bins(of: 4, binWidth: 0.625, binCount: 129) == 48..<72)  // gamma 30 … 44.375 Hz
        #expect(bands.bins(of: 2, binWidth: 250.0 / 256, binCount: 129) == 9..<14)  // alpha 8.79 … 12.70 Hz
        for index in 0..<4 {
            #expect(
                bands.bins(of: index, binWidth: 0.625, binCount: 129).upperBound
                    == bands.bins(of: index + 1, binWidth: 0.625, binCount: 129).lowerBound)
        }
        // A band reaching Nyquist stops before its bin; the whole spectrum but DC and Nyquist in one band.
        let all = try PowerBands(parsing: "all=0.5-125")
        #expect(all.bins(of: 0, binWidth: 250.0 / 256, binCount: 129) == 1..<128)
    }

    @Test("--bands text: the standard list reads back, spaces are ignored")
    func parsing() throws {
        let standard = try PowerBands(parsing: PowerBands.standardText)
        #expect(standard == .standard)
        #expect(standard.description == PowerBands.standardText)
        let custom = try PowerBands(parsing: " lowAlpha = 8 - 10 , high=10-12.5")
        #expect(custom.bands == [.init(name: "lowAlpha", low: 8, high: 10), .init(name: "high", low: 10, high: 12.5)])
        #expect(custom.description == "lowAlpha=8-10,high=10-12.5")
    }

    @Test(
        "--bands text that cannot be used is refused with the reason",
        arguments: [
            ("alpha", PowerBandsError.syntax("alpha")),
            ("alpha=8", .syntax("alpha=8")),
            ("alpha=8-x", .syntax("alpha=8-x")),
            ("alpha=8-13,", .syntax("")),
            ("=8-13", .emptyName),
            ("a b=8-13", .badName("a b")),
            ("alpha=8-13,alpha=9-12", .duplicateName("alpha")),
            ("alpha=13-8", .badEdges(name: "alpha", low: 13, high: 8)),
            ("alpha=8-8", .badEdges(name: "alpha", low: 8, high: 8)),
            ("x=-1-4", .syntax("x=-1-4")),
            ("x=1-inf", .badEdges(name: "x", low: 1, high: .infinity)),
        ])
    func refused(text: String, error: PowerBandsError) {
        #expect(throws: error) { try PowerBands(parsing: text) }
    }

    @Test("a band above Nyquist or narrower than a bin is refused for that stream")
    func streamChecks() throws {
        let gamma = try PowerBands(parsing: "gamma=30-100")
        #expect(throws: PowerBandsError.aboveNyquist(name: "gamma", high: 100, nyquist: 80)) {
            try gamma.check(nyquist: 80)
        }
        try gamma.check(nyquist: 125)
        #expect(throws: PowerBandsError.noBin(name: "narrow", binWidth: 250.0 / 256)) {
            try BandPowers(
                bands: PowerBands(parsing: "narrow=10.1-10.5"), channelLabels: ["C"], sampleRate: 250,
                windowSize: 256, equivalentNoiseBandwidth: 1.5)
        }
    }
}
