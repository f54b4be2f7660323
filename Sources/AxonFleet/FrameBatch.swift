import AxonStreams
import Foundation

/// A batch of one device's frames as it travels on `axon.raw.<partition>.<device>`: self-contained, so any
/// message can be decoded alone (a worker resuming from a checkpoint starts in the middle of a stream).
///
/// Headers: `Nats-Msg-Id` = `<device>.<epoch>.<firstFrame>`; `Axon-Device`; `Axon-Epoch` (the gateway session,
/// Unix ms at its start: a restarted gateway starts a new epoch); `Axon-First-Frame` (the session's frame count
/// before this batch); `Axon-Frames`; `Axon-Gaps` (`frame:missing:cause,…`, lost samples before a frame; absent when none);
/// `Axon-Descriptor` (the ``AxonStreams/StreamDescriptor`` as compact JSON). Body: per frame `time, counter, value…` as
/// little-endian `Float64` — time in Unix seconds (the device's clock when it has one), counter NaN when none.
/// Values travel as `Float64` so the worker sees exactly what the gateway saw.
///
/// Threading: a plain value, `Sendable`.
public struct FrameBatch: Sendable, Hashable {
    /// Lost samples before a frame of the batch.
    public struct Gap: Sendable, Hashable {
        /// Index of the frame they precede.
        public var beforeFrame: Int
        /// Samples lost.
        public var missing: Int
        /// Why.
        public var cause: GapRecord.Cause
        /// Creates a gap.
        public init(beforeFrame: Int, missing: Int, cause: GapRecord.Cause) {
            self.beforeFrame = beforeFrame
            self.missing = missing
            self.cause = cause
        }
    }

    /// Largest batch accepted (frames).
    public static let maxFrames = 4096
    /// Header keys a receiver reads.
    public static let headerKeys = [
        "Nats-Msg-Id", "Axon-Device", "Axon-Epoch", "Axon-First-Frame", "Axon-Frames", "Axon-Gaps", "Axon-Descriptor",
    ]

    /// The device.
    public var device: String
    /// The gateway session.
    public var epoch: UInt64
    /// Frames the session published before this batch.
    public var firstFrame: UInt64
    /// The stream.
    public var descriptor: StreamDescriptor
    /// Per frame: Unix time (s), counter (NaN if none), then the channel values.
    public var rows: [Double]
    /// Lost samples inside or before the batch.
    public var gaps: [Gap]

    /// Creates a batch.
    public init(
        device: String, epoch: UInt64, firstFrame: UInt64, descriptor: StreamDescriptor, rows: [Double], gaps: [Gap]
    ) {
        self.device = device
        self.epoch = epoch
        self.firstFrame = firstFrame
        self.descriptor = descriptor
        self.rows = rows
        self.gaps = gaps
    }

    /// Doubles per frame: time, counter, channels.
    public var rowWidth: Int { 2 + descriptor.channelCount }
    /// Frames in the batch.
    public var frameCount: Int { rows.count / rowWidth }
    /// The subject it is published on.
    public var subject: String { FleetSubjects.raw(device) }
    /// Its `Nats-Msg-Id`.
    public var messageID: String { "\(device).\(epoch).\(firstFrame)" }

    /// The message headers (without `Nats-Msg-Id`, which the publish sets).
    public func headers() -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let descriptorJSON = (try? encoder.encode(descriptor)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var headers = [
            "Axon-Device": device, "Axon-Epoch": String(epoch), "Axon-First-Frame": String(firstFrame),
            "Axon-Frames": String(frameCount), "Axon-Descriptor": descriptorJSON,
        ]
        // Only when there are gaps: libnats drops the headers that follow an empty value when it parses them.
        if !gaps.isEmpty {
            headers["Axon-Gaps"] = gaps.map { "\($0.beforeFrame):\($0.missing):\($0.cause.rawValue)" }.joined(separator: ",")
        }
        return headers
    }

    /// The body: the rows as little-endian `Float64`.
    public func body() -> [UInt8] { rows.withUnsafeBufferPointer { Float64LE.encode($0) } }

    /// Decodes a received message.
    ///
    /// - Throws: ``FleetError/badMessage(_:)`` saying what is wrong: a missing or malformed header, a device that
    ///   is not the subject's, a descriptor that does not decode, a body whose length is not the frames', a gap
    ///   outside the batch, a time that is not finite.
    public static func decode(_ message: NATSMessage) throws(FleetError) -> FrameBatch {
        let headers = message.headers
        func header(_ key: String) throws(FleetError) -> String {
            guard let value = headers[key] else { throw .badMessage("no \(key) header") }
            return value
        }
        let device = try header("Axon-Device")
        guard device == FleetSubjects.device(ofSubject: message.subject) else {
            throw .badMessage("Axon-Device \(device) on subject \(message.subject)")
        }
        guard let epoch = UInt64(try header("Axon-Epoch")), let first = UInt64(try header("Axon-First-Frame")),
            let frames = Int(try header("Axon-Frames")), (1...maxFrames).contains(frames)
        else { throw .badMessage("Axon-Epoch, Axon-First-Frame or Axon-Frames malformed or out of range") }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let descriptor: StreamDescriptor
        do {
            descriptor = try decoder.decode(StreamDescriptor.self, from: Data(try header("Axon-Descriptor").utf8))
        } catch let error as FleetError {
            throw error
        } catch {
            throw .json("undecodable raw message: Axon-Descriptor does not decode", cause: error)
        }
        guard descriptor.channelCount >= 1, descriptor.nominalRate > 0 else {
            throw .badMessage("the descriptor needs at least one channel and a nominal rate")
        }
        let width = 2 + descriptor.channelCount
        guard message.data.count == frames * width * 8 else {
            throw .badMessage("body of \(message.data.count) bytes; \(frames) frames of \(width) Float64 need \(frames * width * 8)")
        }
        let rows = Float64LE.decode(message.data)
        for frame in 0..<frames where !rows[frame * width].isFinite {
            throw .badMessage("frame \(frame) has no finite time")
        }
        var gaps: [Gap] = []
        for item in (headers["Axon-Gaps"] ?? "").split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 3, let before = Int(parts[0]), let missing = Int(parts[1]),
                let cause = GapRecord.Cause(rawValue: String(parts[2])), (0..<frames).contains(before), missing >= 0
            else { throw .badMessage("Axon-Gaps item \"\(item)\" malformed or outside the batch") }
            gaps.append(Gap(beforeFrame: before, missing: missing, cause: cause))
        }
        return FrameBatch(device: device, epoch: epoch, firstFrame: first, descriptor: descriptor, rows: rows, gaps: gaps)
    }
}

/// Rows of `Double` on the wire: little-endian IEEE 754 binary64, 8 bytes each, every bit kept.
enum Float64LE {
    static func encode(_ values: UnsafeBufferPointer<Double>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: values.count * 8)
        bytes.withUnsafeMutableBytes { raw in
            for (index, value) in values.enumerated() {
                raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: index * 8, as: UInt64.self)
            }
        }
        return bytes
    }

    /// The doubles of `bytes`; a trailing partial value is ignored (callers check the length first).
    static func decode(_ bytes: [UInt8]) -> [Double] {
        bytes.withUnsafeBytes { raw in
            (0..<(bytes.count / 8)).map {
                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)))
            }
        }
    }
}
