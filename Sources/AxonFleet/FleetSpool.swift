import Foundation

/// A gateway's bounded on-disk spool: the messages a broker outage kept from being published, one file each, in
/// the order they were made, replayed oldest first with their original `Nats-Msg-Id`. What a previous run left
/// behind is found again at start and replayed first.
///
/// File: `<epoch>-<firstFrame>.batch` (zero-padded, so names sort in stream order) holding a 4-byte little-endian
/// length, that many bytes of JSON (`subject`, `id`, `headers`), then the body.
///
/// Threading: one owner thread (the gateway's publishing thread).
public final class FleetSpool {
    /// One spooled message.
    public struct Record: Sendable, Hashable, Codable {
        /// Subject.
        public var subject: String
        /// `Nats-Msg-Id`.
        public var id: String
        /// Headers.
        public var headers: [String: String]
        /// Body (not in the JSON part of the file).
        public var body: [UInt8]

        enum CodingKeys: String, CodingKey { case subject, id, headers }

        /// Creates a record.
        public init(subject: String, id: String, headers: [String: String], body: [UInt8]) {
            self.subject = subject
            self.id = id
            self.headers = headers
            self.body = body
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            subject = try container.decode(String.self, forKey: .subject)
            id = try container.decode(String.self, forKey: .id)
            headers = try container.decode([String: String].self, forKey: .headers)
            body = []
        }
    }

    /// The spool's folder.
    public let directory: URL
    /// Bytes it may hold.
    public let limit: Int
    /// Bytes it holds.
    public private(set) var bytes = 0
    private var files: [(name: String, size: Int)] = []

    /// Opens (creating) the folder and indexes what a previous run left in it.
    ///
    /// - Throws: ``FleetError/spool(_:cause:)`` when the folder cannot be created or listed.
    public init(directory: URL, limit: Int) throws(FleetError) {
        self.directory = directory
        self.limit = limit
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".batch") }.sorted()
            for name in names {
                let size = (try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[
                    .size] as? NSNumber)?.intValue ?? 0
                files.append((name, size))
                bytes += size
            }
        } catch {
            throw .spool("cannot open \(directory.path): \(error.localizedDescription)", cause: error)
        }
    }

    /// Messages waiting.
    public var count: Int { files.count }
    /// Whether nothing waits.
    public var isEmpty: Bool { files.isEmpty }

    /// Appends a message under `name` (which must sort after every earlier one).
    ///
    /// - Returns: `false` when it does not fit under the limit: the caller counts it as dropped.
    /// - Throws: ``FleetError/spool(_:cause:)`` when the file cannot be written.
    public func append(_ record: Record, name: String) throws(FleetError) -> Bool {
        let json: Data
        do { json = try JSONEncoder().encode(record) } catch {
            throw .spool("cannot encode \(record.id): \(error)", cause: error)
        }
        let size = 4 + json.count + record.body.count
        guard bytes + size <= limit else { return false }
        var data = Data(capacity: size)
        withUnsafeBytes(of: UInt32(json.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(contentsOf: record.body)
        let fileName = name + ".batch"
        do {
            try data.write(to: directory.appendingPathComponent(fileName), options: .atomic)
        } catch {
            throw .spool("cannot write \(fileName): \(error.localizedDescription)", cause: error)
        }
        files.append((fileName, size))
        bytes += size
        return true
    }

    /// The oldest message, or `nil` when the spool is empty.
    ///
    /// - Throws: ``FleetError/spool(_:cause:)`` when its file cannot be read or is damaged (remove it with
    ///   ``removeOldest()`` to go on).
    public func oldest() throws(FleetError) -> Record? {
        guard let first = files.first else { return nil }
        let data: Data
        do { data = try Data(contentsOf: directory.appendingPathComponent(first.name)) } catch {
            throw .spool("cannot read \(first.name): \(error.localizedDescription)", cause: error)
        }
        guard data.count >= 4 else { throw .spool("\(first.name) is truncated") }
        let length = Int(data.prefix(4).withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
        guard data.count >= 4 + length else { throw .spool("\(first.name) is truncated") }
        do {
            var record = try JSONDecoder().decode(Record.self, from: data.subdata(in: 4..<(4 + length)))
            record.body = Array(data.suffix(from: data.startIndex + 4 + length))
            return record
        } catch {
            throw .spool("\(first.name) does not decode: \(error)", cause: error)
        }
    }

    /// Removes the oldest message (after it was published, or when it is damaged).
    public func removeOldest() throws(FleetError) {
        guard let first = files.first else { return }
        do { try FileManager.default.removeItem(at: directory.appendingPathComponent(first.name)) } catch {
            throw .spool("cannot remove \(first.name): \(error.localizedDescription)", cause: error)
        }
        files.removeFirst()
        bytes -= first.size
    }
}
