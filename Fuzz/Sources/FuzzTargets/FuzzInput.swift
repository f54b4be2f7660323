/// How a fuzz input is cut into the packets a stateful decoder sees one after another.
///
/// A transport hands a decoder one notification (or one serial read) at a time, and the decoders keep state across
/// them (order numbers, packet indices, a reference sample, a framing buffer). So a fuzz input for them is a
/// sequence of *chunks*: one length byte `n`, then `n` bytes (fewer if the input ends first). libFuzzer mutates the
/// lengths and contents alike; the seed corpora are written in the same framing (``frame(_:)``).
public struct FuzzChunks: Sequence, IteratorProtocol {
    private let bytes: [UInt8]
    private var offset: Int

    /// Chunks of `bytes` from `offset` on.
    public init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next chunk, `nil` at the end of the input.
    public mutating func next() -> [UInt8]? {
        guard offset < bytes.count else { return nil }
        let length = Int(bytes[offset])
        let start = offset + 1
        let end = Swift.min(bytes.count, start + length)
        offset = end
        return Array(bytes[start..<end])
    }

    /// The framing of `chunks` (each at most 255 bytes; longer ones are a programmer error).
    public static func frame(_ chunks: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for chunk in chunks {
            precondition(chunk.count <= 255, "a fuzz chunk holds at most 255 bytes")
            out.append(UInt8(chunk.count))
            out += chunk
        }
        return out
    }
}

/// Stops the fuzzer on a broken invariant: libFuzzer records the input as a crash.
///
/// A plain `precondition` would be dropped from `-Ounchecked` builds and says nothing about which target broke;
/// this always checks and names the target and the rule.
@inline(__always)
func require(_ condition: @autoclosure () -> Bool, _ target: FuzzTarget, _ rule: @autoclosure () -> String) {
    if !condition() { fatalError("axon-fuzz \(target.rawValue): invariant broken: \(rule())") }
}
