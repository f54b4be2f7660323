// AxonC — channel labels given as a C array of strings, as the engine and writer configs take them.

/// `count` labels from a C array of UTF-8 strings, or `ch1` … `chN` for a NULL array.
///
/// - Throws: `AXON_ERR_INVALID_ARGUMENT` for a NULL entry or one that is not UTF-8, naming its index.
func channelLabels(
    _ array: UnsafePointer<UnsafePointer<CChar>?>?, count: Int, in function: String
) throws(CallFailure) -> [String] {
    guard let array else { return (1...count).map { "ch\($0)" } }
    var labels: [String] = []
    labels.reserveCapacity(count)
    for index in 0..<count {
        guard let label = array[index] else { throw .invalidArgument("\(function): channel_labels[\(index)] is NULL") }
        guard let text = String(validatingCString: label) else {
            throw .invalidArgument("\(function): channel_labels[\(index)] is not UTF-8")
        }
        labels.append(text)
    }
    return labels
}
