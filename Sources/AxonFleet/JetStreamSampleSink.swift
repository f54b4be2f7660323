import AxonStreams
import Foundation

/// A ``AxonStreams/SampleSink`` that publishes a stream to JetStream as one device's raw frames (``FleetPublisher``):
/// any Axon source — a recording, a simulator, a Bluetooth headset — becomes a fleet device with
/// `StreamPipeline(source: source, sinks: [sink])`.
///
/// Each frame travels with its time (the device's clock when the frame has one, else the pipeline's dejittered
/// host time as Unix seconds) and counter; the block's gap records travel as `Axon-Gaps`.
///
/// Threading: as every sink, on the pipeline's consumer thread. `write` blocks while the broker is slow (up to the
/// publish timeout per batch), so give the pipeline a ring that holds that long of the stream.
///
///     let sink = JetStreamSampleSink(nats: nats, device: "headset-7", options: .init(spoolDirectory: spool))
///     let pipeline = StreamPipeline(source: recordingReplay, sinks: [sink])
public final class JetStreamSampleSink: SampleSink {
    /// The device id the stream is published as.
    public let device: String
    /// `nats:<device>`.
    public var name: String { "nats:\(device)" }
    private let nats: NATSConnection
    private let options: FleetPublisher.Options
    private var publisher: FleetPublisher?
    private var wallClockOffset = 0.0
    private let finishTimeout: Double

    /// Creates the sink.
    ///
    /// - Parameter finishTimeout: seconds ``close()`` keeps replaying the spool before leaving the rest on disk for
    ///   the next run.
    public init(nats: NATSConnection, device: String, options: FleetPublisher.Options, finishTimeout: Double = 30) {
        self.nats = nats
        self.device = device
        self.options = options
        self.finishTimeout = finishTimeout
    }

    /// The publisher's statistics (after ``open(_:)``); on the consumer thread or after the pipeline ended.
    public var statistics: FleetPublisher.Statistics? { publisher?.statistics }

    /// Opens the device's publisher for `descriptor` (a regular stream).
    public func open(_ descriptor: StreamDescriptor) throws {
        guard descriptor.isRegular else { throw FleetError.invalidOption("only regular streams travel as raw frames") }
        publisher = try FleetPublisher(nats: nats, device: device, descriptor: descriptor, options: options)
        wallClockOffset = HostClock.wallClockOffset()
    }

    /// Hands the block's gaps and frames to the publisher.
    public func write(_ block: SampleBlock) throws {
        guard let publisher else { return }
        let gaps = block.gaps
        var gapIndex = 0
        for frame in 0..<block.frameCount {
            while gapIndex < gaps.count, gaps[gapIndex].beforeFrame <= frame {
                publisher.noteGap(missing: gaps[gapIndex].gap.missingCount, cause: gaps[gapIndex].gap.cause)
                gapIndex += 1
            }
            let time = block.deviceTime(ofFrame: frame) ?? (block.timestamp(ofFrame: frame) + wallClockOffset)
            publisher.append(
                time: time, counter: block.lane(FrameLayout.counterLane, ofFrame: frame),
                values: UnsafeBufferPointer(block.values(ofFrame: frame)))
        }
    }

    /// Publishes the last partial batch and replays the spool for up to the finish timeout.
    public func close() throws {
        publisher?.finish(deadline: Date().timeIntervalSince1970 + finishTimeout)
    }
}
