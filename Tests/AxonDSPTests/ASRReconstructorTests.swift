// Artifact subspace reconstruction on synthetic mixtures: delay, robust calibration, burst removal, restarts.

import AxonDSP
import Foundation
import Testing

@Suite("ASR calibration and reconstruction on synthetic data")
struct ASRReconstructorTests {
    static let channels = 6
    static let rate = 250.0

    /// `frames` frames of `channels` mixed sources: each source is the sum of four uniform noises (close to
    /// Gaussian, unit-ish variance) scaled by its own amplitude, mixed by a fixed deterministic matrix.
    static func mixture(frames: Int, seed: UInt64) -> [Double] {
        let c = channels
        let mixing = TestSignals.noise(count: c * c, seed: 99).enumerated().map {
            $0.element + ($0.offset % (c + 1) == 0 ? 2 : 0)
        }
        var generator = SplitMix64(seed: seed)
        var data = [Double](repeating: 0, count: frames * c)
        var source = [Double](repeating: 0, count: c)
        for frame in 0..<frames {
            for s in 0..<c {
                var sum = 0.0
                for _ in 0..<4 { sum += Double.random(in: -1..<1, using: &generator) }
                source[s] = sum * Double(10 + 3 * s)
            }
            for channel in 0..<c {
                var value = 0.0
                for s in 0..<c { value += mixing[channel + s * c] * source[s] }
                data[frame * c + channel] = value
            }
        }
        return data
    }

    static func configuration() -> ASRConfiguration { ASRConfiguration(sampleRate: rate, channelCount: channels) }

    /// A calibration on a minute of the mixture.
    static func calibration() throws -> ASRCalibration {
        try ASRCalibration(frames: mixture(frames: 15_000, seed: 3), configuration: configuration())
    }

    /// `1 − ‖with − without‖² / ‖burst‖²`: the share of the burst's energy that the cleaning removed.
    static func removedShare(with: [Double], without: [Double], burst: [Double]) -> Double {
        let residual = zip(with, without).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        return 1 - residual / burst.map { $0 * $0 }.reduce(0, +)
    }

    /// Runs `data` through a reconstructor in blocks of `block` frames and returns the output (delayed).
    static func run(_ asr: ASRReconstructor, _ data: [Double], block: Int = 100) -> [Double] {
        var output = data
        output.withUnsafeMutableBufferPointer { buffer in
            var frame = 0
            let frames = data.count / channels
            while frame < frames {
                let count = min(block, frames - frame)
                asr.process(buffer.baseAddress! + frame * channels, frameCount: count, stride: channels)
                frame += count
            }
        }
        return output
    }

    @Test("defaults at 250 Hz: 125-frame window, 16-frame step, 62-frame look-ahead, delay 77 frames")
    func defaults() {
        let configuration = Self.configuration()
        #expect(configuration.windowLength == 125 && configuration.stepLength == 16 && configuration.lookahead == 62)
        #expect(configuration.delay == 77)
        #expect(ASRConfiguration(sampleRate: 250, channelCount: 8).maxRemovedComponents == 5)
    }

    @Test("without a calibration the output is the input delayed by exactly `delay` frames, zeros first")
    func passThroughDelay() throws {
        let asr = try ASRReconstructor(configuration: Self.configuration())
        let data = Self.mixture(frames: 1000, seed: 1)
        let output = Self.run(asr, data, block: 37)
        let d = asr.delay * Self.channels
        #expect(output[0..<d].allSatisfy { $0 == 0 })
        #expect(Array(output[d...]) == Array(data[..<(data.count - d)]))
        #expect(asr.updateCount == 0 && asr.frameCount == 1000)
    }

    @Test("the geometric-median covariance barely moves when 5 % of the blocks hold 50× bursts; the mean does")
    func robustCovariance() throws {
        let configuration = Self.configuration()
        let clean = Self.mixture(frames: 10_000, seed: 2)
        var dirty = clean
        // Every 20th block of 10 frames gets a 50× burst on channel 0.
        for block in stride(from: 0, to: 1000, by: 20) {
            for frame in (block * 10)..<(block * 10 + 10) { dirty[frame * Self.channels] *= 50 }
        }
        let reference = try ASRCalibration(frames: clean, configuration: configuration)
        let robust = try ASRCalibration(frames: dirty, configuration: configuration)
        func norm(_ a: [Double]) -> Double { a.map { $0 * $0 }.reduce(0, +).squareRoot() }
        let robustChange = norm(zip(robust.covariance, reference.covariance).map(-)) / norm(reference.covariance)
        // The plain covariance of the same data, for contrast.
        var plain = [Double](repeating: 0, count: Self.channels * Self.channels)
        var plainClean = plain
        for frame in 0..<10_000 {
            for j in 0..<Self.channels {
                for i in 0..<Self.channels {
                    plain[i + j * Self.channels] += dirty[frame * Self.channels + i] * dirty[frame * Self.channels + j]
                    plainClean[i + j * Self.channels] +=
                        clean[frame * Self.channels + i] * clean[frame * Self.channels + j]
                }
            }
        }
        let plainChange = norm(zip(plain, plainClean).map(-)) / norm(plainClean)
        #expect(robustChange < 0.1, "robust covariance moved by \(robustChange)")
        #expect(plainChange > 1, "plain covariance moved by \(plainChange)")
        #expect(reference.componentThresholds.allSatisfy { $0 > 0 })
    }

    @Test("a 20× burst on one channel of calibrated data loses ≥ 95 % of its energy; clean data is kept")
    func removesBurst() throws {
        let configuration = Self.configuration()
        let calibration = try Self.calibration()
        let clean = Self.mixture(frames: 5000, seed: 4)
        var rms = 0.0
        for frame in 0..<5000 { rms += clean[frame * Self.channels + 2] * clean[frame * Self.channels + 2] }
        rms = (rms / 5000).squareRoot()
        var burst = [Double](repeating: 0, count: clean.count)
        for frame in 2000..<2200 {
            burst[frame * Self.channels + 2] = 20 * rms * sin(2 * .pi * 7 * Double(frame) / Self.rate)
        }
        let withBurst = zip(clean, burst).map(+)
        let cleanOut = Self.run(try ASRReconstructor(configuration: configuration, calibration: calibration), clean)
        let asr = try ASRReconstructor(configuration: configuration, calibration: calibration)
        let burstOut = Self.run(asr, withBurst)
        let removed = Self.removedShare(with: burstOut, without: cleanOut, burst: burst)
        #expect(removed >= 0.95, "removed \(100 * removed) %")
        #expect(asr.repairCount > 0 && asr.failureCount == 0)
        // On clean data ASR changes almost nothing: < 1 % of the energy, compared at the delay.
        let d = asr.delay * Self.channels
        let change = zip(cleanOut[d...], clean[..<(clean.count - d)]).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        let total = clean.map { $0 * $0 }.reduce(0, +)
        #expect(change / total < 0.01, "clean data changed by \(100 * change / total) %")
    }

    @Test("a burst across a restart is removed on both sides of it: ≥ 90 % of its energy")
    func burstAcrossRestart() throws {
        let configuration = Self.configuration()
        let calibration = try Self.calibration()
        let clean = Self.mixture(frames: 5000, seed: 8)
        var burst = [Double](repeating: 0, count: clean.count)
        for frame in 2400..<2600 {
            burst[frame * Self.channels + 2] = 600 * sin(2 * .pi * 7 * Double(frame) / Self.rate)
        }
        func cleanedWithRestart(_ data: [Double]) throws -> [Double] {
            let asr = try ASRReconstructor(configuration: configuration, calibration: calibration)
            var output = data
            output.withUnsafeMutableBufferPointer { buffer in
                asr.process(buffer.baseAddress!, frameCount: 2500, stride: Self.channels)
                asr.restart()
                asr.process(buffer.baseAddress! + 2500 * Self.channels, frameCount: 2500, stride: Self.channels)
            }
            #expect(asr.failureCount == 0)
            return output
        }
        let cleanOut = try cleanedWithRestart(clean)
        let burstOut = try cleanedWithRestart(zip(clean, burst).map(+))
        let removed = Self.removedShare(with: burstOut, without: cleanOut, burst: burst)
        #expect(removed >= 0.9, "removed \(100 * removed) % across the restart")
    }

    @Test("restart keeps the delay fixed and loses no frame: without a calibration the output stays the delayed input")
    func restartKeepsDelay() throws {
        let asr = try ASRReconstructor(configuration: Self.configuration())
        let data = Self.mixture(frames: 600, seed: 6)
        var output = data
        output.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            asr.process(base, frameCount: 250, stride: Self.channels)
            asr.restart()
            asr.process(base + 250 * Self.channels, frameCount: 3, stride: Self.channels)
            asr.restart()
            asr.process(base + 253 * Self.channels, frameCount: 347, stride: Self.channels)
        }
        let d = asr.delay * Self.channels
        #expect(Array(output[d...]) == Array(data[..<(data.count - d)]))
    }

    @Test("calibration rejects too little data, non-finite values and ragged frames")
    func calibrationErrors() throws {
        let configuration = Self.configuration()
        #expect(throws: DSPError.insufficientData(count: 100, minimum: 500)) {
            try ASRCalibration(frames: [Double](repeating: 1, count: 100 * Self.channels), configuration: configuration)
        }
        var data = Self.mixture(frames: 600, seed: 7)
        data[17] = .nan
        data[40] = .infinity
        #expect(throws: DSPError.nonFiniteData(count: 2)) {
            try ASRCalibration(frames: data, configuration: configuration)
        }
        let calibrator = try ASRCalibrator(configuration: configuration, capacity: 600)
        let ragged = [Double](repeating: 0, count: 600 * Self.channels - 1)
        #expect(throws: DSPError.self) {
            try ragged.withUnsafeBufferPointer { (b) throws(DSPError) in try calibrator.calibrate(b) }
        }
        #expect(throws: DSPError.invalidSize(size: 1, minimum: 2)) {
            try ASRReconstructor(configuration: ASRConfiguration(sampleRate: 250, channelCount: 1))
        }
    }
}
