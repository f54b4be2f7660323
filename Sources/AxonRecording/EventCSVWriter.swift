import AxonStreams
import Foundation

/// Writes an event stream (an irregular stream of typed payloads: scale readings, OBD events, status changes,
/// recording markers) as CSV, one row per event, flushed after every event so a crash loses none already written.
///
///     # axon-events-csv 1
///     # descriptor {"channels":[…],"contentType":"Weight",…}
///     host_time,device_time,counter,payload
///     1763800000.512,1763800000.5,17,"{""impedance"":512,""kg"":71.4}"
///
/// - `host_time`: the event's arrival, as Unix seconds (``AxonStreams/EventSample/arrivalTime`` is host monotonic; the
///   writer adds the wall-clock offset measured when it opened).
/// - `device_time`, `counter`: the device's, empty when it gives none.
/// - `payload`: the payload as JSON (`JSONEncoder`, sorted keys), quoted for CSV.
///
/// Threading: one owning thread; not `Sendable`. Not for a real-time loop (it encodes JSON and writes per event).
public final class EventCSVWriter {
    /// The first line.
    public static let signature = "# axon-events-csv 1"
    /// The header row.
    public static let headerRow = "host_time,device_time,counter,payload"

    /// The file.
    public let path: String
    /// Events written.
    public private(set) var count = 0
    private var fd: Int32
    private let encoder: JSONEncoder
    private let wallClockOffset: Double

    /// Creates (or truncates) `path` and writes the signature, the descriptor and the header row.
    ///
    /// - Throws: ``EDFWriterError/cannotCreate(path:errno:)``, ``EDFWriterError/writeFailed(path:operation:errno:)``,
    ///   or ``EDFWriterError/notEncodable(_:cause:)`` when the descriptor cannot be encoded.
    public init(path: String, descriptor: StreamDescriptor) throws(EDFWriterError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json: String
        do { json = String(decoding: try encoder.encode(descriptor), as: UTF8.self) } catch {
            throw .notEncodable("the descriptor", cause: error)
        }
        self.path = path
        self.encoder = encoder
        self.wallClockOffset = HostClock.wallClockOffset()
        self.fd = try PosixFile.create(path)
        try write(Self.signature + "\n" + AxonCSVFormat.descriptorPrefix + json + "\n" + Self.headerRow + "\n")
    }

    deinit {
        if fd >= 0 { PosixFile.discard(fd) }
    }

    /// Appends one event and writes it through to the file.
    ///
    /// - Throws: ``EDFWriterError/notEncodable(_:cause:)`` if the payload cannot be encoded (nothing is
    ///   written), ``EDFWriterError/writeFailed(path:operation:errno:)``, ``EDFWriterError/closed(path:)``.
    public func append<Payload: Encodable>(_ event: EventSample<Payload>) throws(EDFWriterError) {
        guard fd >= 0 else { throw .closed(path: path) }
        let payload: String
        do { payload = String(decoding: try encoder.encode(event.payload), as: UTF8.self) } catch {
            throw .notEncodable("the event payload", cause: error)
        }
        let deviceTime = event.deviceTime.map { "\($0)" } ?? ""
        let counter = event.counter.map { "\($0)" } ?? ""
        let quoted = "\"" + payload.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        try write("\(event.arrivalTime + wallClockOffset),\(deviceTime),\(counter),\(quoted)\n")
        count += 1
    }

    /// Flushes to stable storage (`fsync`) and closes the file. Further appends throw ``EDFWriterError/closed(path:)``.
    public func close() throws(EDFWriterError) {
        guard fd >= 0 else { return }
        let descriptor = fd
        fd = -1
        try PosixFile.synchronize(descriptor, path: path)
        try PosixFile.close(descriptor, path: path)
    }

    private func write(_ text: String) throws(EDFWriterError) {
        let bytes = Array(text.utf8)
        let written: Result<Void, EDFWriterError> = bytes.withUnsafeBytes { raw in
            Result { () throws(EDFWriterError) in try PosixFile.writeAll(fd, raw, path: path, operation: "write") }
        }
        try written.get()
    }
}
