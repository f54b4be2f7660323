/// Finds LSL streams on the network liblsl's configuration reaches (this machine with the project's
/// `lsl_api.cfg`; see docs/lsl.md).
///
///     for stream in try LSLResolver.list(timeout: 1) { print(stream.name, stream.nominalRate) }
///
/// Threading: stateless; any thread. Each call blocks for up to its timeout.
public enum LSLResolver {
    /// Every stream that answers within `timeout` seconds, sorted by name then source id.
    ///
    /// - Throws: ``LSLError`` when liblsl cannot be loaded or the resolve call fails.
    public static func list(timeout: Double = 1, library: LSLLibrary? = nil) throws(LSLError) -> [LSLStreamInfo] {
        let lsl = try LSLLibrary.given(library)
        let handles = try resolveAll(timeout: timeout, library: lsl)
        defer { for handle in handles { lsl.api.destroyStreamInfo(handle) } }
        var streams: [LSLStreamInfo] = []
        for handle in handles { streams.append(try LSLStreamInfo(handle: handle, library: lsl)) }
        return streams.sorted { ($0.name, $0.sourceID) < ($1.name, $1.sourceID) }
    }

    /// The info handles of the streams matching `selector` (the caller destroys them), waiting up to `timeout`
    /// seconds for at least one.
    ///
    /// - Throws: ``LSLError/streamNotFound(selector:timeout:)`` when none answers.
    static func resolve(
        _ selector: LSLStreamSelector, timeout: Double, library lsl: LSLLibrary
    ) throws(LSLError) -> [UnsafeMutableRawPointer] {
        var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
        let count = buffer.withUnsafeMutableBufferPointer { slots in
            lsl.api.resolveByProperty(
                slots.baseAddress!, UInt32(slots.count), selector.property, selector.value, 1, timeout)
        }
        try lsl.check(count, "lsl_resolve_byprop")
        let handles = buffer.prefix(Int(count)).compactMap { $0 }
        guard !handles.isEmpty else { throw .streamNotFound(selector: selector.description, timeout: timeout) }
        return handles
    }

    /// The info handles of every stream that answers within `timeout` seconds (the caller destroys them).
    static func resolveAll(timeout: Double, library lsl: LSLLibrary) throws(LSLError)
        -> [UnsafeMutableRawPointer]
    {
        var buffer = [UnsafeMutableRawPointer?](repeating: nil, count: 256)
        let count = buffer.withUnsafeMutableBufferPointer { slots in
            lsl.api.resolveAll(slots.baseAddress!, UInt32(slots.count), timeout)
        }
        try lsl.check(count, "lsl_resolve_all")
        return buffer.prefix(Int(count)).compactMap { $0 }
    }
}
