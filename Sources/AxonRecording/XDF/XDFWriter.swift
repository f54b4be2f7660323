import AxonStreams
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes an XDF 1.0 file: several streams (EEG, markers, spectra, zones, other sensors) in one session.
///
/// - The file starts with the magic and a FileHeader; each stream gets a StreamHeader with its full metadata
///   (name, type, channel count, nominal rate, format, source id, and `desc/channels/channel/{label,unit,type}`).
/// - Samples go in Samples chunks, each sample with its timestamp on the stream's own clock, as LabRecorder keeps
///   them: Axon's monotonic host time (= LSL time) for Axon's streams, the outlet's clock for a stream from an LSL
///   inlet (its host time minus the inlet's time correction). A ClockOffset chunk at least every half
///   ``boundaryInterval`` of stream time carries the offset given with the samples (the time correction; 0 for
///   Axon's own streams), so readers that synchronise clocks (pyxdf) get the host times back.
/// - A Boundary chunk follows at least every ``boundaryInterval`` seconds of stream time, and the file is
///   `fdatasync`ed there.
/// - ``close()`` writes each stream's StreamFooter (first and last timestamp, sample count, clock offsets).
///
/// Crash tolerance: every chunk is built in memory and handed to the kernel whole by one `write`, so a process
/// killed with SIGKILL leaves every chunk it wrote complete (a power loss may lose what came after the last
/// boundary's `fdatasync`). What a kill costs: the samples still in the pipeline's ring and not yet written, and the
/// footers; readers (pyxdf, ``XDFReader``) take a file without footers. See docs/xdf.md.
///
///     let writer = try XDFWriter(path: "session.xdf")
///     let eeg = try writer.addStream(descriptor)
///     try writer.appendSamples(stream: eeg, timestamps: times, values: frameMajorValues)
///     try writer.close()
///
/// Threading contract: any thread; chunks are written under one lock, so streams fed from different threads
/// (one pipeline's consumer thread each) interleave whole chunks. Building a chunk happens outside the lock.
public final class XDFWriter: @unchecked Sendable {
    // Sendable invariant: all mutable state lives in `state`, behind its lock.

    /// The file.
    public let path: String
    /// Seconds of stream time between boundary chunks.
    public let boundaryInterval: Double
    /// De-identification of the file's headers, or nil.
    public let anonymization: Anonymization?

    struct Stream {
        var descriptor: StreamDescriptor
        var format: XDFChannelFormat
        var first = Double.nan
        var last = Double.nan
        var count = 0
        var offsets: [(time: Double, value: Double)] = []
        var nextOffset = -Double.infinity
    }

    struct State {
        var fd: Int32
        var streams: [Stream] = []
        var nextBoundary = -Double.infinity
        var closed = false
        var chunks = 0
        var boundaries = 0
    }

    private let state: ThreadLocked<State>

    /// The FileHeader element that says what to add to the file's timestamps (on this machine's clock) for Unix
    /// time: `unix_time_offset` (Axon's; other readers ignore it, ``XDFReader`` uses it for the recording's start).
    public static let unixTimeOffsetElement = "unix_time_offset"

    /// Creates the file and writes the magic and the FileHeader.
    ///
    /// - Parameter unixTimeOffset: what to add to the timestamps of this machine's clock for Unix time, written in
    ///   the FileHeader (``unixTimeOffsetElement``) so the recording's start survives: by default this machine's
    ///   monotonic-to-Unix offset now (Axon's streams are stamped on the monotonic clock); 0 for timestamps that are
    ///   Unix times already; `nil` writes none, and no `datetime` either (a recording whose start is unknown).
    /// - Parameter anonymization: de-identifies the file (``Anonymization``): every stream header without
    ///   `hostname`, with the de-identified name and `source_id` `anonymous`; `datetime` and `unix_time_offset`
    ///   moved by its days. The timestamps are the caller's: they must not be Unix times then (give times from the
    ///   start and the start as `unixTimeOffset`, as ``XDFConversion`` does), and markers are the caller's to drop.
    /// - Throws: ``EDFWriterError/cannotCreate(path:errno:)`` or ``EDFWriterError/writeFailed(path:operation:errno:)``.
    public init(
        path: String, boundaryInterval: Double = 10, unixTimeOffset: Double? = HostClock.wallClockOffset(),
        anonymization: Anonymization? = nil
    ) throws {
        precondition(boundaryInterval > 0)
        self.path = path
        self.boundaryInterval = boundaryInterval
        self.anonymization = anonymization
        let fd = try PosixFile.create(path)
        var bytes = XDFChunk.magic
        // Without an offset the recording has no date: no datetime either, which readers would take for its start.
        let shift = anonymization?.shiftSeconds ?? 0
        let dated = unixTimeOffset.map {
            "<datetime>\(Self.isoNow(shift: shift))</datetime>"
                + "<\(Self.unixTimeOffsetElement)>\($0 + shift)</\(Self.unixTimeOffsetElement)>"
        }
        let header =
            "<?xml version=\"1.0\"?><info><version>1.0</version>\(dated ?? "")<writer>Axon</writer></info>"
        XDFChunk.append(tag: .fileHeader, content: ArraySlice(header.utf8), to: &bytes)
        do {
            try bytes.withUnsafeBytes { raw in
                try PosixFile.writeAll(fd, raw, path: path, operation: "write XDF header")
            }
        } catch {
            PosixFile.discard(fd)
            throw error
        }
        state = ThreadLocked(State(fd: fd))
    }

    deinit {
        state.withLock { if !$0.closed { PosixFile.discard($0.fd) } }
    }

    /// Adds a stream and writes its StreamHeader; returns its stream id (1, 2, …).
    ///
    /// - Throws: ``EDFWriterError`` when the write fails or the file is closed.
    @discardableResult
    public func addStream(_ descriptor: StreamDescriptor) throws -> UInt32 {
        let format = XDFChannelFormat(descriptor.format)
        let shown = anonymization.descriptor(descriptor)
        return try appendStream(
            descriptor, format: format, headerXML: Self.headerXML(shown, format: format, withHost: anonymization == nil))
    }

    /// Adds a stream whose StreamHeader is given whole: an LSL outlet's full info as `lsl_get_xml` returns it, which
    /// is what LabRecorder writes (every element of the outlet's `desc` kept). `descriptor` gives the shape the
    /// samples are checked against (its channel count); `format` is how the values are stored and must be the
    /// header's `channel_format`. Returns the stream id (1, 2, …).
    ///
    /// - Throws: ``EDFWriterError`` when the write fails or the file is closed, or
    ///   ``EDFWriterError/unsupportedStream(reason:)`` for an anonymizing writer (a verbatim header names hosts).
    @discardableResult
    public func addStream(_ descriptor: StreamDescriptor, format: XDFChannelFormat, headerXML: String) throws
        -> UInt32
    {
        guard anonymization == nil else {
            throw EDFWriterError.unsupportedStream(
                reason: "an anonymized XDF file cannot take a verbatim stream header")
        }
        return try appendStream(descriptor, format: format, headerXML: headerXML)
    }

    /// Registers a stream and writes its StreamHeader chunk with `headerXML`; returns its id (1, 2, …).
    private func appendStream(_ descriptor: StreamDescriptor, format: XDFChannelFormat, headerXML: String) throws
        -> UInt32
    {
        try state.withLock { state -> UInt32 in
            guard !state.closed else { throw EDFWriterError.closed(path: path) }
            state.streams.append(Stream(descriptor: descriptor, format: format))
            let id = UInt32(state.streams.count)
            var content: [UInt8] = []
            XDFChunk.appendLittleEndian(id, to: &content)
            content.append(contentsOf: headerXML.utf8)
            var bytes: [UInt8] = []
            XDFChunk.append(tag: .streamHeader, content: content[...], to: &bytes)
            try write(bytes, state: &state, operation: "write XDF stream header")
            return id
        }
    }

    /// Writes a ClockOffset chunk for `stream`, as LabRecorder does for each inlet every few seconds:
    /// `collectionTime` (LabRecorder's: the recorder's clock at the measurement minus the offset, that is on the
    /// sender's clock) and `offset`, what to add to the stream's timestamps for the recorder's clock. The offset also
    /// goes into the stream's footer.
    ///
    /// - Throws: ``EDFWriterError`` when the write fails or the file is closed.
    public func appendClockOffset(stream id: UInt32, collectionTime: Double, offset: Double) throws {
        _ = try streamShape(id)
        var content: [UInt8] = []
        XDFChunk.appendLittleEndian(id, to: &content)
        XDFChunk.appendDouble(collectionTime, to: &content)
        XDFChunk.appendDouble(offset, to: &content)
        var bytes: [UInt8] = []
        XDFChunk.append(tag: .clockOffset, content: content[...], to: &bytes)
        try state.withLock { state in
            guard !state.closed else { throw EDFWriterError.closed(path: path) }
            try write(bytes, state: &state, operation: "write XDF clock offset")
            state.streams[Int(id) - 1].offsets.append((collectionTime, offset))
        }
    }

    /// Appends frames of a numeric stream: `values` frame-major (`timestamps.count × channels`), `timestamps` on the
    /// stream's clock, `clockOffset` what to add to them for this machine's clock (written in the next ClockOffset
    /// chunk that is due; nil writes none, for a caller that measures offsets itself with
    /// ``appendClockOffset(stream:collectionTime:offset:)``).
    ///
    /// - Throws: ``EDFWriterError`` when the write fails or the file is closed.
    public func appendSamples(
        stream id: UInt32, timestamps: UnsafeBufferPointer<Double>, values: UnsafeBufferPointer<Double>,
        scratch: inout [UInt8], clockOffset: Double? = 0
    ) throws {
        guard timestamps.count > 0 else { return }
        let (format, channels) = try streamShape(id)
        precondition(format != .string && values.count == timestamps.count * channels, "frames must be whole")
        scratch.removeAll(keepingCapacity: true)
        // The chunk header is written after the content is known: content first, at an offset.
        let reserve = 1 + 8 + 2
        scratch.append(contentsOf: repeatElement(0, count: reserve))
        XDFChunk.appendLittleEndian(id, to: &scratch)
        XDFChunk.appendVariableLength(UInt64(timestamps.count), to: &scratch)
        for frame in 0..<timestamps.count {
            scratch.append(8)
            XDFChunk.appendDouble(timestamps[frame], to: &scratch)
            for channel in 0..<channels {
                Self.appendValue(values[frame * channels + channel], format: format, to: &scratch)
            }
        }
        try finishChunk(
            stream: id, scratch: &scratch, reserve: reserve, first: timestamps[0],
            last: timestamps[timestamps.count - 1], count: timestamps.count, clockOffset: clockOffset)
    }

    /// Appends one sample of a text stream (one string per channel).
    ///
    /// - Throws: ``EDFWriterError`` when the write fails or the file is closed.
    public func appendStrings(stream id: UInt32, timestamp: Double, strings: [String]) throws {
        let (format, channels) = try streamShape(id)
        precondition(format == .string && strings.count == channels, "a text sample needs one string per channel")
        let reserve = 1 + 8 + 2
        var scratch = [UInt8](repeating: 0, count: reserve)
        XDFChunk.appendLittleEndian(id, to: &scratch)
        XDFChunk.appendVariableLength(1, to: &scratch)
        scratch.append(8)
        XDFChunk.appendDouble(timestamp, to: &scratch)
        for text in strings {
            XDFChunk.appendVariableLength(UInt64(text.utf8.count), to: &scratch)
            scratch.append(contentsOf: text.utf8)
        }
        try finishChunk(
            stream: id, scratch: &scratch, reserve: reserve, first: timestamp, last: timestamp, count: 1, clockOffset: 0)
    }

    /// Appends samples of a text stream in one chunk: `strings` sample-major (`timestamps.count × channels`),
    /// `timestamps` on the stream's clock; `clockOffset` as for numeric samples (nil: no ClockOffset chunk).
    ///
    /// - Throws: ``EDFWriterError`` when the write fails or the file is closed.
    public func appendStrings(stream id: UInt32, timestamps: [Double], strings: [String], clockOffset: Double?) throws {
        guard !timestamps.isEmpty else { return }
        let (format, channels) = try streamShape(id)
        precondition(format == .string && strings.count == timestamps.count * channels, "samples must be whole")
        let reserve = 1 + 8 + 2
        var scratch = [UInt8](repeating: 0, count: reserve)
        XDFChunk.appendLittleEndian(id, to: &scratch)
        XDFChunk.appendVariableLength(UInt64(timestamps.count), to: &scratch)
        for (sample, timestamp) in timestamps.enumerated() {
            scratch.append(8)
            XDFChunk.appendDouble(timestamp, to: &scratch)
            for text in strings[(sample * channels)..<((sample + 1) * channels)] {
                XDFChunk.appendVariableLength(UInt64(text.utf8.count), to: &scratch)
                scratch.append(contentsOf: text.utf8)
            }
        }
        try finishChunk(
            stream: id, scratch: &scratch, reserve: reserve, first: timestamps[0],
            last: timestamps[timestamps.count - 1], count: timestamps.count, clockOffset: clockOffset)
    }

    /// Writes the stream footers and closes the file. Later calls do nothing.
    ///
    /// - Throws: ``EDFWriterError`` when a write, the sync or the close fails.
    public func close() throws {
        try state.withLock { state in
            guard !state.closed else { return }
            var bytes: [UInt8] = []
            for (index, stream) in state.streams.enumerated() {
                var content: [UInt8] = []
                XDFChunk.appendLittleEndian(UInt32(index + 1), to: &content)
                content.append(contentsOf: Self.footerXML(stream).utf8)
                XDFChunk.append(tag: .streamFooter, content: content[...], to: &bytes)
            }
            try write(bytes, state: &state, operation: "write XDF footers")
            state.closed = true
            try PosixFile.synchronize(state.fd, path: path)
            try PosixFile.close(state.fd, path: path)
        }
    }

    /// Chunks and boundaries written so far.
    public var counts: (chunks: Int, boundaries: Int) { state.withLock { ($0.chunks, $0.boundaries) } }

    // MARK: - Internals

    private func streamShape(_ id: UInt32) throws -> (XDFChannelFormat, Int) {
        try state.withLock { state -> (XDFChannelFormat, Int) in
            guard !state.closed else { throw EDFWriterError.closed(path: path) }
            guard id >= 1, Int(id) <= state.streams.count else {
                throw EDFWriterError.unsupportedStream(reason: "no XDF stream \(id) in \(path)")
            }
            let stream = state.streams[Int(id) - 1]
            return (stream.format, stream.descriptor.channelCount)
        }
    }

    /// Fills in the chunk header in front of the content, then writes it with any ClockOffset and Boundary chunks
    /// that are due.
    private func finishChunk(
        stream id: UInt32, scratch: inout [UInt8], reserve: Int, first: Double, last: Double, count: Int,
        clockOffset: Double?
    ) throws {
        let length = UInt64(scratch.count - reserve + 2)
        var header: [UInt8] = []
        XDFChunk.appendVariableLength(length, to: &header)
        XDFChunk.appendLittleEndian(XDFChunk.Tag.samples.rawValue, to: &header)
        let start = reserve - header.count
        for (offset, byte) in header.enumerated() { scratch[start + offset] = byte }
        try state.withLock { state in
            guard !state.closed else { throw EDFWriterError.closed(path: path) }
            try scratch[start...].withUnsafeBytes { raw in
                try PosixFile.writeAll(state.fd, raw, path: path, operation: "write XDF samples")
            }
            state.chunks += 1
            var stream = state.streams[Int(id) - 1]
            if stream.count == 0 { stream.first = first }
            stream.last = last
            stream.count += count
            var extra: [UInt8] = []
            if let clockOffset, last >= stream.nextOffset {
                var content: [UInt8] = []
                XDFChunk.appendLittleEndian(id, to: &content)
                // Collection time on this machine's clock, then the offset to add to the stream's timestamps.
                XDFChunk.appendDouble(last + clockOffset, to: &content)
                XDFChunk.appendDouble(clockOffset, to: &content)
                XDFChunk.append(tag: .clockOffset, content: content[...], to: &extra)
                stream.offsets.append((last + clockOffset, clockOffset))
                stream.nextOffset = last + boundaryInterval / 2
            }
            state.streams[Int(id) - 1] = stream
            let boundary = last >= state.nextBoundary
            if boundary {
                XDFChunk.append(tag: .boundary, content: XDFChunk.boundarySignature[...], to: &extra)
                state.nextBoundary = last + boundaryInterval
                state.boundaries += 1
            }
            if !extra.isEmpty { try write(extra, state: &state, operation: "write XDF clock offset/boundary") }
            if boundary { try PosixFile.synchronize(state.fd, path: path) }
        }
    }

    private func write(_ bytes: [UInt8], state: inout State, operation: String) throws {
        let fd = state.fd
        try bytes.withUnsafeBytes { raw in
            try PosixFile.writeAll(fd, raw, path: path, operation: operation)
        }
        state.chunks += 1
    }

    private static func appendValue(_ value: Double, format: XDFChannelFormat, to bytes: inout [UInt8]) {
        switch format {
        case .float32: XDFChunk.appendLittleEndian(Float(value).bitPattern, to: &bytes)
        case .double64: XDFChunk.appendDouble(value, to: &bytes)
        case .int8: bytes.append(UInt8(bitPattern: Int8(clamping: Int(value.rounded()))))
        case .int16: XDFChunk.appendLittleEndian(Int16(clamping: Int(value.rounded())), to: &bytes)
        case .int32: XDFChunk.appendLittleEndian(Int32(clamping: Int(value.rounded())), to: &bytes)
        case .int64: XDFChunk.appendLittleEndian(Int64(value.rounded()), to: &bytes)
        case .string: break
        }
    }

    /// A StreamHeader; `withHost: false` leaves out `hostname` (an anonymized file).
    static func headerXML(_ descriptor: StreamDescriptor, format: XDFChannelFormat, withHost: Bool = true) -> String {
        func element(_ name: String, _ value: String) -> String { "<\(name)>\(XDFChunk.escape(value))</\(name)>" }
        var xml = "<?xml version=\"1.0\"?><info>"
        xml += element("name", descriptor.name) + element("type", descriptor.contentType.rawValue)
        xml += element("channel_count", String(descriptor.channelCount))
        xml += element("nominal_srate", String(descriptor.nominalRate))
        xml += element("channel_format", format.rawValue) + element("source_id", descriptor.sourceID)
        xml += element("version", "1.1") + element("created_at", String(HostClock.now()))
        xml += element("uid", UUID().uuidString.lowercased()) + element("session_id", "default")
        if withHost { xml += element("hostname", hostName) }
        xml += "<desc><channels>"
        for channel in descriptor.channels {
            xml +=
                "<channel>" + element("label", channel.label) + element("unit", channel.unit)
                + element("type", descriptor.contentType.rawValue) + "</channel>"
        }
        xml += "</channels><acquisition>" + element("manufacturer", "Axon") + "</acquisition></desc></info>"
        return xml
    }

    static func footerXML(_ stream: Stream) -> String {
        var xml = "<?xml version=\"1.0\"?><info>"
        xml += "<first_timestamp>\(stream.count > 0 ? String(stream.first) : "0")</first_timestamp>"
        xml += "<last_timestamp>\(stream.count > 0 ? String(stream.last) : "0")</last_timestamp>"
        xml += "<sample_count>\(stream.count)</sample_count><clock_offsets>"
        for offset in stream.offsets {
            xml += "<offset><time>\(offset.time)</time><value>\(offset.value)</value></offset>"
        }
        return xml + "</clock_offsets></info>"
    }

    /// This machine's name from `gethostname` (no name-service lookup, which can stall without a network).
    private static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }()

    /// Now, `shift` seconds later, in ISO 8601.
    private static func isoNow(shift: Double = 0) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date().addingTimeInterval(shift))
    }
}
