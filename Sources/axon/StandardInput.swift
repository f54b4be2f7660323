import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// Calls `body` with each line typed on standard input until it ends, reading the descriptor directly.
///
/// Not `readLine`: it holds stdin's stdio lock while it waits, and `fflush(nil)` (which progress printing uses to
/// reach a pipe at once) takes every stream's lock, stdin's included, so the two would deadlock whenever standard
/// input is an open terminal or pipe.
func forEachInputLine(_ body: (String) -> Void) {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        // End of input or a failed read both end the lines.
        let read = try? SystemCall.retrying("read") {
            buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
        }
        let count = read ?? 0
        guard count > 0 else { break }
        pending.append(contentsOf: buffer[0..<count])
        while let newline = pending.firstIndex(of: 10) {
            body(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
    }
    if !pending.isEmpty { body(String(decoding: pending, as: UTF8.self)) }
}
