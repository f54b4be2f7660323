import AxonDevices
import AxonMemory
import AxonStreams

/// A connected ``CytonBoard`` as a `SampleSource`: EEG in µV, 8 channels at 250 Hz (`EXG0`…`EXG7`) or, with a
/// Daisy, 16 at 125 Hz (`EXG0`…`EXG15`), each frame stamped with its arrival time and the sample number as device
/// counter (``timelineConfiguration``), so lost packets become gap records.
///
///     let board = CytonBoard(path: "/dev/ttyUSB0")
///     _ = try board.connect()
///     let source = CytonSource(board: board)
///     let pipeline = StreamPipeline(source: source, sinks: [sink],
///                                   configuration: .init(timeline: source.timelineConfiguration))
///
/// `run` starts the stream (`b`), decodes what the port delivers until the pipeline asks it to stop or the port
/// closes (a packet is decoded when the next one starts, or after 50 ms of silence), then stops the stream (`s`)
/// and closes the port. A port that closes or fails ends the stream with the error recorded in ``state()``.
///
/// Threading contract: after `init` the board belongs to the source; `run` is called once, on the pipeline's source
/// thread, which is the stream's single producer. Its loop allocates nothing (the decoder and the read buffer are
/// allocated before it); it takes the state's lock once per read to publish the counts for ``state()``, which may be
/// called from any thread. The pipeline's consumer loop never waits on that lock.
public final class CytonSource: SampleSource, @unchecked Sendable {
    // Sendable invariant: `board` and `decoder` are touched only by the thread running `run` (and by `init` before
    // it); the shared state is behind `ThreadLocked`.
    /// The stream: EEG in µV.
    public let descriptor: StreamDescriptor
    /// Gap detection from the sample number (modulo 256, or 128 with a Daisy).
    public let timelineConfiguration: StreamTimeline.Configuration
    private let board: CytonBoard
    private let decoder: CytonDecoder
    private let shared = ThreadLocked(CytonSourceState())
    private let selection: OwnedBuffer<Int>
    private let selected: OwnedBuffer<Double>

    /// The labels of a board's channels: `EXG0`…`EXG7`, or `EXG0`…`EXG15` with a Daisy (as the OpenBCI GUI names
    /// them in its recordings).
    public static func channelLabels(daisy: Bool) -> [String] { (0..<(daisy ? 16 : 8)).map { "EXG\($0)" } }

    /// A source for a connected board (after ``CytonBoard/connect()``).
    ///
    /// - Parameter channels: the labels of the channels to publish, in this order (`["EXG2", "EXG3", "EXG6",
    ///   "EXG7"]`); `nil` publishes all. An unknown label throws ``CytonError/unknownChannel(_:available:)``.
    public init(board: CytonBoard, channels: [String]? = nil, sourceID: String? = nil) throws(CytonError) {
        self.board = board
        decoder = board.makeDecoder()
        let labels = Self.channelLabels(daisy: board.hasDaisy)
        var indices: [Int] = []
        for label in channels ?? labels {
            guard let index = labels.firstIndex(of: label) else {
                throw .unknownChannel(label, available: labels)
            }
            indices.append(index)
        }
        selection = OwnedBuffer(copying: indices)
        selected = OwnedBuffer(repeating: 0, count: indices.count)
        let fullScale = CytonGain.referenceVolts / Double(CytonGain.default.factor) * 1e6
        descriptor = StreamDescriptor(
            name: board.hasDaisy ? "OpenBCI Cyton + Daisy" : "OpenBCI Cyton", contentType: .eeg,
            channels: indices.map { index in
                let range = CytonGain.referenceVolts / Double(board.gains[index].factor) * 1e6
                return ChannelInfo(label: labels[index], unit: "µV", range: -range...range)
            },
            nominalRate: board.sampleRate, format: .float32,
            sourceID: sourceID ?? "cyton-\(board.port.path)",
            metadata: [
                "device": "OpenBCI Cyton", "daisy": board.hasDaisy ? "yes" : "no",
                "firmware": board.banner?.firmware ?? "unknown", "fullScaleAtDefaultGain": "\(fullScale)",
            ])
        timelineConfiguration = StreamTimeline.Configuration(counterModulus: decoder.counterModulus)
    }

    /// The decoder's statistics and the stream's end, as of the last read. Any thread.
    public func state() -> CytonSourceState { shared.withLock { $0 } }

    /// Streams until a stop is requested or the port ends (see the type's documentation).
    public func run(into writer: FrameWriter) throws {
        shared.withLock { $0.isRunning = true }
        defer {
            board.close()
            shared.withLock { $0.isRunning = false }
        }
        do throws(CytonError) { try board.startStreaming() } catch {
            shared.withLock { $0.error = error }
            throw error
        }
        let readBuffer = OwnedBuffer<UInt8>(repeating: 0, count: 1024)
        var ending: CytonError?
        readBuffer.withUnsafeMutableBufferPointer { bytes in
            let buffer = UnsafeMutableRawBufferPointer(bytes)
            while !writer.isStopRequested {
                let count: Int
                do throws(ByteLinkError) {
                    count = try board.port.read(into: buffer, deadline: HostClock.now() + 0.05)
                } catch .timeout {
                    // A quiet line means the last packet is complete: decode it rather than wait for the next one.
                    let now = HostClock.now()
                    decoder.flush { values, counter in publish(values, counter: counter, arrival: now, into: writer) }
                    continue
                } catch {
                    ending = .link(error)
                    break
                }
                let arrival = HostClock.now()
                decoder.consume(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)) { values, counter in
                    publish(values, counter: counter, arrival: arrival, into: writer)
                }
                let statistics = decoder.statistics
                shared.withLock { $0.statistics = statistics }
            }
        }
        let now = HostClock.now()
        decoder.flush { values, counter in publish(values, counter: counter, arrival: now, into: writer) }
        if ending == nil { try? board.stopStreaming() }
        let statistics = decoder.statistics
        let acceleration = decoder.lastAcceleration.map { [$0.x, $0.y, $0.z] }
        shared.withLock {
            $0.statistics = statistics
            $0.lastAcceleration = acceleration
            $0.error = ending
        }
    }
}

extension CytonSource {
    /// Writes the selected channels of one decoded frame.
    @inline(__always)
    fileprivate func publish(
        _ values: UnsafeBufferPointer<Double>, counter: UInt64, arrival: Double, into writer: FrameWriter
    ) {
        for position in selection.indices { selected[position] = values[selection[position]] }
        selected.withUnsafeBufferPointer { _ = writer.write($0, counter: counter, arrivalTime: arrival) }
    }
}

/// A ``CytonSource``'s state as seen from other threads.
///
/// Threading: a value type; share freely.
public struct CytonSourceState: Sendable, Hashable {
    /// Whether `run` is streaming.
    public var isRunning = false
    /// The decoder's counts (packets, frames, faults, missing packets).
    public var statistics = CytonDecoderStatistics()
    /// The last accelerometer reading in g (X, Y, Z), once the stream has ended.
    public var lastAcceleration: [Double]?
    /// Why the stream ended, if the port failed or closed.
    public var error: CytonError?

    /// An empty state.
    public init() {}
}
