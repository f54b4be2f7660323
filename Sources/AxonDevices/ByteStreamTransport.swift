import AxonMemory
import AxonStreams
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A ``DeviceTransport`` over a byte stream — a serial line (`/dev/rfcomm0`, a USB adapter, a pty), a Bluetooth
/// Classic RFCOMM socket (`AxonBluetooth.RFCOMMSocket`), or a descriptor connected by other means (one end of a
/// socket pair in tests, the descriptor BlueZ hands a registered `Profile1`). The bytes arrive as notifications of
/// the one characteristic ``stream`` (named after the Serial Port Profile, 0x1101), in the splits the kernel reads
/// them in; writes to ``stream`` go to the device.
///
/// After the link is lost (end of file, a reset), the transport reopens it by itself when its opener can
/// (``reconnects``), every ``retryDelay`` seconds, reporting each step as a ``LinkEvent``.
///
///     let transport = ByteStreamTransport.serialPort(path: "/dev/rfcomm0")
///     try await transport.open(notifications: [ByteStreamTransport.stream], receiver: decoder)
///
/// Threading contract: `Sendable`; methods from any task or thread. One reader thread per open transport calls
/// the receiver (bytes and link events in order); it waits in poll(2) on the stream and on a wake-up pipe, so
/// ``close()`` ends it at once.
public final class ByteStreamTransport: DeviceTransport, Sendable {
    /// Opens the stream by `deadline` (``AxonStreams/HostClock`` seconds): a non-blocking descriptor that the
    /// transport then owns and closes.
    public typealias Opener = @Sendable (_ deadline: Double) throws(ByteLinkError) -> Int32

    /// The stream's one characteristic: the Serial Port Profile's UUID (0x1101) as service and characteristic.
    public static let stream = GATTCharacteristicID(service: "1101", characteristic: "1101")

    public let deviceDescription: String
    public let events: AsyncStream<LinkEvent>
    /// Whether the opener can be called again after a link loss (a handed-over descriptor cannot).
    public let reconnects: Bool
    /// Seconds each connection attempt may take.
    public let connectTimeout: Double
    /// Seconds between reconnection attempts.
    public let retryDelay: Double

    private let opener: Opener
    private let continuation: AsyncStream<LinkEvent>.Continuation
    private let state = ThreadLocked(State())
    private let stopped = DispatchSemaphore(value: 0)

    private struct State {
        var descriptor: Int32 = -1
        /// The read end and the write end of the wake-up pipe while a reader thread runs.
        var wake: (read: Int32, write: Int32)?
        var opened = false
        var closed = false
    }

    /// A transport that opens its stream with `opener`.
    public init(
        name: String, reconnects: Bool = true, connectTimeout: Double = 10, retryDelay: Double = 2,
        opener: @escaping Opener
    ) {
        deviceDescription = name
        self.reconnects = reconnects
        self.connectTimeout = connectTimeout
        self.retryDelay = retryDelay
        self.opener = opener
        (events, continuation) = AsyncStream.makeStream(of: LinkEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// A serial device in raw mode at `baudRate` (``SerialPort``): reopened after a loss.
    public static func serialPort(path: String, baudRate: Int = 115_200) -> ByteStreamTransport {
        ByteStreamTransport(name: path) { _ throws(ByteLinkError) -> Int32 in
            let port = SerialPort(path: path, baudRate: baudRate)
            try port.open()
            return port.detachDescriptor()
        }
    }

    /// A stream already connected (a socket pair's end, a descriptor from BlueZ's `Profile1.NewConnection`). The
    /// transport owns it from now on; after a loss it cannot be reopened, so the transport reports the loss and
    /// stops.
    public static func descriptor(_ descriptor: Int32, name: String) -> ByteStreamTransport {
        let handed = ThreadLocked<Int32?>(descriptor)
        return ByteStreamTransport(name: name, reconnects: false) { _ throws(ByteLinkError) -> Int32 in
            guard let fd = handed.withLock({ value -> Int32? in defer { value = nil }; return value }) else {
                throw .closed(endpoint: name)
            }
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
                throw .cannotOpen(endpoint: name, code: errno, reason: "not an open descriptor")
            }
            return fd
        }
    }

    // MARK: - DeviceTransport

    public func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) async throws(TransportError) {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, TransportError>, Never>) in
            start(notifications: notifications, receiver: receiver) { done.resume(returning: $0) }
        }
        try result.get()
    }

    public func openBlocking(notifications: [GATTCharacteristicID], receiver: any TransportReceiver)
        throws(TransportError)
    {
        let done = DispatchSemaphore(value: 0)
        let outcome = ThreadLocked<Result<Void, TransportError>>(.success(()))
        start(notifications: notifications, receiver: receiver) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        try outcome.withLock { $0 }.get()
    }

    /// A byte stream has no readable characteristics.
    public func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8] {
        throw .characteristicMissing(characteristic)
    }

    public func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        async throws(TransportError)
    {
        try writeBlocking(value, to: characteristic, withResponse: withResponse)
    }

    /// Writes to the stream, waiting at most ``connectTimeout`` for the device to take the bytes.
    public func writeBlocking(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        throws(TransportError)
    {
        guard characteristic == Self.stream else { throw .characteristicMissing(characteristic) }
        let failure = state.withLock { state -> TransportError? in
            if state.closed { return .closed }
            guard state.descriptor >= 0 else { return .notConnected }
            // Under the lock: the reader thread closes the descriptor under it too, so it is not reused mid-write.
            do throws(ByteLinkError) {
                try FileDescriptorIO(endpoint: deviceDescription, isSocket: Self.isSocket(state.descriptor))
                    .write(state.descriptor, value, deadline: HostClock.now() + connectTimeout)
                return nil
            } catch {
                return .operationFailed(error.description, cause: error)
            }
        }
        if let failure { throw failure }
    }

    public func close() async { closeBlocking() }

    public func closeBlocking() {
        let wake = state.withLock { state -> (read: Int32, write: Int32)?? in
            guard !state.closed else { return nil }
            state.closed = true
            return .some(state.wake)
        }
        guard let wake else { return }
        if let wake {
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
            stopped.wait()
            _ = Glibc.close(wake.read)
            _ = Glibc.close(wake.write)
        }
        continuation.yield(.closed)
        continuation.finish()
    }

    // MARK: - Reader thread

    private func start(
        notifications: [GATTCharacteristicID], receiver: any TransportReceiver,
        completion: @escaping @Sendable (Result<Void, TransportError>) -> Void
    ) {
        if let missing = notifications.first(where: { $0 != Self.stream }) {
            return completion(.failure(.characteristicMissing(missing)))
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            return completion(.failure(.operationFailed("pipe failed (errno \(errno))")))
        }
        let refusal = state.withLock { state -> TransportError? in
            if state.closed { return .closed }
            if state.opened { return .operationFailed("\(deviceDescription) is open already") }
            state.opened = true
            state.wake = (pipeEnds[0], pipeEnds[1])
            return nil
        }
        if let refusal {
            _ = Glibc.close(pipeEnds[0])
            _ = Glibc.close(pipeEnds[1])
            return completion(.failure(refusal))
        }
        let wake = pipeEnds[0]
        let thread = Thread { [self] in
            if run(receiver: receiver, wake: wake, completion: completion) { stopped.signal() }
        }
        thread.name = "axon-bytestream"
        thread.start()
    }

    private func report(_ event: LinkEvent, to receiver: any TransportReceiver) {
        continuation.yield(event)
        receiver.transport(didChange: event)
    }

    /// Connects (attempt `attempt`), reporting the steps; the descriptor or why not.
    private func connect(attempt: Int, receiver: any TransportReceiver) -> Result<Int32, ByteLinkError> {
        report(.connecting(attempt: attempt), to: receiver)
        do throws(ByteLinkError) {
            let fd = try opener(HostClock.now() + connectTimeout)
            state.withLock { $0.descriptor = fd }
            report(.connected, to: receiver)
            report(.notifying(Self.stream), to: receiver)
            report(.ready, to: receiver)
            return .success(fd)
        } catch {
            return .failure(error)
        }
    }

    /// The reader thread's body; whether ``closeBlocking()`` waits for it (it does unless the first connection
    /// failed before a close began: then the transport is left as if never opened).
    private func run(
        receiver: any TransportReceiver, wake: Int32,
        completion: @Sendable (Result<Void, TransportError>) -> Void
    ) -> Bool {
        var fd: Int32
        switch connect(attempt: 1, receiver: receiver) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error):
            let pipeEnds = state.withLock { state -> (read: Int32, write: Int32)? in
                guard !state.closed else { return nil }
                defer {
                    state.wake = nil
                    state.opened = false
                }
                return state.wake
            }
            if let pipeEnds {
                _ = Glibc.close(pipeEnds.read)
                _ = Glibc.close(pipeEnds.write)
            }
            completion(.failure(.connectFailed(error.description)))
            return pipeEnds == nil
        }
        completion(.success(()))
        let readBuffer = OwnedBuffer<UInt8>(repeating: 0, count: 4096)
        return readBuffer.withUnsafeMutableBufferPointer { bytes in
            let buffer = UnsafeMutableRawBufferPointer(bytes)
            while true {
                switch readOnce(fd, wake: wake, into: buffer) {
                case .bytes(let count):
                    receiver.transport(
                        didReceive: Array(buffer[0..<count]), from: Self.stream, arrivalTime: HostClock.now())
                    continue
                case .woken:
                    closeDescriptor()
                    receiver.transport(didChange: .closed)
                    return true
                case .lost(let reason):
                    closeDescriptor()
                    report(.linkLost(reason: reason), to: receiver)
                }
                guard reconnects, let next = reconnect(receiver: receiver, wake: wake) else {
                    waitForWake(wake, seconds: .infinity)
                    receiver.transport(didChange: .closed)
                    return true
                }
                fd = next
            }
        }
    }

    /// Tries again every ``retryDelay`` seconds until the stream opens (its descriptor) or the transport closes.
    private func reconnect(receiver: any TransportReceiver, wake: Int32) -> Int32? {
        var attempt = 1
        while true {
            if waitForWake(wake, seconds: attempt == 1 ? 0 : retryDelay) { return nil }
            switch connect(attempt: attempt, receiver: receiver) {
            case .success(let fd): return fd
            case .failure(let error):
                report(.connectFailed(reason: error.description, retryIn: retryDelay), to: receiver)
            }
            attempt += 1
        }
    }

    private enum ReadOutcome {
        case bytes(Int)
        case woken
        case lost(String)
    }

    private func readOnce(_ fd: Int32, wake: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        while true {
            var descriptors = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            do {
                _ = try SystemCall.retrying("poll") { poll(&descriptors, 2, -1) }
            } catch {
                return .lost("poll failed (errno \(error.code))")
            }
            if descriptors[1].revents != 0 { return .woken }
            let count: Int
            do {
                count = try SystemCall.retrying("read") { Glibc.read(fd, buffer.baseAddress!, buffer.count) }
            } catch {
                if error.code == EAGAIN { continue }
                return .lost("read from \(deviceDescription) failed (errno \(error.code))")
            }
            if count > 0 { return .bytes(count) }
            return .lost("\(deviceDescription) closed the stream")
        }
    }

    /// Waits until the wake-up pipe is written or `seconds` pass; whether it was written.
    @discardableResult
    private func waitForWake(_ wake: Int32, seconds: Double) -> Bool {
        let deadline = HostClock.now() + seconds
        var descriptor = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        let ready = try? SystemCall.retrying("poll") {
            // Computed again after a signal: the wait keeps its deadline.
            let left = deadline - HostClock.now()
            let milliseconds = seconds.isInfinite ? -1 : Int32(max(0, min(left * 1000, Double(Int32.max))).rounded(.up))
            return poll(&descriptor, 1, milliseconds)
        }
        // A failed poll reads as not woken, as a timeout does: the caller looks at its state again either way.
        return (ready ?? 0) > 0
    }

    private func closeDescriptor() {
        state.withLock { state in
            if state.descriptor >= 0 { _ = Glibc.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    private static func isSocket(_ fd: Int32) -> Bool {
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0
    }
}
