// The causal SOS filter's per-block work, priming and reset included, allocates nothing: counted by the malloc
// interposer.

import AxonBench
import AxonDSP
import Foundation
import Testing

@Suite("SOS filter allocations")
struct FilterAllocationTests {
    @Test(
        "a band-pass and harmonic notch cascade on 8 channels allocates 0 times over 40 blocks",
        .enabled(if: AllocationCounter.isEnabled))
    func blocksAllocateNothing() throws {
        let channels = 8
        let blockFrames = 250
        let design = try SecondOrderSections.butterworth(order: 4, .bandPass(1, 40), sampleRate: 250)
            .cascaded(with: .notch(at: 50, harmonics: true, sampleRate: 250))
        let filter = try SOSFilter(design, channelCount: channels)
        // One frame header lane after the channels, as the engine's frames have.
        let stride = channels + 1
        let block = UnsafeMutablePointer<Double>.allocate(capacity: blockFrames * stride)
        defer { block.deallocate() }
        var checksum = 0.0
        var allocations: UInt64 = 0
        for index in 0..<40 {
            for frame in 0..<blockFrames {
                let time = Double(index * blockFrames + frame) / 250
                for channel in 0...channels {
                    block[frame * stride + channel] = 20_000 + 15 * sin(2 * Double.pi * 10 * time + Double(channel))
                }
            }
            if index == 20 { block[3] = .nan }
            // The thread's own count: other tests allocating on other threads do not show up here.
            let before = AllocationCounter.threadCount
            if index == 30 { filter.reset() }
            filter.filter(block, frameCount: blockFrames, stride: stride)
            allocations += AllocationCounter.threadCount &- before
            checksum += block[(blockFrames - 1) * stride]
        }
        #expect(filter.heldValues == 1)
        #expect(checksum.isFinite)
        #expect(allocations == 0, "the SOS filter allocated \(allocations) times over 40 blocks")
    }
}
