import AxonStreams
import CDBus
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A private connection to a D-Bus bus, owned by one thread.
///
/// libdbus misbehaves when one thread dispatches while another blocks in a call (calls stall for tens of
/// milliseconds or hang), so one *owner thread* is the only caller of libdbus I/O. It polls the connection's
/// socket together with an `eventfd`, sends what other threads queued, matches replies to calls by serial number,
/// runs timers and timeouts, and hands signals to handlers. Exit-on-disconnect is off: a bus that goes away ends
/// the connection with ``DBusFailure/disconnected`` for every waiting call, never the process.
///
/// Two ways in:
/// - from any thread or task: ``call(_:timeout:)`` (async), ``perform(_:)``;
/// - on the owner thread (inside ``perform(_:)``, a signal handler, a timer or a completion): ``send(_:timeout:completion:)``,
///   ``schedule(after:_:)``, ``addSignalHandler(_:)``, ``onDisconnect(_:)``. Code that keeps state between events
///   (the BlueZ central) lives on the owner thread and so needs no locks of its own.
///
/// Threading contract: `BusConnection` is `Sendable`; its owner-thread methods must only be called on the owner
/// thread (``isOwnerThread``). Handlers must not block: they run the loop.
public final class BusConnection: @unchecked Sendable {
    // Sendable invariant: `owner` is touched only on the owner thread; `inbox` is locked; the rest is immutable.

    /// Which bus to connect to.
    public enum Address: Sendable, Hashable, CustomStringConvertible {
        /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` if set (as libdbus's `dbus_bus_get` reads it), else the
        /// standard socket.
        case system
        /// An explicit address such as `unix:path=/tmp/bus`.
        case address(String)

        /// The same address without its `guid` keys: libdbus refuses a server whose guid differs from the one
        /// asked for, and a restarted daemon has a new one.
        public var anyServer: Address {
            let entries = resolved.split(separator: ";").map { entry -> String in
                guard let colon = entry.firstIndex(of: ":") else { return String(entry) }
                let keys = entry[entry.index(after: colon)...].split(separator: ",").filter { !$0.hasPrefix("guid=") }
                return entry[...colon] + keys.joined(separator: ",")
            }
            return .address(entries.joined(separator: ";"))
        }

        /// The address string libdbus opens.
        public var resolved: String {
            switch self {
            case .system:
                if let value = getenv("DBUS_SYSTEM_BUS_ADDRESS"), value.pointee != 0 { return String(cString: value) }
                return "unix:path=/run/dbus/system_bus_socket"
            case .address(let address): return address
            }
        }

        public var description: String { resolved }
    }

    /// The connection's unique bus name (`:1.42`).
    public let uniqueName: String
    /// The address it connected to.
    public let address: String

    private let connection: OpaquePointer
    private let wakeDescriptor: Int32
    /// The bus socket the owner thread polls.
    private let socketDescriptor: Int32
    private let inbox = ThreadLocked(Inbox())
    private let owner: OwnerState
    private let ownerCPUNanoseconds = Atomic<UInt64>(0)
    private let signalCount = Atomic<Int>(0)
    private let finished = ThreadLocked(false)
    private let finishedSignal = DispatchSemaphore(value: 0)
    private let endingState = ThreadLocked<Ending?>(nil)
    private var thread: WorkerThread?

    private struct Inbox {
        var work: [@Sendable () -> Void] = []
        var closed = false
    }

    /// Opens a private connection, registers on the bus and starts the owner thread.
    ///
    /// - Throws: ``DBusFailure/cannotConnect(address:reason:)``, ``DBusFailure/threadNotStarted(address:_:)``.
    public init(address: Address = .system) throws(DBusFailure) {
        let resolved = address.resolved
        self.address = resolved
        var error = DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_connection_open_private(resolved, &error) else {
            throw DBusFailure.consume(&error, address: resolved)
        }
        // Never let libdbus call exit() when the bus goes away.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw DBusFailure.consume(&error, address: resolved)
        }
        self.connection = connection
        self.uniqueName = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        var socket: Int32 = -1
        let wake = cdbus_wake_descriptor()
        guard wake >= 0, dbus_connection_get_unix_fd(connection, &socket) != 0, socket >= 0 else {
            let reason =
                wake < 0
                ? "\(SystemCallError(call: "eventfd", code: errno))" : "libdbus gives no socket to wait on"
            if wake >= 0 { close(wake) }
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw .cannotConnect(address: resolved, reason: reason)
        }
        self.wakeDescriptor = wake
        self.socketDescriptor = socket
        self.owner = OwnerState(connection: connection)
        do {
            thread = try WorkerThread(name: "dbus") { [self] in runLoop() }
        } catch {
            close(wakeDescriptor)
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw .threadNotStarted(address: resolved, error)
        }
    }

    deinit {
        shutDown()
        close(wakeDescriptor)
        dbus_connection_unref(connection)
    }

    /// Stops the owner thread and closes the connection; waiting calls fail with ``DBusFailure/disconnected``.
    /// Any thread but the owner thread; idempotent.
    public func shutDown() {
        let alreadyClosed = inbox.withLock { inbox in
            defer { inbox.closed = true }
            return inbox.closed
        }
        if !alreadyClosed { wake() }
        if let thread, !isOwnerThread {
            thread.join()
            self.thread = nil
        }
    }

    /// Whether the bus connection has ended (closed by ``shutDown()`` or lost).
    public var isFinished: Bool { finished.withLock { $0 } }

    /// Blocks until the owner thread has ended its loop (after ``shutDown()`` or a lost bus). Any thread but the
    /// owner thread.
    public func waitUntilFinished() {
        precondition(!isOwnerThread, "the owner thread would wait for itself")
        finishedSignal.wait()
        finishedSignal.signal()  // every other waiter passes too
    }

    /// How the connection ended, once it has.
    public enum Ending: Sendable, Hashable {
        /// ``shutDown()`` was called.
        case shutDown
        /// The bus closed the connection (the daemon went away or dropped this client).
        case lost
    }

    /// How the connection ended; `nil` while it runs.
    public var ending: Ending? { endingState.withLock { $0 } }

    /// CPU time the owner thread has used, in seconds (its `CLOCK_THREAD_CPUTIME_ID`, sampled every loop turn).
    public var ownerThreadCPUSeconds: Double { Double(ownerCPUNanoseconds.load(ordering: .relaxed)) / 1e9 }
    /// Signals received so far.
    public var signalsReceived: Int { signalCount.load(ordering: .relaxed) }

    // MARK: - Any thread

    /// Runs `work` on the owner thread, after the work queued before it. Returns `false` (and drops `work`) when
    /// the connection has ended.
    @discardableResult
    public func perform(_ work: @escaping @Sendable () -> Void) -> Bool {
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.closed else { return false }
            inbox.work.append(work)
            return true
        }
        if accepted { wake() }
        return accepted
    }

    /// Calls a method and waits for its reply's arguments.
    ///
    /// - Parameter timeout: seconds to wait for the reply.
    /// - Throws: ``DBusFailure/remote(name:message:)`` for an error reply, ``DBusFailure/timedOut(member:seconds:)``,
    ///   ``DBusFailure/disconnected``.
    public func call(_ call: DBusMethodCall, timeout: Double = 25) async throws(DBusFailure) -> [DBusValue] {
        let result = await HandOff<Result<[DBusValue], DBusFailure>>.await { deliver in
            let accepted = perform { [self] in
                send(call, timeout: timeout) { deliver($0) }
            }
            if !accepted { deliver(.failure(.disconnected)) }
        }
        return try result.get()
    }

    // MARK: - Owner thread

    /// Whether the caller runs on the owner thread.
    public var isOwnerThread: Bool { owner.threadID == pthread_self() }

    /// Sends a method call; `completion` runs on the owner thread with the reply's arguments or the failure.
    /// Owner thread only.
    public func send(
        _ call: DBusMethodCall, timeout: Double = 25,
        completion: @escaping (Result<[DBusValue], DBusFailure>) -> Void
    ) {
        owner.send(call, timeout: timeout, completion: completion)
    }

    /// Sends a call whose reply is not needed (fire and forget). Owner thread only.
    public func sendNoReply(_ call: DBusMethodCall) {
        owner.send(call, timeout: 25) { _ in }
    }

    /// Runs `action` on the owner thread after `seconds`. Returns an id for ``cancelTimer(_:)``. Owner thread only.
    @discardableResult
    public func schedule(after seconds: Double, _ action: @escaping () -> Void) -> Int {
        owner.schedule(after: seconds, action)
    }

    /// Cancels a timer that has not fired. Owner thread only.
    public func cancelTimer(_ id: Int) {
        owner.timers.removeAll { $0.id == id }
    }

    /// Adds a handler for every signal the connection receives (narrow what arrives with match rules). Returns an
    /// id for ``removeSignalHandler(_:)``. Owner thread only.
    @discardableResult
    public func addSignalHandler(_ handler: @escaping (DBusSignal) -> Void) -> Int {
        owner.nextHandlerID += 1
        owner.signalHandlers.append((owner.nextHandlerID, handler))
        return owner.nextHandlerID
    }

    /// Removes a signal handler. Owner thread only.
    public func removeSignalHandler(_ id: Int) {
        owner.signalHandlers.removeAll { $0.0 == id }
    }

    /// Exports an object at `path`: every method call to that path goes to `handler`, whose result is the reply
    /// (arguments, or a ``DBusFailure/remote(name:message:)`` error reply; other failures answer
    /// `org.freedesktop.DBus.Error.Failed`). Calls to paths nothing is exported at answer
    /// `org.freedesktop.DBus.Error.UnknownObject`. A `unixFD` argument is the handler's to close. Replaces an
    /// object exported at the same path. Owner thread only; the handler runs there and must not block.
    public func exportObject(path: String, _ handler: @escaping (DBusIncomingCall) -> Result<[DBusValue], DBusFailure>) {
        owner.objects[path] = handler
    }

    /// Stops exporting the object at `path`. Owner thread only.
    public func removeObject(path: String) {
        owner.objects[path] = nil
    }

    /// Adds a handler that runs once, on the owner thread, when the bus connection is lost or shut down.
    public func onDisconnect(_ handler: @escaping () -> Void) {
        owner.disconnectHandlers.append(handler)
    }

    /// Adds a match rule (`org.freedesktop.DBus.AddMatch`); `completion` runs when the bus has it. Owner thread only.
    public func addMatch(_ rule: String, completion: @escaping (Result<Void, DBusFailure>) -> Void = { _ in }) {
        send(
            DBusMethodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "AddMatch", arguments: [.string(rule)])
        ) { completion($0.map { _ in () }) }
    }

    // MARK: - The loop

    private func wake() {
        var one: UInt64 = 1
        do {
            _ = try SystemCall.retrying("write") { write(wakeDescriptor, &one, 8) }
        } catch where error.code == EAGAIN {
            // The counter is already set: the owner thread wakes either way.
        } catch {
            // The descriptor lives as long as the connection, so only a broken invariant gets here; the owner thread
            // still looks at its inbox within a second.
            assertionFailure("waking the D-Bus thread: \(error)")
        }
    }

    private func runLoop() {
        owner.threadID = pthread_self()
        var descriptors = [
            pollfd(fd: socketDescriptor, events: 0, revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var clock = timespec()
        while true {
            let (work, closed) = inbox.withLock { inbox in
                defer { inbox.work.removeAll(keepingCapacity: true) }
                return (inbox.work, inbox.closed)
            }
            for item in work { item() }
            if closed || dbus_connection_get_is_connected(connection) == 0 {
                endingState.withLock { $0 = closed ? .shutDown : .lost }
                break
            }

            dbus_connection_read_write(connection, 0)
            while let message = dbus_connection_pop_message(connection) {
                handle(message)
                dbus_message_unref(message)
            }
            owner.fireDue(now: HostClock.now())

            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &clock)
            ownerCPUNanoseconds.store(UInt64(clock.tv_sec) * 1_000_000_000 + UInt64(clock.tv_nsec), ordering: .relaxed)

            let pending = inbox.withLock { !$0.work.isEmpty || $0.closed }
            let moreQueued = dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS
            let waitMilliseconds: Int32 =
                pending || moreQueued ? 0 : Int32(min(1000, max(0, (owner.nextDeadline() - HostClock.now()) * 1000).rounded(.up)))
            descriptors[0].events = Int16(POLLIN) | (dbus_connection_has_messages_to_send(connection) != 0 ? Int16(POLLOUT) : 0)
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            do {
                _ = try SystemCall.retrying("poll") { poll(&descriptors, 2, waitMilliseconds) }
                if descriptors[1].revents != 0 {
                    var drained: UInt64 = 0
                    do {
                        _ = try SystemCall.retrying("read") { read(wakeDescriptor, &drained, 8) }
                    } catch where error.code == EAGAIN {
                        // Another wake-up's read already reset the counter.
                    }
                }
            } catch {
                // The loop cannot wait any more (poll's EINVAL or ENOMEM): end it as a lost connection, which every
                // caller already handles, rather than spin.
                endingState.withLock { $0 = .lost }
                break
            }
        }
        // Everything still queued or waiting learns that the connection is gone.
        let leftover = inbox.withLock { inbox in
            inbox.closed = true
            defer { inbox.work.removeAll() }
            return inbox.work
        }
        owner.isClosed = true
        for item in leftover { item() }
        owner.failAll()
        dbus_connection_close(connection)
        finished.withLock { $0 = true }
        finishedSignal.signal()
        for handler in owner.disconnectHandlers { handler() }
        owner.disconnectHandlers.removeAll()
        owner.signalHandlers.removeAll()
        owner.objects.removeAll()
        owner.timers.removeAll()
    }

    private func handle(_ message: OpaquePointer) {
        switch dbus_message_get_type(message) {
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN:
            owner.complete(serial: dbus_message_get_reply_serial(message), with: .success(DBusMessageReader.arguments(of: message)))
        case CDBUS_MESSAGE_TYPE_ERROR:
            let name = dbus_message_get_error_name(message).map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
            let text = DBusMessageReader.arguments(of: message).first?.stringValue ?? ""
            owner.complete(serial: dbus_message_get_reply_serial(message), with: .failure(.remote(name: name, message: text)))
        case CDBUS_MESSAGE_TYPE_SIGNAL:
            signalCount.add(1, ordering: .relaxed)
            let signal = DBusSignal(
                sender: dbus_message_get_sender(message).map { String(cString: $0) } ?? "",
                path: dbus_message_get_path(message).map { String(cString: $0) } ?? "",
                interface: dbus_message_get_interface(message).map { String(cString: $0) } ?? "",
                member: dbus_message_get_member(message).map { String(cString: $0) } ?? "",
                arguments: DBusMessageReader.arguments(of: message), arrivalTime: HostClock.now())
            for (_, handler) in owner.signalHandlers { handler(signal) }
        case CDBUS_MESSAGE_TYPE_METHOD_CALL:
            let path = dbus_message_get_path(message).map { String(cString: $0) } ?? ""
            guard let object = owner.objects[path] else {
                // Nothing exported at that path: say so, as a well-behaved peer does.
                if dbus_message_get_no_reply(message) == 0,
                    let reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownObject", "no object at \(path)")
                {
                    dbus_connection_send(connection, reply, nil)
                    dbus_message_unref(reply)
                }
                return
            }
            let call = DBusIncomingCall(
                sender: dbus_message_get_sender(message).map { String(cString: $0) } ?? "", path: path,
                interface: dbus_message_get_interface(message).map { String(cString: $0) } ?? "",
                member: dbus_message_get_member(message).map { String(cString: $0) } ?? "",
                arguments: DBusMessageReader.arguments(of: message))
            let result = object(call)
            guard dbus_message_get_no_reply(message) == 0 else { return }
            let reply: OpaquePointer?
            switch result {
            case .success(let values):
                reply = dbus_message_new_method_return(message)
                if let reply, !DBusMessageWriter.append(values, to: reply) {
                    dbus_message_unref(reply)
                    return
                }
            case .failure(.remote(let name, let text)): reply = dbus_message_new_error(message, name, text)
            case .failure(let failure): reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.Failed", "\(failure)")
            }
            if let reply {
                dbus_connection_send(connection, reply, nil)
                dbus_message_unref(reply)
            }
        default:
            break
        }
    }
}

/// The owner thread's state: waiting calls, timers, handlers. Confined to that thread.
private final class OwnerState: @unchecked Sendable {
    struct Waiting {
        let member: String
        let timeout: Double
        let deadline: Double
        let completion: (Result<[DBusValue], DBusFailure>) -> Void
    }
    struct Timer {
        let id: Int
        let deadline: Double
        let action: () -> Void
    }

    let connection: OpaquePointer
    var threadID: pthread_t?
    var waiting: [UInt32: Waiting] = [:]
    var timers: [Timer] = []
    var nextTimerID = 0
    var signalHandlers: [(Int, (DBusSignal) -> Void)] = []
    var nextHandlerID = 0
    var disconnectHandlers: [() -> Void] = []
    var objects: [String: (DBusIncomingCall) -> Result<[DBusValue], DBusFailure>] = [:]
    var isClosed = false

    init(connection: OpaquePointer) { self.connection = connection }

    func send(_ call: DBusMethodCall, timeout: Double, completion: @escaping (Result<[DBusValue], DBusFailure>) -> Void) {
        guard !isClosed else { return completion(.failure(.disconnected)) }
        guard let message = dbus_message_new_method_call(call.destination, call.path, call.interface, call.member) else {
            return completion(.failure(.cannotBuildMessage(member: call.name)))
        }
        defer { dbus_message_unref(message) }
        guard DBusMessageWriter.append(call.arguments, to: message) else {
            return completion(.failure(.cannotBuildMessage(member: call.name)))
        }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, message, &serial) != 0 else {
            return completion(.failure(.cannotBuildMessage(member: call.name)))
        }
        waiting[serial] = Waiting(member: call.name, timeout: timeout, deadline: HostClock.now() + timeout, completion: completion)
    }

    func complete(serial: UInt32, with result: Result<[DBusValue], DBusFailure>) {
        guard let entry = waiting.removeValue(forKey: serial) else { return }
        entry.completion(result)
    }

    func schedule(after seconds: Double, _ action: @escaping () -> Void) -> Int {
        nextTimerID += 1
        timers.append(Timer(id: nextTimerID, deadline: HostClock.now() + max(0, seconds), action: action))
        return nextTimerID
    }

    func nextDeadline() -> Double {
        var next = Double.infinity
        for timer in timers { next = min(next, timer.deadline) }
        for entry in waiting.values { next = min(next, entry.deadline) }
        return next
    }

    func fireDue(now: Double) {
        if !waiting.isEmpty {
            let expired = waiting.filter { $0.value.deadline <= now }
            for (serial, entry) in expired {
                waiting[serial] = nil
                entry.completion(.failure(.timedOut(member: entry.member, seconds: entry.timeout)))
            }
        }
        guard timers.contains(where: { $0.deadline <= now }) else { return }
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        timers.removeAll { $0.deadline <= now }
        for timer in due { timer.action() }
    }

    func failAll() {
        let all = waiting
        waiting.removeAll()
        for entry in all.values { entry.completion(.failure(.disconnected)) }
    }
}
