/// How one channel of a recording is carried in an EDF+/BDF+ file: its physical range as the header writes it, the
/// size of one digital step, and what the data makes of them (RMS, extremes, samples outside the range).
///
/// ``EDFChannelPlan/plan(_:format:range:)`` chooses the ranges from the data (a first pass over the recording), so
/// the quantisation step is far below the signal; ``EDFConversion`` writes with them, and `axon convert` prints each
/// channel's step and RMS and refuses a lossy conversion.
///
/// Threading: a value type; share freely.
public struct EDFChannelPlan: Sendable, Hashable {
    /// Where a channel's range came from.
    public enum RangeSource: String, Sendable, Hashable {
        /// `--range`: the caller's range for every channel.
        case given
        /// The channel's declared range (``AxonStreams/ChannelInfo/range``): kept when the data fits it and its step
        /// passes.
        case declared
        /// The data's own minimum and maximum.
        case data
    }

    /// The largest step allowed, as a fraction of the channel's RMS (``rms``): 1 %. Rounding to such a step
    /// adds noise of step ÷ √12 ≈ 0.3 % of the RMS (−51 dB), far below any signal; a coarser step is a loss.
    public static let maximumStepFraction = 0.01

    /// The channel's label.
    public var label: String
    /// The channel's unit.
    public var unit: String
    /// The physical range as the header writes it (8-character fields, rounded outward).
    public var range: ClosedRange<Double>
    /// Where ``range`` came from.
    public var source: RangeSource
    /// The physical size of one digital step: range ÷ (2 × the format's digital maximum).
    public var step: Double
    /// The mean of the channel's finite values (0 when it has none).
    public var mean: Double
    /// The RMS of the channel's signal: each finite value minus the mean of the second of data around it (at
    /// least 5 samples) — its variation faster than about 1 Hz, so a DC offset or a slow drift of thousands of µV
    /// does not pass for signal; 0 for a flat channel.
    public var rms: Double
    /// The smallest and largest finite values (both 0 when there are none).
    public var minimum: Double
    /// See ``minimum``.
    public var maximum: Double
    /// Samples outside ``range`` (written as its ends) or NaN (written as the previous value).
    public var clipped: Int

    /// ``step`` ÷ ``rms``; 0 for a flat channel (a constant is carried within half a step whatever the step).
    public var stepFraction: Double { rms > 0 ? step / rms : 0 }

    /// Whether the step is coarser than ``maximumStepFraction`` of the RMS.
    public var isCoarse: Bool { stepFraction > Self.maximumStepFraction }

    /// Whether anything of the channel is lost: clipped (or NaN) samples, or a coarse step.
    public var isLossy: Bool { clipped > 0 || isCoarse }

    /// The RMS of one channel's values minus their centred moving mean over one second (at least 5 samples, at
    /// most all frames); non-finite values are held at the previous finite one. O(frames).
    static func fastRMS(_ recording: Recording, channel: Int) -> Double {
        let frames = recording.frameCount
        guard frames > 1 else { return 0 }
        let channels = recording.channelCount
        var held = [Double](repeating: 0, count: frames)
        var last = 0.0
        var seen = false
        recording.values.withUnsafeBufferPointer { values in
            for frame in 0..<frames {
                let value = values[frame * channels + channel]
                if value.isFinite {
                    last = value
                    if !seen {
                        // Values before the first finite one take its value.
                        for earlier in 0..<frame { held[earlier] = value }
                        seen = true
                    }
                }
                held[frame] = last
            }
        }
        // Prefix sums about the first value (keeps the sums small for channels with large offsets).
        let origin = held[0]
        var prefix = [Double](repeating: 0, count: frames + 1)
        for frame in 0..<frames { prefix[frame + 1] = prefix[frame] + (held[frame] - origin) }
        // One second, and at least 5 samples (a band-power stream at 1 Hz still has a mean to vary about).
        let half = min(frames / 2, max(2, Int(recording.sampleRate.rounded()) / 2))
        var sum = 0.0
        for frame in 0..<frames {
            let low = max(0, frame - half)
            let high = min(frames, frame + half + 1)
            let mean = (prefix[high] - prefix[low]) / Double(high - low)
            let residual = held[frame] - origin - mean
            sum += residual * residual
        }
        return (sum / Double(frames)).squareRoot()
    }

    /// Plans every channel of `recording` for `format`.
    ///
    /// - Parameters:
    ///   - range: one physical range for every channel (`--range`); `nil` chooses per channel: the declared range
    ///     when the data fits inside it and its step is at most ``maximumStepFraction`` of the RMS (a file keeps the
    ///     scale its device declared when that scale is fine enough), else the data's minimum…maximum widened by
    ///     0.01 % of the span on each side, so no sample sits on a digital limit (a flat channel gets its value ± 1,
    ///     or ± 0.1 % of it if larger).
    /// - Throws: ``EDFWriterError/invalidRange(channel:range:)`` when a range does not fit the header's 8 characters.
    /// - Complexity: O(frames × channels): per channel, one pass for the extremes, one for the RMS (with two arrays of
    ///   the channel's length), and one to count clipped samples only when the range does not hold the data.
    public static func plan(
        _ recording: Recording, format: EDFWriter.Format, range given: ClosedRange<Double>? = nil
    ) throws(EDFWriterError) -> [EDFChannelPlan] {
        let channels = recording.channelCount
        let digitalSpan = 2 * Double(format.digitalMaximum)
        var plans: [EDFChannelPlan] = []
        plans.reserveCapacity(channels)
        for (index, info) in recording.descriptor.channels.enumerated() {
            // One pass: count, mean, extremes, non-finite values.
            var count = 0.0
            var mean = 0.0
            var low = Double.infinity
            var high = -Double.infinity
            var nonFinite = 0
            recording.values.withUnsafeBufferPointer { values in
                var position = index
                while position < values.count {
                    let value = values[position]
                    position += channels
                    guard value.isFinite else {
                        nonFinite += 1
                        continue
                    }
                    count += 1
                    mean += (value - mean) / count
                    if value < low { low = value }
                    if value > high { high = value }
                }
            }
            if count == 0 {
                low = 0
                high = 0
                mean = 0
            }
            let rms = count > 0 ? fastRMS(recording, channel: index) : 0
            func written(_ wanted: ClosedRange<Double>) throws(EDFWriterError) -> ClosedRange<Double> {
                guard let lowText = EDFHeaderBuilder.field(wanted.lowerBound, roundingUp: false),
                    let highText = EDFHeaderBuilder.field(wanted.upperBound, roundingUp: true),
                    let lowValue = Double(lowText), let highValue = Double(highText), lowValue < highValue
                else { throw .invalidRange(channel: info.label, range: "\(wanted)") }
                return lowValue...highValue
            }
            var chosen: ClosedRange<Double>
            var source: RangeSource
            if let given {
                chosen = try written(given)
                source = .given
            } else {
                let dataRange: ClosedRange<Double>
                if high > low {
                    // A margin of 0.01 % of the span on each side keeps the extremes off the digital limits, which
                    // readers (EDFlib's users, Axon's own reader) take for a saturated amplifier.
                    let margin = (high - low) * 1e-4
                    dataRange = (low - margin)...(high + margin)
                } else {
                    let half = max(1, abs(low) * 1e-3)
                    dataRange = (low - half)...(low + half)
                }
                chosen = try written(dataRange)
                source = .data
                if let declared = info.range, let declaredRange = try? written(declared),
                    declaredRange.lowerBound <= low, declaredRange.upperBound >= high
                {
                    let step = (declaredRange.upperBound - declaredRange.lowerBound) / digitalSpan
                    if rms == 0 || step <= maximumStepFraction * rms {
                        chosen = declaredRange
                        source = .declared
                    }
                }
            }
            let step = (chosen.upperBound - chosen.lowerBound) / digitalSpan
            // Clipped as the writer clips: a value whose digital value, rounded, falls outside the digital range
            // (a value a hair beyond the 8-character range that rounds onto its end is not clipped).
            var clipped = nonFinite
            let gain = digitalSpan / (chosen.upperBound - chosen.lowerBound)
            let offset = -Double(format.digitalMaximum) - chosen.lowerBound * gain
            let limit = Double(format.digitalMaximum)
            func outside(_ value: Double) -> Bool {
                let digital = (value * gain + offset).rounded()
                return digital < -limit || digital > limit
            }
            if count > 0, outside(low) || outside(high) {
                recording.values.withUnsafeBufferPointer { values in
                    var position = index
                    while position < values.count {
                        let value = values[position]
                        if value.isFinite, outside(value) { clipped += 1 }
                        position += channels
                    }
                }
            }
            plans.append(
                EDFChannelPlan(
                    label: info.label, unit: info.unit, range: chosen, source: source, step: step, mean: mean,
                    rms: rms, minimum: low, maximum: high, clipped: clipped))
        }
        return plans
    }
}
