/// Finds the packets of an iHealth HS3's serial stream (``HS3SerialPacket``) in bytes as they arrive, in any
/// split: a packet cut between two reads is completed by the next, bytes that are not a packet are skipped and
/// counted, and a weight packet whose weight is not BCD is taken for a false start — the search resumes one byte
/// after its first byte, so a real packet that began inside it is still found.
///
///     var decoder = HS3SerialDecoder()
///     decoder.feed([0xA0, 0x09, 0xA6, 0x28, 0, 0]) { _ in }            // nothing yet: the packet is split
///     decoder.feed([0, 0, 0, 0x08, 0x15]) { print($0.kilograms!) }    // 81.5
///
/// Threading: a value type with one owner (the transport's delivery thread). Holds at most one packet's bytes.
public struct HS3SerialDecoder: Sendable {
    /// What was seen so far.
    public private(set) var statistics = HS3SerialStatistics()
    /// Bytes of a packet that has begun but is not complete.
    private var pending: [UInt8] = []

    /// Starts with nothing pending.
    public init() {}

    /// Decodes `bytes`, calling `emit` for each complete packet in order. Bytes of an incomplete packet at the
    /// end are kept for the next call.
    public mutating func feed(_ bytes: [UInt8], emit: (HS3SerialPacket) -> Void) {
        statistics.bytes += bytes.count
        pending.append(contentsOf: bytes)
        var start = 0
        scan: while start < pending.count {
            // Skip to the next possible leader.
            guard let leader = pending[start...].firstIndex(of: HS3SerialPacket.leader[0]) else {
                statistics.skippedBytes += pending.count - start
                start = pending.count
                break
            }
            statistics.skippedBytes += leader - start
            start = leader
            let available = pending.count - start
            // Compare what is here of the leader and the kind; an incomplete prefix waits for more bytes.
            for offset in 1..<min(available, 3) where pending[start + offset] != HS3SerialPacket.leader[offset] {
                statistics.skippedBytes += 1
                start += 1
                continue scan
            }
            guard available >= 4 else { break }
            switch pending[start + 3] {
            case HS3SerialPacket.timeKind:
                statistics.timePackets += 1
                emit(.time)
                start += 4
            case HS3SerialPacket.weightKind:
                guard available >= HS3SerialPacket.weightPacketLength else { break scan }
                let end = start + HS3SerialPacket.weightPacketLength
                guard let tenths = HS3SerialPacket.tenths(bcd: pending[end - 2], pending[end - 1]) else {
                    statistics.invalidWeights += 1
                    statistics.skippedBytes += 1
                    start += 1
                    continue scan
                }
                statistics.weightPackets += 1
                emit(.weight(tenthsOfKg: tenths, bytes: Array(pending[start..<end])))
                start = end
            default:
                statistics.unknownPackets += 1
                statistics.skippedBytes += 4
                start += 4
            }
        }
        pending.removeFirst(start)
    }

    /// Forgets a packet begun before a link loss (its rest will never come); its bytes count as skipped.
    public mutating func reset() {
        statistics.skippedBytes += pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// Records that the repeat rule kept (`isNew`) or dropped a decoded weight.
    mutating func count(weightIsNew isNew: Bool) {
        if isNew { statistics.newWeights += 1 } else { statistics.repeatedWeights += 1 }
    }
}
