// AxonC — the checks every channel-major block from a caller passes before any of it is used.

/// Checks a caller's channel-major block of `count` frames: `channels` must equal `expected` (else `mismatch` is the
/// message), `count` must not be negative, `samples` must be given when there are frames, and every value must be
/// finite. Nothing is read past `channels × count` values.
///
/// - Returns: the samples, or `nil` when `count` is 0 (nothing to do).
/// - Throws: ``CallFailure`` with `AXON_ERR_INVALID_ARGUMENT` naming `function`.
func checkedSampleBlock(
    _ samples: UnsafePointer<Double>?, channels: Int, count: Int, expected: Int, mismatch: @autoclosure () -> String,
    in function: String
) throws(CallFailure) -> UnsafePointer<Double>? {
    guard channels == expected else { throw .invalidArgument("\(function): \(mismatch())") }
    guard count >= 0 else { throw .invalidArgument("\(function): count is negative") }
    guard count > 0 else { return nil }
    guard let samples else { throw .null("samples", in: function) }
    let (values, overflow) = channels.multipliedReportingOverflow(by: count)
    guard !overflow else { throw .invalidArgument("\(function): count = \(count) frames is too many to address") }
    for index in 0..<values where !samples[index].isFinite {
        throw .invalidArgument(
            "\(function): sample \(index % count) of channel \(index / count) is \(samples[index]); every value "
                + "must be finite")
    }
    return samples
}
