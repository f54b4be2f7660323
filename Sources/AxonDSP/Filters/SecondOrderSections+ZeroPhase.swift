// AxonDSP — forward-backward (zero-phase) filtering of a whole recording, for files rather than live streams.

extension SecondOrderSections {
    /// The padding ``zeroPhaseFiltered(_:padLength:)`` uses by default: three times the cascade's number of taps,
    /// `3 · (2·sections + 1)`, less one tap per first-order section (SciPy's `sosfiltfilt` rule).
    public var defaultPadLength: Int {
        let firstOrderNumerators = sections.count(where: { $0.b2 == 0 })
        let firstOrderDenominators = sections.count(where: { $0.a2 == 0 })
        return 3 * (2 * sections.count + 1 - min(firstOrderNumerators, firstOrderDenominators))
    }

    /// One channel filtered forward and then backward, so the result has no phase shift and the magnitude response
    /// squared (twice the attenuation in decibels); the same as SciPy's `sosfiltfilt(sos, signal)`.
    ///
    /// The signal is first extended at both ends by `padLength` samples of its odd reflection about the end values
    /// (`2·x[0] − x[k]`), which continues its level and slope; each pass starts from ``unitStepState`` times its first
    /// input, as if that value had always been the input; the padding is cut off at the end. This looks at the future,
    /// so it is for recordings, not live streams (use ``SOSFilter`` there).
    ///
    /// Threading: reads only this value; any thread.
    ///
    /// - Parameters:
    ///   - signal: one channel's samples, all finite.
    ///   - padLength: samples of reflection at each end; ``defaultPadLength`` if `nil`, none if 0.
    /// - Returns: the filtered samples, as many as `signal` has.
    /// - Throws: ``DSPError/insufficientData(count:minimum:)`` unless the signal is longer than the padding;
    ///   ``DSPError/nonFiniteData(count:)`` if it holds NaN or infinite values;
    ///   ``DSPError/invalidParameter(name:value:requirement:)`` for a negative `padLength`.
    /// - Complexity: O(samples · sections); allocates the padded copy.
    public func zeroPhaseFiltered(_ signal: [Double], padLength: Int? = nil) throws(DSPError) -> [Double] {
        let pad = padLength ?? defaultPadLength
        guard pad >= 0 else {
            throw .invalidParameter(name: "pad length", value: Double(pad), requirement: "it must not be negative")
        }
        let count = signal.count
        guard count > pad, count > 0 else { throw .insufficientData(count: count, minimum: max(pad + 1, 1)) }
        let nonFinite = signal.count(where: { !$0.isFinite })
        guard nonFinite == 0 else { throw .nonFiniteData(count: nonFinite) }

        var extended = [Double](repeating: 0, count: count + 2 * pad)
        let (first, last) = (signal[0], signal[count - 1])
        for k in 0..<pad {
            extended[pad - 1 - k] = 2 * first - signal[k + 1]
            extended[pad + count + k] = 2 * last - signal[count - 2 - k]
        }
        for index in 0..<count { extended[pad + index] = signal[index] }

        let step = unitStepState
        var state = [Double](repeating: 0, count: step.count)
        extended.withUnsafeMutableBufferPointer { values in
            state.withUnsafeMutableBufferPointer { state in
                // Forward, then backward over the forward output, each from its own first value's steady state.
                for backward in [false, true] {
                    let start = backward ? values[values.count - 1] : values[0]
                    for index in 0..<state.count { state[index] = step[index] * start }
                    for offset in 0..<values.count {
                        let index = backward ? values.count - 1 - offset : offset
                        values[index] = runCascade(values[index], state.baseAddress!)
                    }
                }
            }
        }
        return Array(extended[pad..<(pad + count)])
    }

    /// One input through every section in transposed direct form II, with `state` two values per section.
    @inline(__always)
    private func runCascade(_ input: Double, _ state: UnsafeMutablePointer<Double>) -> Double {
        var x = input
        for (index, section) in sections.enumerated() {
            let y = section.b0 * x + state[2 * index]
            state[2 * index] = section.b1 * x - section.a1 * y + state[2 * index + 1]
            state[2 * index + 1] = section.b2 * x - section.a2 * y
            x = y
        }
        return x
    }
}
