import AxonMemory
import AxonStreams

/// Turns the byte stream of a Cyton's dongle into frames in µV: finds the 33-byte packets (``CytonPacket``),
/// resynchronises after garbage, a truncated packet or a wrong footer, pairs a Daisy's odd and even packets into
/// 16-channel frames, scales counts by each channel's gain, and stamps every frame with the sample number as its
/// device counter (modulo 256; with a Daisy, the pair's number modulo 128) so the stream turns jumps into gap
/// records.
///
///     let decoder = CytonDecoder(daisy: false)
///     decoder.consume(bytes, arrivalTime: HostClock.now(), into: writer)
///
/// Framing: a packet is accepted when it starts with `0xA0`, ends with a footer `0xC0`…`0xC6`, and the byte after
/// it is the next packet's `0xA0` (or not there yet). If the byte after it is something else, the decoder looks
/// inside the packet for the start of a packet that is itself well framed: finding one means this packet was cut
/// short (truncated), else the packet is good and garbage follows. After a fault it scans for the first packet that
/// is framed on both sides and resumes there, so at most the faulty packet is lost. Each fault is classified from
/// the span it discarded and counted in ``statistics``: a packet-length span that started with `0xA0` is a wrong
/// footer, a shorter one a truncated packet, anything else garbage (a short run of garbage that happens to start
/// with `0xA0` cannot be told from a truncated packet and is counted as one).
///
/// A packet is decoded once the byte after it has arrived; ``flush(arrivalTime:into:)`` decodes a last packet with
/// nothing after it (at the end of a stream).
///
/// Threading contract: one owner thread (the stream's producer). `consume` allocates nothing and takes no lock;
/// all storage is allocated at init.
public final class CytonDecoder {
    /// Whether packets are paired into 16-channel frames (a Daisy is attached).
    public let isDaisy: Bool
    /// Channels per frame: 8, or 16 with a Daisy.
    public var channelCount: Int { isDaisy ? 16 : 8 }
    /// The device counter's modulus: 256, or 128 with a Daisy (one count per pair).
    public var counterModulus: UInt64 { isDaisy ? 128 : 256 }
    /// What the decoder has seen so far.
    public private(set) var statistics = CytonDecoderStatistics()
    /// The latest accelerometer reading in g, if any.
    public private(set) var lastAcceleration: (x: Double, y: Double, z: Double)?

    private static let capacity = 4096
    private let buffer = OwnedBuffer<UInt8>(repeating: 0, count: CytonDecoder.capacity)
    private var start = 0
    private var end = 0
    private let scales: OwnedBuffer<Double>
    private let frame = OwnedBuffer<Double>(repeating: 0, count: 16)
    private var synced = false
    private var faultStart: Int?
    private var faultStartedWithHeader = false
    private var lastSampleNumber: UInt8?
    private var pendingBoardSample: UInt8?

    /// A decoder for a board with or without a Daisy; every channel starts at `gain`.
    public init(daisy: Bool, gain: CytonGain = .default) {
        isDaisy = daisy
        scales = OwnedBuffer(repeating: gain.microvoltsPerCount, count: 16)
    }

    /// Sets the gain of channel `channel` (1…16) for the packets decoded from now on.
    public func setGain(_ gain: CytonGain, channel: Int) {
        guard (1...16).contains(channel) else { return }
        scales[channel - 1] = gain.microvoltsPerCount
    }

    /// µV per count of channel `channel` (1…16).
    public func microvoltsPerCount(channel: Int) -> Double { scales[channel - 1] }

    /// Decodes `bytes` into `writer`, every frame stamped with `arrivalTime` and its counter.
    public func consume(_ bytes: UnsafeRawBufferPointer, arrivalTime: Double, into writer: FrameWriter) {
        consume(bytes) { values, counter in writer.write(values, counter: counter, arrivalTime: arrivalTime) }
    }

    /// Decodes `bytes`, handing each frame (µV, one per channel) and its counter to `emit`.
    /// The buffer passed to `emit` is valid only during the call.
    public func consume(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeBufferPointer<Double>, UInt64) -> Void) {
        statistics.bytesReceived += bytes.count
        var offset = 0
        while offset < bytes.count {
            compact()
            let room = Self.capacity - end
            if room == 0 {
                // Nothing framed in a whole buffer: it is all garbage but the last packet's worth.
                discardBuffered(keeping: CytonPacket.size * 2)
                continue
            }
            let take = min(room, bytes.count - offset)
            let free = end
            buffer.withUnsafeMutableBufferPointer { buffer in
                UnsafeMutableRawPointer(buffer.baseAddress! + free).copyMemory(
                    from: bytes.baseAddress! + offset, byteCount: take)
            }
            end += take
            offset += take
            process(final: false, emit: emit)
        }
    }

    /// Decodes a last packet that has nothing after it yet (call at the end of a stream).
    public func flush(emit: (UnsafeBufferPointer<Double>, UInt64) -> Void) {
        process(final: true, emit: emit)
    }

    /// Decodes a last packet into `writer` (see ``flush(emit:)``).
    public func flush(arrivalTime: Double, into writer: FrameWriter) {
        flush { values, counter in writer.write(values, counter: counter, arrivalTime: arrivalTime) }
    }

    // MARK: - Framing

    private func process(final: Bool, emit: (UnsafeBufferPointer<Double>, UInt64) -> Void) {
        while end - start > 0 {
            let p = start
            if buffer[p] != CytonPacket.header || (end - p >= CytonPacket.size && !isFooter(p + 32)) {
                beginFault(at: p)
                start += 1
                continue
            }
            guard end - p >= CytonPacket.size else { return }
            let next = p + CytonPacket.size
            if next < end {
                if buffer[next] != CytonPacket.header {
                    if !synced {
                        // Resynchronising: only a packet framed on both sides is trusted.
                        beginFault(at: p)
                        start += 1
                        continue
                    }
                    // Either garbage follows a good packet, or this packet was cut short and a real one starts
                    // inside it: look for that one (it needs its own 33 bytes to be judged).
                    switch truncationEvidence(in: p) {
                    case .undecided: if !final { return }
                    case .truncated:
                        beginFault(at: p)
                        start += 1
                        continue
                    case .none: break
                    }
                }
            } else if !final {
                return
            }
            accept(at: p, emit: emit)
        }
    }

    private enum Evidence { case none, truncated, undecided }

    /// Whether a well-framed packet starts inside the one at `p`.
    private func truncationEvidence(in p: Int) -> Evidence {
        for q in (p + 1)..<(p + CytonPacket.size) where buffer[q] == CytonPacket.header {
            guard q + CytonPacket.size <= end else { return .undecided }
            guard isFooter(q + 32) else { continue }
            if q + CytonPacket.size == end { return .undecided }
            if buffer[q + CytonPacket.size] == CytonPacket.header { return .truncated }
        }
        return .none
    }

    @inline(__always)
    private func isFooter(_ index: Int) -> Bool { CytonPacket.footers.contains(buffer[index]) }

    private func beginFault(at p: Int) {
        statistics.discardedBytes += 1
        if faultStart == nil {
            faultStart = p
            faultStartedWithHeader = buffer[p] == CytonPacket.header
        }
        synced = false
    }

    private func endFault(at p: Int) {
        guard let begin = faultStart else { return }
        let span = p - begin
        if faultStartedWithHeader && span < CytonPacket.size {
            statistics.truncatedPackets += 1
        } else if faultStartedWithHeader && span == CytonPacket.size {
            statistics.wrongFooters += 1
        } else {
            statistics.garbageRuns += 1
        }
        faultStart = nil
    }

    private func accept(at p: Int, emit: (UnsafeBufferPointer<Double>, UInt64) -> Void) {
        endFault(at: p)
        synced = true
        start = p + CytonPacket.size
        statistics.packets += 1
        buffer.withUnsafeBufferPointer { buffer in
            let packet = UnsafeRawBufferPointer(start: buffer.baseAddress! + p, count: CytonPacket.size)
            accept(packet, emit: emit)
        }
    }

    /// Decodes the packet `packet` (in the read buffer) and emits its frame, or keeps a Daisy's first half.
    private func accept(_ packet: UnsafeRawBufferPointer, emit: (UnsafeBufferPointer<Double>, UInt64) -> Void) {
        let sampleNumber = packet[1]
        if let last = lastSampleNumber {
            statistics.missingPackets += Int(sampleNumber &- last &- 1)
        }
        lastSampleNumber = sampleNumber
        if packet[32] == CytonPacket.accelerometerFooter, packet[26..<32].contains(where: { $0 != 0 }) {
            func axis(_ i: Int) -> Double {
                Double(Int16(bitPattern: UInt16(packet[i]) << 8 | UInt16(packet[i + 1])))
                    * CytonPacket.accelerometerScale
            }
            lastAcceleration = (axis(26), axis(28), axis(30))
            statistics.accelerometerReadings += 1
        }
        guard isDaisy else {
            fill(from: packet, channelOffset: 0)
            statistics.frames += 1
            frame.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<8]), UInt64(sampleNumber)) }
            return
        }
        if sampleNumber & 1 == 1 {
            if pendingBoardSample != nil { statistics.unpairedPackets += 1 }
            fill(from: packet, channelOffset: 0)
            pendingBoardSample = sampleNumber
            return
        }
        guard let board = pendingBoardSample, board &+ 1 == sampleNumber else {
            if pendingBoardSample != nil { statistics.unpairedPackets += 1 }
            statistics.unpairedPackets += 1
            pendingBoardSample = nil
            return
        }
        pendingBoardSample = nil
        fill(from: packet, channelOffset: 8)
        statistics.frames += 1
        frame.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0..<16]), UInt64(board >> 1)) }
    }

    @inline(__always)
    private func fill(from packet: UnsafeRawBufferPointer, channelOffset: Int) {
        for channel in 0..<CytonPacket.channelCount {
            let count = CytonPacket.int24(packet, at: 2 + 3 * channel)
            frame[channelOffset + channel] = Double(count) * scales[channelOffset + channel]
        }
    }

    /// Moves the unread bytes to the front of the buffer.
    private func compact() {
        guard start > 0 else { return }
        let remaining = end - start
        let unread = start
        if remaining > 0 {
            buffer.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.update(from: buffer.baseAddress! + unread, count: remaining)
            }
        }
        if let begin = faultStart { faultStart = begin - start }
        start = 0
        end = remaining
    }

    private func discardBuffered(keeping: Int) {
        let drop = max(0, end - start - keeping)
        if drop > 0, faultStart == nil {
            faultStart = start
            faultStartedWithHeader = false
        }
        statistics.discardedBytes += drop
        start += drop
        synced = false
    }
}
