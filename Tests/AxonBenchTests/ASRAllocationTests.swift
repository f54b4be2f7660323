// The ASR stage's steady state, calibration included, allocates nothing: counted by the malloc interposer.

import AxonBench
import AxonDSP
import AxonEEG
import Foundation
import Testing

@testable import AxonStreams

@Suite("ASR stage allocations")
struct ASRAllocationTests {
    static let channels = 8
    static let blockFrames = 250

    /// Eight mixed noise channels with a DC offset; from frame 1500 on, every other second holds a 0.4-s burst of
    /// 30× the noise on two channels, so the repair path (pseudo-inverse, blending) runs.
    static func signal(frames: Int) -> [Double] {
        var state: UInt64 = 7
        var values = [Double](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(state >> 11) * 0x1p-53 - 0.5
                values[frame * channels + channel] = 10 * noise + 3 * sin(Double(frame) * 0.26 + Double(channel)) + 800
            }
            if frame >= 1500, frame % 500 < 100 {
                values[frame * channels + 1] += 300 * sin(Double(frame) * 0.1)
                values[frame * channels + 5] += 200 * sin(Double(frame) * 0.1)
            }
        }
        return values
    }

    @Test(
        "high-pass, calibration on the first 4 s and cleaning allocate 0 times per block",
        .enabled(if: AllocationCounter.isEnabled))
    func steadyStateAllocatesNothing() throws {
        let frames = 20 * Self.blockFrames
        let data = Self.signal(frames: frames)
        let descriptor = StreamDescriptor(
            name: "asr", contentType: .eeg,
            channels: (0..<Self.channels).map { ChannelInfo(label: "ch\($0)", unit: "µV") },
            nominalRate: 250, format: .float32, sourceID: "test")
        // The stage runs on this thread, so this thread's own count is exact while other tests allocate; three runs
        // also cover a stage opened after another has been closed.
        var most: UInt64 = 0
        var repairs = 0
        for _ in 0..<3 {
            let stage = ASRStage(calibration: .firstSeconds(4))
            try stage.open(descriptor)
            let block = SampleBlock(layout: FrameLayout(channelCount: Self.channels), capacity: Self.blockFrames)
            var allocations: UInt64 = 0
            for first in stride(from: 0, to: frames, by: Self.blockFrames) {
                block.reset(frameCount: Self.blockFrames)
                for frame in 0..<Self.blockFrames {
                    let values = block.values(ofFrame: frame)
                    for channel in 0..<Self.channels {
                        values[channel] = data[(first + frame) * Self.channels + channel]
                    }
                }
                let before = AllocationCounter.threadCount
                stage.process(block)
                allocations += AllocationCounter.threadCount &- before
            }
            #expect(stage.isCalibrated)
            repairs = stage.reconstructor?.repairCount ?? 0
            stage.close()
            most = max(most, allocations)
        }
        #expect(repairs > 0)
        #expect(most == 0, "the ASR stage allocated \(most) times over \(frames / Self.blockFrames) blocks")
    }

    @Test(
        "the thread counter sees this thread's allocations and not another thread's",
        .enabled(if: AllocationCounter.isEnabled))
    func threadCounterIsPerThread() {
        var kept = 0
        let before = AllocationCounter.threadCount
        for index in 0..<1000 {
            let block = UnsafeMutablePointer<Int>.allocate(capacity: 16 + index % 5)
            block.initialize(to: index)
            kept &+= block.pointee
            block.deallocate()
        }
        let own = AllocationCounter.threadCount &- before
        let start = AllocationCounter.threadCount
        let done = DispatchSemaphore(value: 0)
        let worker = Thread {
            for index in 0..<10_000 {
                let block = UnsafeMutablePointer<Int>.allocate(capacity: 16 + index % 5)
                block.deallocate()
            }
            done.signal()
        }
        worker.start()
        done.wait()
        let other = AllocationCounter.threadCount &- start
        #expect(kept == 499_500)
        #expect(own >= 1000)
        // Creating and starting the thread allocates a little here; its 10,000 allocations are not counted here.
        #expect(other < 100, "this thread's count rose by \(other) while another thread allocated 10,000 times")
    }
}
