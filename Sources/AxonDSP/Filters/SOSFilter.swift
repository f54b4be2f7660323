// AxonDSP — a causal second-order-sections filter run per channel on interleaved frames, in place, block by block.

import AxonMemory

/// A ``SecondOrderSections`` design applied causally to every channel of interleaved frames, in place, with each
/// channel's state carried from one block to the next: filtering a recording block by block gives exactly the values
/// of filtering it in one go.
///
/// Each channel runs the cascade in transposed direct form II. EEG amplifiers carry DC offsets of tens of millivolts,
/// which a filter starting from rest would turn into a long ringing transient, so each channel's state is *primed* on
/// the first frame after init or ``reset()``: set to the design's ``SecondOrderSections/unitStepState`` times that
/// frame's value, as if the value had been the input forever. The filter then starts at its settled output for that
/// level: 0 for a high- or band-pass, the level itself for a low-pass or a notch.
///
/// A value that is NaN or infinite would poison the recursive state for good: it is replaced by the channel's
/// previous input (held) and counted in ``heldValues``.
///
/// Threading: a single-owner type (it owns mutable state); one thread at a time. Not `Sendable`.
///
///     let design = try SecondOrderSections.butterworth(order: 4, .bandPass(1, 40), sampleRate: 250)
///         .cascaded(with: .notch(at: 50, harmonics: true, sampleRate: 250))
///     let filter = try SOSFilter(design, channelCount: 8)
///     filter.filter(frames, frameCount: 250, stride: 8)   // 250 interleaved frames of 8 values, filtered in place
/// - Complexity: O(channels · sections) per frame, five multiply-adds per section and value; no allocation.
public final class SOSFilter {
    /// The design every channel runs.
    public let design: SecondOrderSections
    /// Channels per frame.
    public let channelCount: Int
    /// Non-finite inputs replaced by the channel's previous input since init.
    public private(set) var heldValues = 0

    private let sectionCount: Int
    /// Per section: b0, b1, b2, a1, a2.
    private let coefficients: OwnedBuffer<Double>
    /// Per section: the two state values of a unit step input (the design's ``SecondOrderSections/unitStepState``).
    private let step: OwnedBuffer<Double>
    /// Per channel: two state values per section, then the last finite input.
    private let state: OwnedBuffer<Double>
    private let lanes: Int
    private var primed = false

    /// Creates the filter for frames of `channelCount` values.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` if `channelCount < 1`.
    public init(_ design: SecondOrderSections, channelCount: Int) throws(DSPError) {
        guard channelCount >= 1 else { throw .invalidSize(size: channelCount, minimum: 1) }
        self.design = design
        self.channelCount = channelCount
        sectionCount = design.sections.count
        coefficients = OwnedBuffer(
            copying: design.sections.flatMap { [$0.b0, $0.b1, $0.b2, $0.a1, $0.a2] })
        step = OwnedBuffer(copying: design.unitStepState.prefix(2 * sectionCount))
        lanes = 2 * sectionCount + 1
        state = OwnedBuffer(repeating: 0, count: lanes * channelCount)
    }

    /// Forgets the past: the next frame primes every channel again (use after a gap in the data).
    public func reset() { primed = false }

    /// Filters one frame of ``channelCount`` values in place.
    ///
    /// - Complexity: O(channels · sections); no allocation.
    public func filter(_ frame: UnsafeMutablePointer<Double>) {
        filter(frame, frameCount: 1, stride: channelCount)
    }

    /// Filters `frameCount` frames in place; frame `f`'s values start at `frames + f · stride` (a stride above
    /// ``channelCount`` skips values that are not channels, such as per-frame headers).
    ///
    /// - Precondition: `frameCount ≥ 0` and `stride ≥ channelCount`.
    /// - Complexity: O(frames · channels · sections); no allocation.
    public func filter(_ frames: UnsafeMutablePointer<Double>, frameCount: Int, stride: Int) {
        precondition(frameCount >= 0 && stride >= channelCount, "frameCount \(frameCount), stride \(stride)")
        guard frameCount > 0 else { return }
        if !primed {
            prime(frames)
            primed = true
        }
        for frame in 0..<frameCount {
            let values = frames + frame * stride
            for channel in 0..<channelCount {
                let channelState = lanes * channel
                var x = values[channel]
                if x.isFinite {
                    state[channelState + lanes - 1] = x
                } else {
                    x = state[channelState + lanes - 1]
                    heldValues += 1
                }
                for section in 0..<sectionCount {
                    let c = 5 * section
                    let z = channelState + 2 * section
                    let y = coefficients[c] * x + state[z]
                    state[z] = coefficients[c + 1] * x - coefficients[c + 3] * y + state[z + 1]
                    state[z + 1] = coefficients[c + 2] * x - coefficients[c + 4] * y
                    x = y
                }
                values[channel] = x
            }
        }
    }

    /// Each channel's state as if the frame's value (0 if it is not finite) had always been the input.
    private func prime(_ frame: UnsafeMutablePointer<Double>) {
        for channel in 0..<channelCount {
            let x = frame[channel].isFinite ? frame[channel] : 0
            let channelState = lanes * channel
            for index in 0..<(2 * sectionCount) { state[channelState + index] = step[index] * x }
            state[channelState + lanes - 1] = x
        }
    }
}

/// `SOSFilter` owns recursive state that every call updates: it is never `Sendable`.
@available(*, unavailable)
extension SOSFilter: Sendable {}
