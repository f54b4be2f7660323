import AxonDevices
import AxonEventStore
import AxonRecording
import AxonStreams

/// Why a gateway call was refused or failed. Every case names its cause (the PID, the request id, the endpoint) in
/// ``description``; after any of them the gateway stays usable.
///
/// Threading: a value type; share freely.
public enum OBDGatewayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A service was called before a successful ``OBDGateway/authenticate(apiKey:issuedTo:)``.
    case notAuthenticated
    /// The validator refused the key (its code and message).
    case accessDenied(code: Int, message: String)
    /// No dongle is connected.
    case notConnected
    /// ``OBDGateway/connect(name:)`` with a name no scan has found.
    case unknownDevice(name: String)
    /// A PID number that is neither standard (0–255) nor one of Axon's custom PIDs.
    case unknownPID(Int)
    /// A continuous registration with more than 5 PIDs (the seed's limit); `count` is how many were asked.
    case tooManyPIDs(count: Int, limit: Int)
    /// A custom PID in a continuous registration: custom PIDs are read one request at a time.
    case customPIDNotRegistrable(pid: Int, name: String)
    /// A PID the vehicle does not support (its supported-PID bitmap says so), or one Axon has no formula for.
    case unsupportedPID(pid: Int, name: String)
    /// A registration with an empty PID list, or the same PID twice.
    case invalidRegistration(reason: String)
    /// The request id is already registered.
    case requestIDInUse(Int)
    /// No registration has this request id.
    case unknownRequestID(Int)
    /// More than 5 event kinds registered at once (the seed's limit).
    case tooManyEvents(count: Int, limit: Int)
    /// The rate is not a positive finite number of hertz, or is above what the gateway polls.
    case invalidRate(Double)
    /// The read succeeded but gives no value (fuel economy standing still).
    case noValue(pid: Int, reason: String)
    /// The dongle exchange failed.
    case adapter(ELM327Error)
    /// The event store failed.
    case store(EventStoreError)
    /// No event batch with this acknowledgement id is waiting.
    case unknownBatch(String)
    /// The stream pipeline for a registration, or a thread of the gateway's, could not start (a sink failed to open,
    /// the system refused a thread): the pipeline's error.
    case pipeline(PipelineError)
    /// A basic read arrived while `limit` reads were already waiting behind the one in flight on the basic channel
    /// (``OBDGateway/maximumQueuedBasicReads``): nothing was sent or queued; ask again once some have answered.
    case basicQueueFull(pid: Int, limit: Int)
    /// Events were to be logged (``OBDGateway/startEventLogging(_:)``, ``OBDLogger``) by a gateway without an event
    /// log to keep them in.
    case noEventLog
    /// A Bluetooth LE scan could not run: no stack was given that can discover devices (the reason says so).
    case bluetoothScan(String)
    /// A Bluetooth LE scan could not run: the stack refused (no bluetoothd on the bus), with its error.
    case bluetoothScanFailed(TransportError)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .notAuthenticated: return "the gateway is not authenticated: call authenticate first"
        case .accessDenied(let code, let message): return "access denied (\(code)): \(message)"
        case .notConnected: return "no OBD adapter is connected"
        case .unknownDevice(let name): return "no scanned device is named \"\(name)\""
        case .unknownPID(let pid): return "PID \(pid) is neither a standard PID (0–255) nor a custom PID"
        case .tooManyPIDs(let count, let limit):
            return "\(count) PIDs in one registration; at most \(limit) are allowed"
        case .customPIDNotRegistrable(let pid, let name):
            return "custom PID \(pid) (\(name)) cannot be registered for continuous updates; read it on request"
        case .unsupportedPID(let pid, let name): return "PID \(pid) (\(name)) is not supported by the vehicle"
        case .invalidRegistration(let reason): return "invalid registration: \(reason)"
        case .requestIDInUse(let id): return "request id \(id) is already registered"
        case .unknownRequestID(let id): return "no registration has request id \(id)"
        case .tooManyEvents(let count, let limit): return "\(count) events registered; at most \(limit) are allowed"
        case .invalidRate(let rate): return "invalid poll rate \(rate) Hz"
        case .noValue(let pid, let reason): return "PID \(pid) has no value: \(reason)"
        case .adapter(let error): return error.description
        case .store(let error): return error.description
        case .unknownBatch(let id): return "no event batch with acknowledgement id \(id) is waiting"
        case .pipeline(let error): return "the stream could not start: \(error)"
        case .basicQueueFull(let pid, let limit):
            return "basic channel full: PID \(pid) was asked while \(limit) reads were already waiting"
        case .noEventLog: return "the gateway has no event log to keep logged events in"
        case .bluetoothScan(let reason): return "no Bluetooth LE scan: \(reason)"
        case .bluetoothScanFailed(let error): return "no Bluetooth LE scan: \(error)"
        }
    }
}
