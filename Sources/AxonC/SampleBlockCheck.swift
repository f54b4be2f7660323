// AxonC — the checks every channel-major block from a caller passes before any of it is used.

/// Checks a caller's channel-major block of `count` frames, channel c's frame i at `samples[c × channelStride + i]`
/// (`channelStride` is `count` for a block of its own, or nil for that): `channels` must equal `expected` (else
/// `mismatch` is the message), `count` must not be negative nor above `channelStride`, `samples` must be given when
/// there are frames, and every value must be finite. Nothing is read but the block's `channels × count` values.
///
/// - Returns: the samples, or `nil` when `count` is 0 (nothing to do).
/// - Throws: ``CallFailure`` with `AXON_ERR_INVALID_ARGUMENT` naming `function`.
func checkedSampleBlock(
    _ samples: UnsafePointer<Double>?, channels: Int, count: Int, channelStride: Int? = nil, expected: Int,
    mismatch: @autoclosure () -> String, in function: String
) throws(CallFailure) -> UnsafePointer<Double>? {
    guard channels == expected else { throw .invalidArgument("\(function): \(mismatch())") }
    guard count >= 0 else { throw .invalidArgument("\(function): count is negative") }
    let stride = channelStride ?? count
    guard stride >= count else {
        throw .invalidArgument("\(function): channel_stride \(stride) is less than count \(count)")
    }
    guard count > 0 else { return nil }
    guard let samples else { throw .null("samples", in: function) }
    let (span, overflow) = stride.multipliedReportingOverflow(by: channels)
    guard !overflow, span < Int.max / MemoryLayout<Double>.stride else {
        throw .invalidArgument("\(function): count = \(count) frames is too many to address")
    }
    for channel in 0..<channels {
        let values = samples + channel * stride
        if !allFinite(values, count: count), let index = (0..<count).first(where: { !values[$0].isFinite }) {
            throw .invalidArgument(
                "\(function): sample \(index) of channel \(channel) is \(values[index]); every value must be finite")
        }
    }
    return samples
}

/// Whether all `count` values are finite, in one branch-free pass the compiler vectorises (a search that stops at
/// the first bad value does not, and cost a push as much as the engine's transforms). A double is NaN or infinite
/// exactly when its 11 exponent bits are all ones; adding one to the exponent field then carries into the sign bit,
/// and the OR of every such sum has its top bit set if any value was not finite.
private func allFinite(_ values: UnsafePointer<Double>, count: Int) -> Bool {
    let exponent: UInt64 = 0x7FF0_0000_0000_0000
    let exponentOne: UInt64 = 0x0010_0000_0000_0000
    var carried: UInt64 = 0
    for index in 0..<count { carried |= (values[index].bitPattern & exponent) &+ exponentOne }
    return carried >> 63 == 0
}
