import AxonMemory
import AxonStreams

/// Turns a Muse's per-channel EEG notifications into frames: the notifications of one packet index (TP9, AF7, AF8,
/// TP10 and, with preset `p20`, right AUX) are gathered, and once every channel is in, their 12 samples become 12
/// frames in µV. Each frame's device counter is `index × 12 + k` modulo 65536 × 12 (``counterModulus``), so a lost
/// packet index is a gap of 12 samples per index downstream. A packet index whose notifications are incomplete
/// when the next index starts is dropped whole and counted.
///
///     let decoder = MuseDecoder(channelCount: 5)
///     try decoder.decode(value, channel: 2, arrivalTime: now, into: writer)
///
/// Threading contract: one owner thread (the transport's delivery thread, the stream's producer). `decode`
/// allocates nothing and takes no lock.
public final class MuseDecoder {
    /// The device counter's modulus: 65536 packet indices of 12 samples.
    public static let counterModulus: UInt64 = 65_536 * 12
    /// Channels per frame (4 or 5).
    public let channelCount: Int
    /// What the decoder has seen.
    public private(set) var statistics = MuseDecoderStatistics()

    private let samples: OwnedBuffer<Double>
    private let frame: OwnedBuffer<Double>
    private var pendingIndex: UInt16?
    private var receivedMask = 0
    private var lastIndex: UInt16?

    /// A decoder for 4 or 5 channels.
    public init(channelCount: Int) {
        precondition(channelCount == 4 || channelCount == 5, "a Muse streams 4 EEG channels, 5 with AUX")
        self.channelCount = channelCount
        samples = OwnedBuffer(repeating: 0, count: MuseEEGPacket.samplesPerPacket * channelCount)
        frame = OwnedBuffer(repeating: 0, count: channelCount)
    }

    /// Decodes one notification of channel `channel` (0-based), writing frames once its packet index is complete.
    /// Throws ``MuseError/wrongLength(_:)`` for a notification that is not 20 bytes (counted, nothing written).
    public func decode(_ value: [UInt8], channel: Int, arrivalTime: Double, into writer: FrameWriter) throws(MuseError)
    {
        try decode(value, channel: channel) { values, counter in
            writer.write(values, counter: counter, arrivalTime: arrivalTime)
        }
    }

    /// Decodes one notification, handing each completed frame and its counter to `emit`.
    public func decode(_ value: [UInt8], channel: Int, emit: (UnsafeBufferPointer<Double>, UInt64) -> Void)
        throws(MuseError)
    {
        guard value.count == MuseEEGPacket.size, (0..<channelCount).contains(channel) else {
            statistics.rejected += 1
            throw .wrongLength(value.count)
        }
        statistics.notifications += 1
        let index = UInt16(value[0]) << 8 | UInt16(value[1])
        if let pending = pendingIndex, pending != index {
            statistics.incompletePackets += 1
            receivedMask = 0
        }
        pendingIndex = index
        for k in 0..<MuseEEGPacket.samplesPerPacket {
            samples[k * channelCount + channel] = MuseEEGPacket.microvolts(raw: MuseEEGPacket.sample(k, in: value))
        }
        receivedMask |= 1 << channel
        guard receivedMask == (1 << channelCount) - 1 else { return }
        receivedMask = 0
        pendingIndex = nil
        if let last = lastIndex { statistics.missingPackets += Int(index &- last &- 1) }
        lastIndex = index
        statistics.packets += 1
        let base = UInt64(index) * UInt64(MuseEEGPacket.samplesPerPacket)
        for k in 0..<MuseEEGPacket.samplesPerPacket {
            for c in 0..<channelCount { frame[c] = samples[k * channelCount + c] }
            statistics.frames += 1
            frame.withUnsafeBufferPointer { emit($0, base + UInt64(k)) }
        }
    }
}
