import AxonMemory
import AxonStreams
import Foundation

/// Writes any regular stream as Axon CSV (``AxonCSVFormat``): the signature and the descriptor, a header row, then
/// one row per sample.
///
///     # axon-csv 1
///     # descriptor {"channels":[…],"contentType":"EEG",…}
///     sample,host_time,device_time,counter,T3 (µV),O1 (µV),T4 (µV),O2 (µV)
///     0,1763845200.123456,0.0,0,12.5,-3.25,7.0,0.4
///
/// - `sample`: the sample index in the file (0, 1, 2, …; lost samples leave a jump, as the gap records say).
/// - `host_time`: the dejittered host time as Unix seconds.
/// - `device_time`, `counter`: the device's, or empty when it gives none.
/// - values: the shortest decimal that reads back as the same `Double`, in the channel's unit.
/// Missing samples are not filled (CSV has no continuity to keep); the indices jump instead.
///
/// Buffered in memory and flushed with one `write` whenever 64 KiB have collected and at ``close()``; with
/// `flushInterval` (seconds of stream time) it also flushes at least that often.
///
/// Threading contract: the ``AxonStreams/SampleSink`` contract (consumer thread); not `Sendable`. Rows collect in a
/// preallocated buffer; numbers are formatted with Swift's `description` (a value longer than 15 characters costs
/// a short-lived string), so this sink is simple rather than allocation-free.
public final class CSVSink: SampleSink {
    /// `csv:<path>`.
    public let name: String
    /// The file.
    public let path: String
    /// Seconds of stream time between flushes at most.
    public let flushInterval: Double
    /// De-identification (``Anonymization``): the descriptor line without the source's name, id and header fields,
    /// `host_time` and a `device_time` that is a date moved by its days; nil writes them as they come.
    public let anonymization: Anonymization?

    private var fd: Int32 = -1
    private let buffer = OwnedBuffer<UInt8>(repeating: 0, count: CSVSink.bufferSize)
    private var used = 0
    private var nextIndex = 0
    private var wallClockOffset = 0.0
    private var lastFlushTime = -Double.infinity
    private static let bufferSize = 1 << 16

    /// Creates a sink that writes `path` (created or truncated at `open`).
    public init(path: String, flushInterval: Double = 1, anonymization: Anonymization? = nil) {
        self.name = "csv:\(path)"
        self.path = path
        self.flushInterval = flushInterval
        self.anonymization = anonymization
    }

    deinit {
        if fd >= 0 { PosixFile.discard(fd) }
    }

    /// The header row's column names for a descriptor (``AxonCSVFormat``).
    public static func columns(for descriptor: StreamDescriptor) -> [String] {
        AxonCSVFormat.fixedColumns + descriptor.channels.map(AxonCSVFormat.columnName(for:))
    }

    /// Creates the file and writes the header row.
    public func open(_ descriptor: StreamDescriptor) throws {
        guard descriptor.isRegular else { throw EDFWriterError.unsupportedStream(reason: "CSV needs a regular stream") }
        fd = try PosixFile.create(path)
        wallClockOffset = HostClock.wallClockOffset()
        // Axon CSV (``AxonCSVFormat``): the signature, the descriptor as one line of JSON, then the header row, so
        // `AxonCSVReader` (and `axon info`, `replay`, `convert`) read back what this sink writes.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json: String
        let shown = anonymization.descriptor(descriptor)
        do { json = String(decoding: try encoder.encode(shown), as: UTF8.self) } catch {
            throw EDFWriterError.notEncodable("the descriptor", cause: error)
        }
        var text = AxonCSVFormat.signature + "\n" + AxonCSVFormat.descriptorPrefix + json + "\n"
            + Self.columns(for: descriptor).map(Self.quoted).joined(separator: ",") + "\n"
        try text.withUTF8 { try writeAll(UnsafeRawBufferPointer($0)) }
    }

    /// Appends one row per frame.
    public func write(_ block: SampleBlock) throws {
        guard fd >= 0 else { return }
        let channels = block.layout.channelCount
        let gaps = block.gaps
        var gapIndex = 0
        for frame in 0..<block.frameCount {
            // Lost samples before this frame: the index jumps over them.
            while gapIndex < gaps.count, gaps[gapIndex].beforeFrame <= frame {
                nextIndex += gaps[gapIndex].gap.missingCount
                gapIndex += 1
            }
            // Room for the longest row: 4 header numbers + channels values of ≤ 32 characters.
            if used + 32 * (channels + 4) > buffer.count { try flushBuffer() }  // a Double prints in ≤ 24 bytes
            append(String(nextIndex))
            append(",")
            append(anonymization.shifted(block.timestamp(ofFrame: frame) + wallClockOffset).description)
            append(",")
            if let device = block.deviceTime(ofFrame: frame) { append(anonymization.shifted(device).description) }
            append(",")
            if let counter = block.counter(ofFrame: frame) { append(String(counter)) }
            for channel in 0..<channels {
                append(",")
                append(block.value(ofFrame: frame, channel: channel).description)
            }
            append("\n")
            nextIndex += 1
        }
        if let last = block.frameCount > 0 ? block.timestamp(ofFrame: block.frameCount - 1) : nil,
            last - lastFlushTime >= flushInterval
        {
            try flushBuffer()
            lastFlushTime = last
        }
    }

    /// Flushes and closes the file.
    public func close() throws {
        guard fd >= 0 else { return }
        let descriptor = fd
        fd = -1
        do {
            try flushBufferTo(descriptor)
            try PosixFile.synchronize(descriptor, path: path)
        } catch {
            PosixFile.discard(descriptor)
            throw error
        }
        try PosixFile.close(descriptor, path: path)
    }

    private func append(_ character: Unicode.Scalar) {
        buffer[used] = UInt8(character.value)
        used += 1
    }
    private func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let start = used
            buffer.withUnsafeMutableBufferPointer { buffer in
                UnsafeMutableRawBufferPointer(start: buffer.baseAddress! + start, count: utf8.count).copyMemory(
                    from: UnsafeRawBufferPointer(utf8))
            }
            used += utf8.count
        }
    }

    private func flushBuffer() throws { try flushBufferTo(fd) }

    private func flushBufferTo(_ descriptor: Int32) throws(EDFWriterError) {
        guard used > 0 else { return }
        let (filled, path) = (used, path)
        try buffer.withUnsafeBufferPointer { (buffer) throws(EDFWriterError) in
            try PosixFile.writeAll(
                descriptor, UnsafeRawBufferPointer(start: buffer.baseAddress, count: filled), path: path,
                operation: "write")
        }
        used = 0
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        try PosixFile.writeAll(fd, bytes, path: path, operation: "write")
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
