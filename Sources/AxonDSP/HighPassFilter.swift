// AxonDSP — a second-order Butterworth high-pass per channel, for removing DC offsets and drift in real time.

import AxonMemory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A second-order Butterworth high-pass filter applied to every channel of a frame, in place.
///
/// The coefficients come from the bilinear transform of the analogue prototype (quality factor `1/√2`, so the
/// response is maximally flat and −3 dB at ``cutoff``); each channel runs its own transposed direct-form II state.
/// EEG amplifiers carry DC offsets of tens of millivolts, which a filter starting from rest would turn into a long
/// decaying transient, so the state of each channel is *primed* on the first frame after init or ``reset()``: as if
/// that frame's value had been constant forever, which makes the first output exactly zero.
///
/// A value that is NaN or infinite would poison the recursive state for good: it is replaced by the channel's
/// previous input (held) and counted in ``heldValues``.
///
/// Threading: a single-owner type (it owns mutable state); one thread at a time. Not `Sendable`.
///
///     let highPass = try HighPassFilter(channelCount: 8, cutoff: 0.5, sampleRate: 250)
///     highPass.filter(frame)   // frame: 8 values, replaced by their high-passed values
/// - Complexity: ``filter(_:)`` is O(channels), about five multiply-adds per value; no allocation.
public final class HighPassFilter {
    /// Channels per frame.
    public let channelCount: Int
    /// The −3 dB frequency in hertz.
    public let cutoff: Double
    /// Frames per second.
    public let sampleRate: Double
    /// Non-finite inputs replaced by the channel's previous input since init.
    public private(set) var heldValues = 0

    private let b0: Double
    private let b1: Double
    private let b2: Double
    private let a1: Double
    private let a2: Double
    /// Per channel: the two state variables and the last finite input.
    private let state: OwnedBuffer<Double>
    private var primed = false

    /// Creates the filter.
    ///
    /// - Throws: ``DSPError/invalidSampleRate(_:)`` unless the rate is finite and positive;
    ///   ``DSPError/invalidParameter(name:value:requirement:)`` unless `0 < cutoff < sampleRate / 2`;
    ///   ``DSPError/invalidSize(size:minimum:)`` if `channelCount < 1`.
    public init(channelCount: Int, cutoff: Double, sampleRate: Double) throws(DSPError) {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard cutoff.isFinite, cutoff > 0, cutoff < sampleRate / 2 else {
            throw .invalidParameter(name: "high-pass cutoff", value: cutoff, requirement: "it must lie in (0, rate/2)")
        }
        guard channelCount >= 1 else { throw .invalidSize(size: channelCount, minimum: 1) }
        let w0 = 2 * Double.pi * cutoff / sampleRate
        let alpha = sin(w0) / (2 * (0.5).squareRoot())
        let cosine = cos(w0)
        let a0 = 1 + alpha
        self.b0 = (1 + cosine) / 2 / a0
        self.b1 = -(1 + cosine) / a0
        self.b2 = (1 + cosine) / 2 / a0
        self.a1 = -2 * cosine / a0
        self.a2 = (1 - alpha) / a0
        self.channelCount = channelCount
        self.cutoff = cutoff
        self.sampleRate = sampleRate
        state = OwnedBuffer(repeating: 0, count: 3 * channelCount)
    }

    /// Forgets the past: the next frame primes every channel again (use after a gap in the data).
    public func reset() { primed = false }

    /// Filters one frame of ``channelCount`` values in place.
    ///
    /// - Complexity: O(channels); no allocation.
    @inline(__always)
    public func filter(_ frame: UnsafeMutablePointer<Double>) {
        if !primed {
            for channel in 0..<channelCount {
                let x = frame[channel].isFinite ? frame[channel] : 0
                // Constant input x forever: y = 0, z2 = b2·x, z1 = (b1 + b2)·x.
                state[3 * channel] = (b1 + b2) * x
                state[3 * channel + 1] = b2 * x
                state[3 * channel + 2] = x
            }
            primed = true
        }
        for channel in 0..<channelCount {
            var x = frame[channel]
            if x.isFinite {
                state[3 * channel + 2] = x
            } else {
                x = state[3 * channel + 2]
                heldValues += 1
            }
            let z1 = state[3 * channel]
            let z2 = state[3 * channel + 1]
            let y = b0 * x + z1
            state[3 * channel] = b1 * x - a1 * y + z2
            state[3 * channel + 1] = b2 * x - a2 * y
            frame[channel] = y
        }
    }
}

/// `HighPassFilter` owns recursive state that every call updates: it is never `Sendable`.
@available(*, unavailable)
extension HighPassFilter: Sendable {}
