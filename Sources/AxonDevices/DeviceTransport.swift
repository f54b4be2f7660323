import Dispatch
import AxonStreams

/// How a device adapter reaches its device: a link that carries GATT-style notifications, reads and writes, and
/// keeps itself up (reconnecting after link loss) until it is closed.
///
/// The same adapter runs over BlueZ (`AxonBluetooth.BlueZTransport`), over a simulator, or over a replay of
/// recorded notifications.
///
/// Threading contract: the methods may be called from any task. The receiver's methods are called on the
/// transport's one delivery thread, notifications and link events in the order they happened, so a receiver can
/// be the single producer of a stream (its `FrameWriter`). They must not block.
public protocol DeviceTransport: AnyObject, Sendable {
    /// The device as the transport names it (name and address for BlueZ, a label for a replay).
    var deviceDescription: String { get }

    /// Link events for the transport's lifetime (also delivered to the receiver). One consumer.
    var events: AsyncStream<LinkEvent> { get }

    /// Connects and turns on notifications of `notifications`, handing every value and link event to `receiver`.
    /// Returns once data flows. After that the transport keeps the link up by itself: after a link loss it
    /// reconnects and resumes notifications, reporting each step as a ``LinkEvent``.
    ///
    /// - Throws: ``TransportError`` if the first connection cannot be made within the transport's timeout.
    func open(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) async throws(TransportError)

    /// Reads a characteristic's value.
    func read(_ characteristic: GATTCharacteristicID) async throws(TransportError) -> [UInt8]

    /// Writes a characteristic's value, with a response (`request`) or without (`command`).
    func write(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool) async throws(TransportError)

    /// Stops notifications, disconnects and ends ``events``. After it returns the receiver hears nothing more.
    func close() async

    /// ``open(notifications:receiver:)`` for a synchronous caller (a device or source thread). Transports that can
    /// block without Swift's cooperative thread pool do so: that pool may be held by blocking work elsewhere.
    func openBlocking(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) throws(TransportError)
    /// ``read(_:)`` for a synchronous caller.
    func readBlocking(_ characteristic: GATTCharacteristicID) throws(TransportError) -> [UInt8]
    /// ``write(_:to:withResponse:)`` for a synchronous caller.
    func writeBlocking(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        throws(TransportError)
    /// ``close()`` for a synchronous caller.
    func closeBlocking()
}

extension DeviceTransport {
    /// Bridges to the async form through a task; transports with a thread of their own do better.
    public func openBlocking(notifications: [GATTCharacteristicID], receiver: any TransportReceiver) throws(TransportError) {
        try waitForTask { () async -> Result<Void, TransportError> in
            do throws(TransportError) { try await self.open(notifications: notifications, receiver: receiver) } catch {
                return .failure(error)
            }
            return .success(())
        }.get()
    }

    /// Bridges to the async form through a task.
    public func readBlocking(_ characteristic: GATTCharacteristicID) throws(TransportError) -> [UInt8] {
        try waitForTask { () async -> Result<[UInt8], TransportError> in
            do throws(TransportError) { return .success(try await self.read(characteristic)) } catch { return .failure(error) }
        }.get()
    }

    /// Bridges to the async form through a task.
    public func writeBlocking(_ value: [UInt8], to characteristic: GATTCharacteristicID, withResponse: Bool)
        throws(TransportError)
    {
        try waitForTask { () async -> Result<Void, TransportError> in
            do throws(TransportError) {
                try await self.write(value, to: characteristic, withResponse: withResponse)
            } catch { return .failure(error) }
            return .success(())
        }.get()
    }

    /// Bridges to the async form through a task.
    public func closeBlocking() {
        waitForTask { await self.close() }
    }
}

/// Runs async work from a synchronous thread and waits for it.
@discardableResult
func waitForTask<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let box = ThreadLocked<T?>(nil)
    Task.detached {
        let value = await work()
        box.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return box.withLock { $0! }
}

/// The adapter side of a ``DeviceTransport``.
///
/// Threading contract: called on the transport's delivery thread only, one call at a time; must not block.
public protocol TransportReceiver: AnyObject, Sendable {
    /// One notification's value, with the host monotonic time it arrived.
    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double)
    /// A link event, in order with the notifications around it.
    func transport(didChange event: LinkEvent)
}

/// Why a transport operation failed.
///
/// Equality and hashing compare ``description``: ``operationFailed(_:cause:)`` keeps the stack's error as a value.
public enum TransportError: Error, Sendable, EquatableByDescription {
    /// No device matching the request was found in time.
    case deviceNotFound(String)
    /// The device did not connect, or its services did not resolve, in time.
    case connectFailed(String)
    /// The device has no such characteristic.
    case characteristicMissing(GATTCharacteristicID)
    /// The link is down right now (a read or write during an outage).
    case notConnected
    /// The operation itself failed: the stack's error name and message, and the error it threw when there was one
    /// (a D-Bus error, a byte link's error); the sentence already includes its text.
    case operationFailed(String, cause: (any Error)? = nil)
    /// The transport was closed.
    case closed

    public var description: String {
        switch self {
        case .deviceNotFound(let what): "no device matching \(what) was found"
        case .connectFailed(let why): "cannot connect: \(why)"
        case .characteristicMissing(let id): "the device has no characteristic \(id)"
        case .notConnected: "the device is not connected"
        case .operationFailed(let why, _): why
        case .closed: "the transport is closed"
        }
    }
}
