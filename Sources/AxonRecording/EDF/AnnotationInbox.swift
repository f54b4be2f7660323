import AxonStreams

/// Annotations submitted from any thread for a sink that runs on a pipeline's consumer thread: a lock-free ring of
/// fixed-size slots whose producer side is guarded by a mutex.
///
/// Submitters (a UI, the EEG indicator delivery thread, a signal handler's thread) take the mutex only to fill one
/// slot; the consumer (the real-time thread) pops without any lock or allocation. A slot holds the onset (file
/// seconds or Unix time), the duration and up to ``textCapacity`` bytes of UTF-8 text (longer texts are cut at a
/// character boundary). A full ring rejects the annotation and counts it (``rejectedCount``).
///
/// Threading contract: `submit` from any thread; `drain` from the one consumer thread.
public final class AnnotationInbox: Sendable {
    /// Bytes of text a slot holds.
    public let textCapacity: Int
    private let ring: SPSCRing<UInt8>
    private let producer = ThreadLocked<Void>(())

    private static let headerBytes = 19  // onset 8, duration 8, unix flag 1, length 2

    /// Creates an inbox with `capacity` slots (rounded up to a power of two) of `textCapacity` text bytes each.
    public init(capacity: Int = 256, textCapacity: Int = 237) {
        precondition(capacity >= 1 && (1...65_535).contains(textCapacity))
        self.textCapacity = textCapacity
        ring = SPSCRing(
            capacity: SPSCRing<UInt8>.powerOfTwo(atLeast: capacity), width: Self.headerBytes + textCapacity,
            overflow: .rejectNewest)
    }

    /// Slot width in bytes (the size of the consumer's scratch buffer).
    public var slotSize: Int { ring.width }

    /// Annotations rejected because the inbox was full.
    public var rejectedCount: Int { ring.droppedCount }

    /// Queues an annotation; `unixTime` says whether `onset` is a Unix time or seconds from the first sample.
    ///
    /// - Returns: `false` if the inbox is full (the consumer is not draining it).
    @discardableResult
    public func submit(onset: Double, unixTime: Bool, duration: Double?, text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            var length = min(utf8.count, textCapacity)
            if length < utf8.count {
                while length > 0, utf8[length] & 0xC0 == 0x80 { length -= 1 }
            }
            return producer.withLock { _ in
                ring.pushSlot { slot in
                    let raw = UnsafeMutableRawBufferPointer(slot)
                    raw.storeBytes(of: onset, toByteOffset: 0, as: Double.self)
                    raw.storeBytes(of: duration ?? -1, toByteOffset: 8, as: Double.self)
                    raw[16] = unixTime ? 1 : 0
                    raw.storeBytes(of: UInt16(length), toByteOffset: 17, as: UInt16.self)
                    for index in 0..<length { raw[Self.headerBytes + index] = utf8[index] }
                    for index in length..<textCapacity { raw[Self.headerBytes + index] = 0 }
                }
            }
        }
    }

    /// Pops every waiting annotation into `scratch` (``slotSize`` bytes) and hands each to `body` as
    /// (onset, is Unix time, duration or nil, UTF-8 text valid during the call). Consumer thread only; allocates
    /// nothing.
    public func drain(
        using scratch: UnsafeMutableBufferPointer<UInt8>,
        _ body: (Double, Bool, Double?, UnsafeRawBufferPointer) -> Void
    ) {
        while ring.pop(into: scratch) == 1 {
            let raw = UnsafeRawBufferPointer(scratch)
            let onset = raw.loadUnaligned(fromByteOffset: 0, as: Double.self)
            let duration = raw.loadUnaligned(fromByteOffset: 8, as: Double.self)
            let length = Int(raw.loadUnaligned(fromByteOffset: 17, as: UInt16.self))
            body(onset, raw[16] == 1, duration >= 0 ? duration : nil,
                 UnsafeRawBufferPointer(rebasing: raw[Self.headerBytes..<(Self.headerBytes + length)]))
        }
    }
}
