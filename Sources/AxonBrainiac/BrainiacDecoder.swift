import AxonMemory
import AxonStreams

/// Decodes Brainiac notifications (``BrainiacPacketLayout``) into the frames of the headset's EEG stream.
///
/// This is the seam between any transport and the stream: a BlueZ characteristic callback, a file replay and
/// ``SimulatedBrainiacHeadset`` all hand it one notification's bytes and the host time they arrived, and it
/// writes the samples straight into the stream's `FrameWriter` — one frame per sample, with the device's
/// counter and time and the notification's arrival time. Battery and status notifications update
/// ``batteryLevel`` and ``status`` and come back as the result; they never go on the ring.
///
///     let decoder = BrainiacDecoder()
///     do {
///         let notification = try decoder.decode(bytes, arrivalTime: HostClock.now(), into: writer)
///         if case .status(_, let status) = notification { print(status.message) }
///     } catch {
///         log(error)   // a BrainiacPacketError; counted in `statistics`, and the stream goes on
///     }
///
/// A notification is checked completely (length, version, type, sample count, CRC-8, value ranges) before
/// anything is written, so a rejected notification leaves no partial samples behind.
///
/// Threading contract: single owner. One thread (the stream's producer: the transport's callback thread or the
/// source thread) calls `decode`; it must be the `FrameWriter`'s producer thread too. To show statistics on
/// another thread, copy them out on the owner thread (``SimulatedBrainiacHeadset`` does so under a mutex).
/// `decode` allocates nothing and takes no lock.
public final class BrainiacDecoder {
    /// Counts of what was decoded and rejected.
    public private(set) var statistics = BrainiacDecoderStatistics()
    /// The latest battery level in percent, `nil` until a battery notification arrived.
    public private(set) var batteryLevel: Int?
    /// The latest status, `nil` until a status notification arrived.
    public private(set) var status: BrainiacStatus?
    /// The latest rejection, `nil` if none.
    public private(set) var lastError: BrainiacPacketError?

    private var lastOrderNumber: UInt16?
    private let scratch = OwnedBuffer<Double>(repeating: 0, count: BrainiacPacketLayout.channelCount)

    /// Creates a decoder; allocates its one-frame scratch buffer.
    public init() {}

    /// Decodes one notification; EEG samples go to `writer`.
    ///
    /// - Parameters:
    ///   - bytes: the notification, exactly as the transport delivered it.
    ///   - arrivalTime: host monotonic time the transport received it (every sample of it gets this time).
    ///   - writer: the EEG stream's writer; its layout must have 4 channels (a programmer error otherwise).
    /// - Returns: what the notification said.
    /// - Throws: ``BrainiacPacketError`` when the notification is malformed; it is counted in ``statistics``,
    ///   kept in ``lastError``, and nothing is written.
    /// - Complexity: O(bytes). Allocation-free.
    public func decode(
        _ bytes: UnsafeRawBufferPointer, arrivalTime: Double = HostClock.now(), into writer: FrameWriter
    ) throws(BrainiacPacketError) -> BrainiacNotification {
        precondition(
            writer.layout.channelCount == BrainiacPacketLayout.channelCount,
            "a Brainiac stream has \(BrainiacPacketLayout.channelCount) channels")
        let notification: BrainiacNotification
        do throws(BrainiacPacketError) {
            notification = try Self.parse(bytes)
        } catch {
            statistics.recordRejection(error.kind)
            lastError = error
            throw error
        }
        let orderNumber = notification.header.hardwareOrderNumber
        if let last = lastOrderNumber {
            let step = Int(orderNumber &- last)  // modulo 2¹⁶
            if step > 1 { statistics.skippedOrderNumbers += step - 1 }
        }
        lastOrderNumber = orderNumber
        switch notification {
        case .eeg(let header, let sampleCount):
            scratch.withUnsafeMutableBufferPointer { scratch in
                for sample in 0..<sampleCount {
                    Self.readSample(sample, of: bytes, into: scratch)
                    let milliseconds =
                        header.timeMilliseconds &+ UInt64(sample) * BrainiacPacketLayout.samplePeriodMilliseconds
                    let counter = header.counter &+ UInt32(truncatingIfNeeded: sample)
                    writer.write(UnsafeBufferPointer(scratch), deviceTime: Double(milliseconds) / 1000,
                                 counter: UInt64(counter), arrivalTime: arrivalTime)
                }
            }
            statistics.eegNotifications += 1
            statistics.samples += sampleCount
        case .battery(_, let level):
            batteryLevel = level
            statistics.batteryNotifications += 1
        case .status(_, let newStatus):
            status = newStatus
            statistics.statusNotifications += 1
        }
        return notification
    }

    /// Decodes one notification held in an array; see the buffer form.
    public func decode(
        _ bytes: [UInt8], arrivalTime: Double = HostClock.now(), into writer: FrameWriter
    ) throws(BrainiacPacketError) -> BrainiacNotification {
        let result = bytes.withUnsafeBytes { raw -> Result<BrainiacNotification, BrainiacPacketError> in
            do throws(BrainiacPacketError) {
                return .success(try decode(raw, arrivalTime: arrivalTime, into: writer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Forgets the statistics, battery level, status, last error and order-number history (a new connection).
    public func reset() {
        statistics = BrainiacDecoderStatistics()
        batteryLevel = nil
        status = nil
        lastError = nil
        lastOrderNumber = nil
    }
}
