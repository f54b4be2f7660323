// AxonSensors — a stream of numbers sent as OSC messages over UDP on this machine.

import AxonMemory
import AxonStreams
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Which OSC messages make a stream's frames: those sent to `address`, whose first `channels.count` numeric
/// arguments are one frame's values, in order.
///
/// Threading: a value type; share freely.
public struct OSCStreamMapping: Sendable, Hashable {
    /// The address pattern every frame is sent to (`/muse/eeg`); compared exactly.
    public var address: String
    /// The stream's name.
    public var name: String
    /// What the stream carries.
    public var contentType: StreamContentType
    /// One channel per leading numeric argument.
    public var channels: [ChannelInfo]
    /// The sender's sample rate in Hz (OSC carries none).
    public var nominalRate: Double

    /// A mapping of `address` to a stream of `channels` at `nominalRate` Hz.
    public init(
        address: String, name: String, contentType: StreamContentType, channels: [ChannelInfo], nominalRate: Double
    ) {
        self.address = address
        self.name = name
        self.contentType = contentType
        self.channels = channels
        self.nominalRate = nominalRate
    }

    /// Mind Monitor's raw EEG (`/muse/eeg`): TP9, AF7, AF8 and TP10 in µV at 256 Hz, as the app streams a Muse. The
    /// AUX values the app appends are not channels of this stream.
    public static let mindMonitorEEG = OSCStreamMapping(
        address: "/muse/eeg", name: "Mind Monitor", contentType: .eeg,
        channels: ["TP9", "AF7", "AF8", "TP10"].map { ChannelInfo(label: $0, unit: "µV", range: -1000...2000) },
        nominalRate: 256)
}

/// What an ``OSCSampleSource`` has received.
///
/// Threading: a value type; share freely.
public struct OSCSourceStatistics: Sendable, Hashable {
    /// Datagrams received.
    public var packets = 0
    /// Datagrams that are not OSC packets (counted, dropped whole; ``lastRejection`` says why).
    public var rejectedPackets = 0
    /// Messages to the mapped address.
    public var messages = 0
    /// Frames written: one per message to the address.
    public var frames = 0
    /// Messages to the address with fewer numeric arguments than the stream has channels (counted, dropped).
    public var shortMessages = 0
    /// Messages to other addresses (ignored).
    public var otherMessages = 0
    /// Why the last rejected packet was rejected.
    public var lastRejection: OSCDecodingError?
}

/// Why an ``OSCSampleSource`` could not listen.
///
/// Threading: a value type; share freely.
public enum OSCSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The UDP socket could not be made or bound to the port.
    case cannotListen(port: UInt16, SystemCallError)
    /// Receiving failed.
    case receiveFailed(SystemCallError)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotListen(let port, let error): "cannot listen for OSC on UDP 127.0.0.1:\(port): \(error)"
        case .receiveFailed(let error): "receiving OSC failed: \(error)"
        }
    }
}

/// A sample source fed by OSC 1.0 messages over UDP on the loopback interface (127.0.0.1): what apps such as
/// Mind Monitor stream. Each message to the mapping's address becomes one frame, stamped with its datagram's arrival
/// time; bundles are opened. A datagram that is not OSC is counted and dropped whole; the source keeps listening.
///
/// OSC has no sample counter, so frames lost on the way cannot be told from a slow sender: the pipeline's timeline
/// sees the arrival times only.
///
///     let source = try OSCSampleSource(mapping: .mindMonitorEEG, port: 5000)
///     let pipeline = StreamPipeline(source: source, sinks: [EDFSink(path: "eeg.edf")])
///
/// Threading: `init` on any thread; ``run(into:)`` on the pipeline's source thread (it allocates nothing and takes
/// no lock per datagram, except to note why one was rejected); ``statistics`` from any thread. The socket is closed
/// when the source goes away.
public final class OSCSampleSource: SampleSource, @unchecked Sendable {
    // Sendable invariant: the socket and the buffers are used by `run` alone (one source thread); the counters are
    // atomics and the last rejection is behind a mutex, taken only when a datagram is rejected.
    /// The stream.
    public let descriptor: StreamDescriptor
    /// The UDP port the source listens on (the one the system chose when 0 was asked).
    public let port: UInt16
    /// What the source makes of the messages.
    public let mapping: OSCStreamMapping
    private let socket: LoopbackUDPSocket
    private let datagram = OwnedBuffer<UInt8>(repeating: 0, count: 65_536)
    private let frame: OwnedBuffer<Double>
    private let addressBytes: OwnedBuffer<UInt8>
    private let packets = Atomic<Int>(0)
    private let rejectedPackets = Atomic<Int>(0)
    private let messages = Atomic<Int>(0)
    private let frames = Atomic<Int>(0)
    private let shortMessages = Atomic<Int>(0)
    private let otherMessages = Atomic<Int>(0)
    private let lastRejection = Mutex<OSCDecodingError?>(nil)

    /// Binds a UDP socket to 127.0.0.1:`port` (0: any free port, see ``port``).
    ///
    /// - Throws: ``OSCSourceError/cannotListen(port:_:)``.
    public init(mapping: OSCStreamMapping, port: UInt16, sourceID: String? = nil) throws(OSCSourceError) {
        precondition(!mapping.channels.isEmpty, "a stream needs at least one channel")
        self.mapping = mapping
        frame = OwnedBuffer(repeating: 0, count: mapping.channels.count)
        addressBytes = OwnedBuffer(copying: Array(mapping.address.utf8))
        do { socket = try LoopbackUDPSocket(port: port) } catch { throw .cannotListen(port: port, error) }
        self.port = socket.port
        descriptor = StreamDescriptor(
            name: mapping.name, contentType: mapping.contentType, channels: mapping.channels,
            nominalRate: mapping.nominalRate, format: .float32, sourceID: sourceID ?? "osc-\(self.port)",
            metadata: ["osc.address": mapping.address, "osc.port": String(self.port)])
    }

    /// What has been received so far.
    public var statistics: OSCSourceStatistics {
        var figures = OSCSourceStatistics()
        figures.packets = packets.load(ordering: .relaxed)
        figures.rejectedPackets = rejectedPackets.load(ordering: .relaxed)
        figures.messages = messages.load(ordering: .relaxed)
        figures.frames = frames.load(ordering: .relaxed)
        figures.shortMessages = shortMessages.load(ordering: .relaxed)
        figures.otherMessages = otherMessages.load(ordering: .relaxed)
        figures.lastRejection = lastRejection.withLock { $0 }
        return figures
    }

    /// Receives datagrams and writes a frame for each message to the address, until a stop is requested (looked at
    /// every 50 ms when nothing arrives).
    ///
    /// - Throws: ``OSCSourceError/receiveFailed(_:)`` when the socket fails.
    public func run(into writer: FrameWriter) throws {
        while !writer.isStopRequested {
            let received: Int
            do {
                guard let length = try datagram.withUnsafeMutableBufferPointer({ buffer throws(SystemCallError) in
                    try socket.receive(into: UnsafeMutableRawBufferPointer(buffer), timeoutMilliseconds: 50)
                }) else { continue }
                received = length
            } catch {
                throw OSCSourceError.receiveFailed(error)
            }
            let arrival = HostClock.now()
            datagram.withUnsafeBufferPointer { bytes in
                deliver(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[0..<received])), arrival: arrival, into: writer)
            }
        }
    }

    /// One datagram: every message to the address becomes a frame.
    private func deliver(_ packet: UnsafeRawBufferPointer, arrival: Double, into writer: FrameWriter) {
        var tally = (messages: 0, frames: 0, short: 0, other: 0)
        do {
            try OSCPacketReader.forEachMessage(in: packet) { message in
                guard matches(message) else {
                    tally.other += 1
                    return
                }
                tally.messages += 1
                var filled = 0
                message.forEachArgument { argument in
                    guard filled < frame.count, let value = argument.number else { return }
                    frame[filled] = value
                    filled += 1
                }
                guard filled == frame.count else {
                    tally.short += 1
                    return
                }
                _ = frame.withUnsafeBufferPointer { writer.write($0, arrivalTime: arrival) }
                tally.frames += 1
            }
        } catch {
            lastRejection.withLock { $0 = error }
            rejectedPackets.add(1, ordering: .relaxed)
            packets.add(1, ordering: .relaxed)
            return
        }
        messages.add(tally.messages, ordering: .relaxed)
        frames.add(tally.frames, ordering: .relaxed)
        shortMessages.add(tally.short, ordering: .relaxed)
        otherMessages.add(tally.other, ordering: .relaxed)
        packets.add(1, ordering: .relaxed)
    }

    private func matches(_ message: OSCMessageView) -> Bool {
        addressBytes.withUnsafeBufferPointer { $0.count == message.address.count && $0.elementsEqual(message.address) }
    }
}
