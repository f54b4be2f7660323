// The causal second-order-sections filter: state carried across blocks, priming on DC offsets, held non-finite
// values, and the designs' defining properties.

import AxonDSP
import Foundation
import Testing

@Suite("SOS filter")
struct SOSFilterTests {
    static let channels = 3
    /// Three channel values and one header value per frame; the header must come out untouched.
    static let stride = 4

    /// Interleaved frames: per channel a different DC offset (tens of mV in µV), a 10 Hz rhythm and noise.
    static func frames(_ count: Int, seed: UInt64 = 5) -> [Double] {
        let noise = TestSignals.noise(count: count * channels, seed: seed)
        var values = [Double](repeating: 0, count: count * stride)
        for frame in 0..<count {
            for channel in 0..<channels {
                let offset = [25_000.0, -18_000, 40][channel]
                values[frame * stride + channel] =
                    offset + 20 * sin(2 * Double.pi * 10 * Double(frame) / 250 + Double(channel))
                    + 5 * noise[frame * channels + channel]
            }
            values[frame * stride + channels] = Double(frame)
        }
        return values
    }

    static func run(_ filter: SOSFilter, _ values: inout [Double], blocks: [Int]) {
        let frameCount = values.count / stride
        values.withUnsafeMutableBufferPointer { buffer in
            var start = 0
            var next = 0
            while start < frameCount {
                let length = min(blocks[next % blocks.count], frameCount - start)
                filter.filter(buffer.baseAddress! + start * stride, frameCount: length, stride: stride)
                start += length
                next += 1
            }
        }
    }

    @Test(
        "filtering in blocks of any size gives exactly the values of filtering in one go",
        arguments: [
            [1], [7], [250], [1, 64, 3, 250, 17],
        ])
    func blocksEqualWhole(_ blocks: [Int]) throws {
        let design = try SecondOrderSections.butterworth(order: 4, .bandPass(1, 40), sampleRate: 250)
            .cascaded(with: .notch(at: 50, harmonics: true, sampleRate: 250))
        let input = Self.frames(1000)
        var whole = input
        Self.run(try SOSFilter(design, channelCount: Self.channels), &whole, blocks: [1000])
        var inBlocks = input
        Self.run(try SOSFilter(design, channelCount: Self.channels), &inBlocks, blocks: blocks)
        #expect(inBlocks == whole)
        #expect((0..<1000).allSatisfy { whole[$0 * Self.stride + Self.channels] == Double($0) })
        // The 1 Hz high-pass edge removed the offsets: the last second of every channel averages near zero.
        for channel in 0..<Self.channels {
            let tail = (750..<1000).map { whole[$0 * Self.stride + channel] }
            #expect(abs(tail.reduce(0, +) / 250) < 1, "channel \(channel) mean \(tail.reduce(0, +) / 250)")
        }
    }

    @Test(
        "priming on the first frame: a DC offset of 30 mV gives no transient",
        arguments: [
            PassBand.highPass(0.5), .bandPass(1, 50), .lowPass(30),
        ])
    func primedOnDCOffset(_ band: PassBand) throws {
        let design = try SecondOrderSections.butterworth(order: 4, band, sampleRate: 250)
        let filter = try SOSFilter(design, channelCount: 1)
        var values = [Double](repeating: 30_000, count: 500)
        values.withUnsafeMutableBufferPointer { filter.filter($0.baseAddress!, frameCount: 500, stride: 1) }
        // A low-pass passes the level itself; the others settle at 0 from the first sample.
        let settled = if case .lowPass = band { 30_000.0 } else { 0.0 }
        let worst = values.map { abs($0 - settled) }.max()!
        #expect(worst < 1e-7, "largest deviation \(worst) µV")
        // From rest (a first frame of 0), the same filter swings by thousands of µV: the check above can fail.
        var fromRest = [0.0] + [Double](repeating: 30_000, count: 499)
        let rest = try SOSFilter(design, channelCount: 1)
        fromRest.withUnsafeMutableBufferPointer { rest.filter($0.baseAddress!, frameCount: 500, stride: 1) }
        #expect(fromRest.map { abs($0 - settled) }.max()! > 1000)
    }

    @Test("reset primes again on the next frame, at the new level")
    func resetPrimesAgain() throws {
        let filter = try SOSFilter(
            try .butterworth(order: 2, .highPass(1), sampleRate: 250), channelCount: 2)
        let levels: [Double] = Array(repeating: [100.0, -100], count: 50).flatMap { $0 }
        var first = levels
        first.withUnsafeMutableBufferPointer { filter.filter($0.baseAddress!, frameCount: 50, stride: 2) }
        filter.reset()
        var second: [Double] = Array(repeating: [5000.0, 7000], count: 50).flatMap { $0 }
        second.withUnsafeMutableBufferPointer { filter.filter($0.baseAddress!, frameCount: 50, stride: 2) }
        #expect(second.map(abs).max()! < 1e-9)
        // Without the reset, the step from 100 to 5000 µV goes through the filter.
        let unreset = try SOSFilter(try .butterworth(order: 2, .highPass(1), sampleRate: 250), channelCount: 2)
        var steps = levels + Array(repeating: [5000.0, 7000], count: 50).flatMap { $0 }
        steps.withUnsafeMutableBufferPointer { unreset.filter($0.baseAddress!, frameCount: 100, stride: 2) }
        #expect(steps[100] > 4000)
    }

    @Test("NaN and infinite inputs are held at the channel's previous input and counted; other channels untouched")
    func nonFiniteHeld() throws {
        let design = try SecondOrderSections.butterworth(order: 3, .lowPass(20), sampleRate: 250)
        let clean = Self.frames(300)
        var dirty = clean
        var held = clean
        for (frame, bad) in [(40, Double.nan), (41, .infinity), (200, -.infinity)] {
            dirty[frame * Self.stride + 1] = bad
            held[frame * Self.stride + 1] = held[(frame - 1) * Self.stride + 1]
        }
        let filter = try SOSFilter(design, channelCount: Self.channels)
        Self.run(filter, &dirty, blocks: [64])
        Self.run(try SOSFilter(design, channelCount: Self.channels), &held, blocks: [300])
        #expect(filter.heldValues == 3)
        #expect(dirty == held)
        #expect(dirty.allSatisfy { $0.isFinite })
    }

    @Test("Butterworth edges are the −3 dB points; a notch is an exact zero at its frequency and harmonics")
    func designProperties() throws {
        let halfPower = 10 * log10(0.5)
        let lowPass = try SecondOrderSections.butterworth(order: 5, .lowPass(30), sampleRate: 250)
        #expect(abs(lowPass.magnitudeDecibels(at: 30) - halfPower) < 1e-9)
        #expect(abs(lowPass.magnitudeDecibels(at: 0)) < 1e-9)
        #expect(lowPass.sections.count == 3)
        let bandPass = try SecondOrderSections.butterworth(order: 4, .bandPass(8, 13), sampleRate: 250)
        #expect(abs(bandPass.magnitudeDecibels(at: 8) - halfPower) < 1e-9)
        #expect(abs(bandPass.magnitudeDecibels(at: 13) - halfPower) < 1e-9)
        #expect(bandPass.sections.count == 4)
        let notch = try SecondOrderSections.notch(at: 60, harmonics: true, sampleRate: 500)
        #expect(notch.sections.count == 4)  // 60, 120, 180, 240 Hz
        for harmonic in [60.0, 120, 180, 240] { #expect(notch.magnitudeDecibels(at: harmonic) < -200) }
        #expect(abs(notch.magnitudeDecibels(at: 10)) < 0.01)
        #expect(try SecondOrderSections.notch(at: 50, sampleRate: 250).sections.count == 1)
        // 125 Hz is the Nyquist frequency itself, not below it: 62.5 Hz at 250 Hz has no harmonic.
        #expect(try SecondOrderSections.notch(at: 62.5, harmonics: true, sampleRate: 250).sections.count == 1)
    }

    @Test("a cascade's response is the sum of its parts' in decibels")
    func cascadeAddsDecibels() throws {
        let band = try SecondOrderSections.butterworth(order: 2, .bandPass(1, 40), sampleRate: 250)
        let notch = try SecondOrderSections.notch(at: 50, sampleRate: 250)
        let both = try band.cascaded(with: notch)
        #expect(both.sections.count == 3)
        for frequency in Swift.stride(from: 0.5, through: 120, by: 3.5) {
            let sum = band.magnitudeDecibels(at: frequency) + notch.magnitudeDecibels(at: frequency)
            #expect(abs(both.magnitudeDecibels(at: frequency) - sum) < 1e-9)
            #expect(abs(both.magnitude(at: frequency) - pow(10, sum / 20)) < 1e-12)
        }
    }

    @Test("zero-phase filtering keeps a pass-band rhythm in place and removes the offset")
    func zeroPhaseKeepsPhase() throws {
        let design = try SecondOrderSections.butterworth(order: 4, .bandPass(1, 40), sampleRate: 250)
        let rhythm = TestSignals.sine(frequency: 10, sampleRate: 250, count: 5000, amplitude: 20)
        let signal = rhythm.map { $0 + 25_000 }
        let filtered = try design.zeroPhaseFiltered(signal)
        #expect(filtered.count == signal.count)
        // Away from the ends (the rhythm's onset rings for seconds through the 1 Hz edge) the rhythm comes out
        // scaled by |H(10 Hz)|² (two passes) and not shifted at all.
        let gain = design.magnitude(at: 10) * design.magnitude(at: 10)
        let worst = (1500..<3500).map { abs(filtered[$0] - gain * rhythm[$0]) }.max()!
        #expect(worst < 0.001, "largest deviation from the scaled rhythm \(worst) µV")
        // A shift by a single sample would be off by about 20 · 2π · 10/250 ≈ 5 µV.
        let shifted = (1500..<3500).map { abs(filtered[$0] - gain * rhythm[$0 - 1]) }.max()!
        #expect(shifted > 1)
        #expect(design.defaultPadLength == 27)
        #expect(try SecondOrderSections.butterworth(order: 3, .lowPass(30), sampleRate: 250).defaultPadLength == 12)
    }
}
