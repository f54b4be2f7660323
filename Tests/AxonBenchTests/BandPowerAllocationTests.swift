// Band powers computed from the engine's spectrum frame, in place, allocate nothing: counted by the malloc
// interposer.

import AxonBench
import AxonDSP
import AxonEEG
import Foundation
import Testing

@Suite("band power allocations")
struct BandPowerAllocationTests {
    @Test(
        "computing 5 band powers of 8 channels from 40 engine frames allocates 0 times",
        .enabled(if: AllocationCounter.isEnabled))
    func framesAllocateNothing() throws {
        let labels = (0..<8).map { "EXG\($0)" }
        let configuration = EEGEngine.Configuration(channelLabels: labels, rigor: .estimate)
        let engine = try EEGEngine(configuration)
        var powers = try BandPowers(bands: .standard, configuration: configuration)
        var values = [Double](repeating: 0, count: labels.count)
        var allocations: UInt64 = 0
        var frames = 0
        var alpha = 0.0
        for n in 0..<(41 * 250) {
            let t = Double(n) / 250
            for channel in values.indices { values[channel] = 10 * sin(2 * .pi * 10 * t + Double(channel)) }
            guard engine.ingest(values, time: 1_700_000_000 + t).contains(.spectrum) else { continue }
            // The thread's own count: other tests allocating on other threads do not show up here.
            let before = AllocationCounter.threadCount
            engine.withSpectrum { powers.compute(from: $0) }
            allocations += AllocationCounter.threadCount &- before
            frames += 1
            alpha = powers.absolute(channel: 7, band: 2)
        }
        #expect(frames == 40)
        #expect(abs(alpha - 50) < 0.25, "alpha \(alpha) µV²")
        #expect(allocations == 0, "band powers allocated \(allocations) times over \(frames) frames")
    }
}
