import AxonStreams
import CDBus

/// Why a D-Bus operation failed.
public enum DBusFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bus could not be reached (no daemon at the address, authentication refused…).
    case cannotConnect(address: String, reason: String)
    /// The bus was reached but the connection's own thread could not be started.
    case threadNotStarted(address: String, PipelineError)
    /// The connection to the bus is gone; nothing more can be sent on it.
    case disconnected
    /// No reply within the call's timeout.
    case timedOut(member: String, seconds: Double)
    /// The peer answered with a D-Bus error (`org.bluez.Error.Failed`, `org.freedesktop.DBus.Error.ServiceUnknown`…).
    case remote(name: String, message: String)
    /// The reply did not have the arguments the caller needs.
    case unexpectedReply(member: String, signature: String)
    /// libdbus could not build the message (out of memory).
    case cannotBuildMessage(member: String)

    /// The D-Bus error name for ``remote(name:message:)``, else `nil`.
    public var remoteName: String? {
        if case .remote(let name, _) = self { return name }
        return nil
    }

    public var description: String {
        switch self {
        case .cannotConnect(let address, let reason): "cannot connect to the D-Bus bus at \(address): \(reason)"
        case .threadNotStarted(let address, let error): "cannot start the D-Bus thread for \(address): \(error)"
        case .disconnected: "the D-Bus connection is closed"
        case .timedOut(let member, let seconds): "\(member): no reply within \(seconds) s"
        case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .unexpectedReply(let member, let signature): "\(member): unexpected reply signature '\(signature)'"
        case .cannotBuildMessage(let member): "\(member): cannot build the D-Bus message"
        }
    }

    /// Takes the error out of a libdbus `DBusError` and frees it.
    static func consume(_ error: inout DBusError, address: String) -> DBusFailure {
        defer { dbus_error_free(&error) }
        let name = error.name.map { String(cString: $0) } ?? "unknown"
        let message = error.message.map { String(cString: $0) } ?? ""
        return .cannotConnect(address: address, reason: "\(name): \(message)")
    }
}
