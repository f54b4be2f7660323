/// A signal received on the bus, with its arguments read.
///
/// Threading: a value type; delivered on the connection's owner thread.
public struct DBusSignal: Sendable {
    /// The sender's unique name (`:1.7`), never the well-known one.
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
    /// Host monotonic time (``AxonStreams/HostClock``) at which the owner thread read it from the socket.
    public var arrivalTime: Double
}

/// A method call to an object this connection exports (``BusConnection/exportObject(path:_:)``), with its
/// arguments read.
///
/// Threading: a value type; delivered on the connection's owner thread.
public struct DBusIncomingCall: Sendable {
    /// The caller's unique name (`:1.3`).
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// A method call to send.
public struct DBusMethodCall: Sendable, Hashable {
    public var destination: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// `Interface.Member`, for messages.
    public var name: String { "\(interface).\(member)" }
}
