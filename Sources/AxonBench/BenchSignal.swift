// AxonBench — the deterministic EEG-like signal every measurement feeds.

import Foundation

/// Ten seconds of EEG-like data, frame-major (`values[frame * channels + channel]`), replayed in a loop: a 10.3 Hz
/// alpha, a 5.1 Hz theta and a 19.7 Hz beta tone (phase shifted per channel), deterministic noise from a fixed
/// seed (a 64-bit LCG) and a 1000 µV offset, as an amplifier's DC level.
///
/// Ten seconds is a whole number of hops (one hop = one second), so a hop never straddles the loop's end.
///
/// Threading: immutable after `init`; read from any thread.
public final class BenchSignal: @unchecked Sendable {
    // Sendable invariant: `values` is written only in `init` and read afterwards.
    /// Channels per frame.
    public let channels: Int
    /// Frames in the loop.
    public let frames: Int
    /// The samples, frame-major.
    public let values: UnsafeMutableBufferPointer<Double>

    /// Generates ten seconds of the workload's device.
    public init(_ workload: BenchWorkload) {
        channels = workload.channels
        frames = workload.sampleRate * 10
        values = .allocate(capacity: frames * channels)
        let rate = Double(workload.sampleRate)
        var state: UInt64 = 12345
        for frame in 0..<frames {
            let t = Double(frame) / rate
            for channel in 0..<channels {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Double(state >> 11) * 0x1p-53 - 0.5
                values[frame * channels + channel] =
                    20 * sin(2 * .pi * 10.3 * t + Double(channel)) + 6 * sin(2 * .pi * 5.1 * t)
                    + 4 * sin(2 * .pi * 19.7 * t) + 8 * noise + 1000
            }
        }
    }

    deinit { values.deallocate() }

    /// The frame at a running sample index (wrapping at the loop's end).
    @inline(__always) public func frame(_ index: Int) -> UnsafeBufferPointer<Double> {
        let start = (index % frames) * channels
        return UnsafeBufferPointer(rebasing: values[start..<(start + channels)])
    }

    /// `count` consecutive frames from a running sample index; the range must not cross the loop's end.
    @inline(__always) public func rows(from index: Int, count: Int) -> UnsafeBufferPointer<Double> {
        let start = (index % frames) * channels
        precondition(index % frames + count <= frames)
        return UnsafeBufferPointer(rebasing: values[start..<(start + count * channels)])
    }
}
