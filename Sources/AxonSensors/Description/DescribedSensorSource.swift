// AxonSensors — a sample source made from a sensor description: bytes from its transport, samples from its layout.

import AxonDevices
import AxonMemory
import AxonStreams
import Synchronization

/// Why a described sensor could not stream.
///
/// Threading: a value type; share freely.
public enum DescribedSensorError: Error, Sendable, CustomStringConvertible {
    /// The UDP or OSC port could not be bound on 127.0.0.1.
    case cannotListen(port: UInt16, SystemCallError)
    /// Receiving datagrams failed.
    case receiveFailed(SystemCallError)
    /// The link could not be opened, or a command could not be written (`what` says which).
    case transport(what: String, TransportError)
    /// A BLE sensor needs a connected transport (``DescribedSensorSource/init(_:transport:)``'s `transport`).
    case needsTransport(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotListen(let port, let error): "cannot listen on UDP 127.0.0.1:\(port): \(error)"
        case .receiveFailed(let error): "receiving failed: \(error)"
        case .transport(let what, let error): "\(what): \(error)"
        case .needsTransport(let endpoint): "\(endpoint) needs a connected transport"
        }
    }
}

/// What a ``DescribedSensorSource`` has received and made.
///
/// Threading: a value type; share freely.
public struct DescribedSensorStatistics: Sendable, Hashable {
    /// Packets (notifications, lines, datagrams' packets, OSC messages to the address) decoded into samples.
    public var packets = 0
    /// Samples written.
    public var samples = 0
    /// Packets that did not fit the layout (counted, dropped; ``lastRejection`` says why the last did not).
    public var rejected = 0
    /// Datagrams that were not OSC packets (an OSC transport).
    public var rejectedDatagrams = 0
    /// OSC messages to other addresses (ignored).
    public var otherMessages = 0
    /// Bytes skipped looking for a binary serial packet's sync bytes.
    public var skippedBytes = 0
    /// Header lines skipped.
    public var skippedLines = 0
    /// Times the link was lost.
    public var linkLosses = 0
    /// Why the last rejected packet was rejected.
    public var lastRejection: String?
}

/// A described sensor as a ``AxonStreams/SampleSource``: packets from its transport (a BLE characteristic's
/// notifications, a serial line, UDP datagrams or OSC messages on 127.0.0.1), decoded by its layout
/// (``SensorPacketDecoder``), one frame per sample with its counter, so the pipeline's timeline turns counter jumps
/// into gap records (``timelineConfiguration``).
///
///     let sensor = try SensorDescription(contentsOf: "examples/sensors/arduino-csv.json")
///     let source = try DescribedSensorSource(sensor)
///     let pipeline = StreamPipeline(source: source, sinks: [EDFSink(path: "arduino.edf")],
///                                   configuration: .init(timeline: source.timelineConfiguration))
///
/// A packet that does not fit the layout is counted and dropped, never a crash; a lost link marks the stream
/// (`FrameWriter.noteLinkLoss()`) and the transport reconnects when it can (a serial port is reopened).
///
/// Threading: `init` on any thread; ``run(into:)`` on the pipeline's source thread. A serial or BLE sensor's frames
/// are written by the transport's reader thread (the one producer while `run` waits); UDP and OSC are received on
/// the source thread. Packets are decoded without allocating or locking (except a regular-expression layout, and a
/// rejection's reason, kept behind a mutex). ``statistics`` from any thread.
public final class DescribedSensorSource: SampleSource, @unchecked Sendable {
    // Sendable invariant: the decoder, framer and buffers are used by one thread at a time (the transport's reader,
    // or `run`'s thread for datagrams); the counters are atomics; the rejection reason is behind a mutex.
    /// The sensor.
    public let sensor: SensorDescription
    /// The stream.
    public let descriptor: StreamDescriptor
    /// The UDP port listened on, for a UDP or OSC sensor (the one the system chose when the file says 0).
    public let port: UInt16?
    /// The timeline settings the pipeline needs: the counter's modulus per sample, when the sensor has one.
    public let timelineConfiguration: StreamTimeline.Configuration

    private let transport: (any DeviceTransport)?
    private let socket: LoopbackUDPSocket?
    private let decoder: SensorPacketDecoder
    private let framer: SensorFramer?
    private let datagram = OwnedBuffer<UInt8>(repeating: 0, count: 65_536)
    private let oscAddress: OwnedBuffer<UInt8>
    private let packets = Atomic<Int>(0)
    private let samples = Atomic<Int>(0)
    private let rejected = Atomic<Int>(0)
    private let rejectedDatagrams = Atomic<Int>(0)
    private let otherMessages = Atomic<Int>(0)
    private let skippedBytes = Atomic<Int>(0)
    private let skippedLines = Atomic<Int>(0)
    private let linkLosses = Atomic<Int>(0)
    private let lastRejection = Mutex<String?>(nil)

    /// A source for `sensor`. A UDP or OSC sensor binds its port on 127.0.0.1 now; a serial sensor opens its port
    /// when it runs (through `transport` when given, else a ``AxonDevices/ByteStreamTransport`` on the path); a BLE
    /// sensor needs `transport`, connected to the device (AxonConnect's `DeviceSearch` finds and connects it).
    ///
    /// - Throws: ``DescribedSensorError/cannotListen(port:_:)``, ``DescribedSensorError/needsTransport(_:)``.
    public init(_ sensor: SensorDescription, transport: (any DeviceTransport)? = nil) throws(DescribedSensorError) {
        self.sensor = sensor
        decoder = SensorPacketDecoder(sensor)
        timelineConfiguration = StreamTimeline.Configuration(counterModulus: decoder.sampleCounterModulus)
        switch sensor.transport {
        case .udp(let port), .osc(let port, _):
            do { socket = try LoopbackUDPSocket(port: port) } catch { throw .cannotListen(port: port, error) }
            self.port = socket?.port
            self.transport = nil
            framer = nil
        case .serial(let path, let baud, let framing):
            socket = nil
            port = nil
            self.transport = transport ?? ByteStreamTransport.serialPort(path: path, baudRate: baud)
            framer = SensorFramer(framing)
        case .ble:
            guard let transport else { throw .needsTransport(sensor.transport.endpoint) }
            socket = nil
            port = nil
            self.transport = transport
            framer = nil
        }
        if case .osc(_, let address) = sensor.transport {
            oscAddress = OwnedBuffer(copying: Array(address.utf8))
        } else {
            oscAddress = OwnedBuffer(repeating: 0, count: 0)
        }
        let endpoint: String
        if let port, case .osc(_, let address) = sensor.transport {
            endpoint = "osc:\(port)\(address)"
        } else if let port {
            endpoint = "udp:\(port)"
        } else {
            endpoint = sensor.transport.endpoint
        }
        descriptor = sensor.descriptor(sourceID: "sensor-\(endpoint)")
    }

    /// What has been received so far.
    public var statistics: DescribedSensorStatistics {
        var figures = DescribedSensorStatistics()
        figures.packets = packets.load(ordering: .relaxed)
        figures.samples = samples.load(ordering: .relaxed)
        figures.rejected = rejected.load(ordering: .relaxed)
        figures.rejectedDatagrams = rejectedDatagrams.load(ordering: .relaxed)
        figures.otherMessages = otherMessages.load(ordering: .relaxed)
        figures.skippedBytes = skippedBytes.load(ordering: .relaxed)
        figures.skippedLines = skippedLines.load(ordering: .relaxed)
        figures.linkLosses = linkLosses.load(ordering: .relaxed)
        figures.lastRejection = lastRejection.withLock { $0 }
        return figures
    }

    /// Streams until a stop is requested: receives datagrams (UDP, OSC), or opens the transport, writes the BLE
    /// commands, waits, writes the stop commands and closes it.
    ///
    /// - Throws: ``DescribedSensorError``.
    public func run(into writer: FrameWriter) throws {
        if socket != nil { return try receiveDatagrams(into: writer) }
        guard let transport else { return }
        let receiver = SensorTransportReceiver(source: self, writer: writer)
        var notifications = [ByteStreamTransport.stream]
        var commands: [SensorCommand] = []
        var stopCommands: [SensorCommand] = []
        if case .ble(let link) = sensor.transport {
            (notifications, commands, stopCommands) = ([link.notify] + link.subscribe, link.commands, link.stopCommands)
        }
        do throws(TransportError) {
            try transport.openBlocking(notifications: notifications, receiver: receiver)
        } catch {
            throw DescribedSensorError.transport(what: "opening \(transport.deviceDescription)", error)
        }
        defer { transport.closeBlocking() }
        for command in commands {
            do throws(TransportError) {
                try transport.writeBlocking(command.bytes, to: command.characteristic, withResponse: command.withResponse)
            } catch {
                throw DescribedSensorError.transport(what: "writing a command to \(command.characteristic)", error)
            }
        }
        _ = writer.waitForStopRequest()
        for command in stopCommands {
            try? transport.writeBlocking(command.bytes, to: command.characteristic, withResponse: command.withResponse)
        }
    }

    // MARK: Packets

    /// Bytes from a serial line or a BLE notification (the transport's reader thread).
    fileprivate func received(_ bytes: UnsafeRawBufferPointer, arrival: Double, into writer: FrameWriter) {
        if let framer {
            framer.feed(
                bytes, packet: { decode($0, arrival: arrival, into: writer) },
                tooLong: { noteRejection(.lineTooLong) })
            skippedBytes.store(framer.skippedBytes, ordering: .relaxed)
        } else if case .text = sensor.layout {
            forEachLine(in: bytes) { decode($0, arrival: arrival, into: writer) }
        } else {
            decode(bytes, arrival: arrival, into: writer)
        }
        publishCounts()
    }

    fileprivate func noteLinkLoss(_ writer: FrameWriter) {
        linkLosses.add(1, ordering: .relaxed)
        writer.noteLinkLoss()
    }

    private func decode(_ packet: UnsafeRawBufferPointer, arrival: Double, into writer: FrameWriter) {
        do throws(SensorPacketError) {
            try decoder.decode(packet) { values, counter, deviceTime in
                writer.write(values, deviceTime: deviceTime, counter: counter, arrivalTime: arrival)
            }
        } catch {
            lastRejection.withLock { $0 = error.description }
        }
    }

    private func noteRejection(_ error: SensorPacketError) {
        decoder.reject(error)
        lastRejection.withLock { $0 = error.description }
    }

    private func publishCounts() {
        let counts = decoder.statistics
        packets.store(counts.packets, ordering: .relaxed)
        samples.store(counts.samples, ordering: .relaxed)
        rejected.store(counts.rejected, ordering: .relaxed)
        skippedLines.store(counts.skippedLines, ordering: .relaxed)
    }

    // MARK: Datagrams

    private func receiveDatagrams(into writer: FrameWriter) throws {
        guard let socket else { return }
        while !writer.isStopRequested {
            let length: Int
            do {
                guard let count = try datagram.withUnsafeMutableBufferPointer({ buffer throws(SystemCallError) in
                    try socket.receive(into: UnsafeMutableRawBufferPointer(buffer), timeoutMilliseconds: 50)
                }) else { continue }
                length = count
            } catch {
                throw DescribedSensorError.receiveFailed(error)
            }
            let arrival = HostClock.now()
            datagram.withUnsafeBufferPointer { buffer in
                let bytes = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[0..<length]))
                if case .osc = sensor.transport {
                    receiveOSC(bytes, arrival: arrival, into: writer)
                } else {
                    received(bytes, arrival: arrival, into: writer)
                }
            }
        }
    }

    private func receiveOSC(_ packet: UnsafeRawBufferPointer, arrival: Double, into writer: FrameWriter) {
        do throws(OSCDecodingError) {
            let outcome = try oscAddress.withUnsafeBufferPointer { address throws(OSCDecodingError) in
                try decoder.decode(oscDatagram: packet, address: address) { values, counter, deviceTime in
                    writer.write(values, deviceTime: deviceTime, counter: counter, arrivalTime: arrival)
                }
            }
            otherMessages.add(outcome.otherMessages, ordering: .relaxed)
            if let rejection = outcome.lastRejection { lastRejection.withLock { $0 = rejection.description } }
        } catch {
            rejectedDatagrams.add(1, ordering: .relaxed)
            lastRejection.withLock { $0 = error.description }
        }
        publishCounts()
    }
}

/// Hands a transport's bytes and link events to a ``DescribedSensorSource``.
private final class SensorTransportReceiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: called by the transport's one reader thread.
    let source: DescribedSensorSource
    let writer: FrameWriter

    /// The characteristic whose values are packets (nil: the byte stream's only one).
    let packets: BluetoothUUID?

    init(source: DescribedSensorSource, writer: FrameWriter) {
        self.source = source
        self.writer = writer
        if case .ble(let link) = source.sensor.transport {
            packets = link.notify.characteristic
        } else {
            packets = nil
        }
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        // A subscribed control point's answers are not samples.
        guard packets.map({ $0 == characteristic.characteristic }) ?? true else { return }
        value.withUnsafeBytes { source.received($0, arrival: arrivalTime, into: writer) }
    }

    func transport(didChange event: LinkEvent) {
        switch event {
        case .linkLost, .serviceVanished: source.noteLinkLoss(writer)
        default: break
        }
    }
}
