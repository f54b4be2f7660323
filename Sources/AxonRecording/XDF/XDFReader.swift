/// Reads XDF 1.0 files (LabRecorder's and Axon's): every stream's header, samples, clock offsets and footer.
///
/// A file cut short (a recording killed mid-chunk) is read up to its last whole chunk; the rest is counted in
/// ``XDFFile/trailingBytes``. A chunk whose length is damaged ends the read there too (the reader does not scan
/// for the next boundary); a Samples chunk whose content cannot be read is skipped whole, so every stream keeps
/// one value (or string) per channel for each time.
///
///     let file = try XDFReader.read(bytes: bytes)
///     for stream in file.streams { print(stream.name, stream.sampleCount) }
///
/// Threading: stateless; any thread.
public enum XDFReader {
    /// Whether `bytes` start with the XDF magic.
    public static func isSignature(_ bytes: [UInt8]) -> Bool { bytes.starts(with: XDFChunk.magic) }

    /// Parses a whole file.
    ///
    /// - Throws: ``RecordingError/malformedHeader(line:reason:)`` (line 0: XDF has no lines) for a file without
    ///   the magic, a stream header that cannot be read, or samples of a stream with no header.
    public static func read(bytes: [UInt8]) throws(RecordingError) -> XDFFile {
        guard isSignature(bytes) else { throw .malformedHeader(line: 0, reason: "not an XDF file (no XDF: magic)") }
        var cursor = Cursor(bytes: bytes, offset: 4)
        var streams: [XDFFile.Stream] = []
        var index: [UInt32: Int] = [:]
        var boundaries = 0
        var lastWhole = 4
        var datetime: String?
        var unixTimeOffset: Double?
        var fileHeaderXML: String?
        while cursor.offset < bytes.count {
            guard let length = cursor.variableLength(), length >= 2, UInt64(cursor.remaining) >= length,
                let tagValue = cursor.uint16()
            else { break }
            let end = cursor.offset - 2 + Int(length)
            let tag = XDFChunk.Tag(rawValue: tagValue)
            switch tag {
            case .streamHeader, .samples, .clockOffset, .streamFooter:
                // The stream id is inside the chunk: a chunk too short for one is skipped, not read past its end.
                guard end - cursor.offset >= 4, let id = cursor.uint32() else { break }
                let content = Array(bytes[cursor.offset..<end])
                if tag == .streamHeader {
                    index[id] = streams.count
                    let xml = String(decoding: content, as: UTF8.self)
                    var header = try stream(id: id, xml: xml)
                    header.headerXML = xml
                    streams.append(header)
                } else if let position = index[id] {
                    if tag == .samples {
                        guard readSamples(content, into: &streams[position]) else {
                            cursor.offset = end
                            break
                        }
                    } else if tag == .clockOffset, content.count >= 16 {
                        var local = Cursor(bytes: content, offset: 0)
                        streams[position].clockOffsets.append(.init(time: local.double()!, value: local.double()!))
                    } else if tag == .streamFooter {
                        let xml = String(decoding: content, as: UTF8.self)
                        streams[position].footerSampleCount = XMLText.first("sample_count", in: xml).flatMap { Int($0) }
                    }
                } else {
                    throw .malformedHeader(line: 0, reason: "XDF chunk of stream \(id) before its stream header")
                }
            case .boundary:
                boundaries += 1
            case .fileHeader:
                let xml = String(decoding: bytes[cursor.offset..<end], as: UTF8.self)
                fileHeaderXML = xml
                datetime = XMLText.first("datetime", in: xml)
                unixTimeOffset = XMLText.first(XDFWriter.unixTimeOffsetElement, in: xml).flatMap { Double($0) }
                    .flatMap { $0.isFinite ? $0 : nil }
            case nil:
                break
            }
            cursor.offset = end
            lastWhole = end
        }
        return XDFFile(
            streams: streams, boundaryCount: boundaries, trailingBytes: bytes.count - lastWhole, datetime: datetime,
            unixTimeOffset: unixTimeOffset, fileHeaderXML: fileHeaderXML)
    }

    private static func stream(id: UInt32, xml: String) throws(RecordingError) -> XDFFile.Stream {
        guard let count = XMLText.first("channel_count", in: xml).flatMap({ Int($0) }), count >= 1,
            let formatName = XMLText.first("channel_format", in: xml),
            let format = XDFChannelFormat(rawValue: formatName)
        else { throw .malformedHeader(line: 0, reason: "XDF stream \(id) has no usable channel_count/channel_format") }
        let channels = XMLText.elements("channel", in: XMLText.section("channels", in: xml) ?? "")
        return XDFFile.Stream(
            id: id, name: XMLText.first("name", in: xml) ?? "", type: XMLText.first("type", in: xml) ?? "",
            channelCount: count, nominalRate: XMLText.first("nominal_srate", in: xml).flatMap { Double($0) } ?? 0,
            format: format, sourceID: XMLText.first("source_id", in: xml) ?? "",
            labels: channels.map { XMLText.first("label", in: $0) ?? "" },
            units: channels.map { XMLText.first("unit", in: $0) ?? "" }, timestamps: [], values: [], strings: [],
            clockOffsets: [], footerSampleCount: nil)
    }

    /// Appends one Samples chunk's content (after the stream id); false if it is malformed, and then the stream is
    /// left as it was before the chunk (a sample cut in the middle would pair a time with fewer values than
    /// channels and shift every later sample's channels).
    private static func readSamples(_ content: [UInt8], into stream: inout XDFFile.Stream) -> Bool {
        let kept = (stream.timestamps.count, stream.values.count, stream.strings.count)
        guard appendSamples(content, to: &stream) else {
            stream.timestamps.removeSubrange(kept.0...)
            stream.values.removeSubrange(kept.1...)
            stream.strings.removeSubrange(kept.2...)
            return false
        }
        return true
    }

    private static func appendSamples(_ content: [UInt8], to stream: inout XDFFile.Stream) -> Bool {
        var cursor = Cursor(bytes: content, offset: 0)
        guard let count = cursor.variableLength() else { return false }
        let period = stream.nominalRate > 0 ? 1 / stream.nominalRate : 0
        for _ in 0..<count {
            guard let flag = cursor.uint8() else { return false }
            let timestamp: Double
            if flag == 8 {
                guard let value = cursor.double() else { return false }
                timestamp = value
            } else {
                timestamp = (stream.timestamps.last ?? 0) + period
            }
            stream.timestamps.append(timestamp)
            for _ in 0..<stream.channelCount {
                if stream.format == .string {
                    guard let length = cursor.variableLength(), UInt64(cursor.remaining) >= length else { return false }
                    stream.strings.append(
                        String(decoding: content[cursor.offset..<(cursor.offset + Int(length))], as: UTF8.self))
                    cursor.offset += Int(length)
                } else {
                    guard let value = cursor.value(stream.format) else { return false }
                    stream.values.append(value)
                }
            }
        }
        return true
    }

    /// Little-endian reads that return nil past the end.
    private struct Cursor {
        let bytes: [UInt8]
        var offset: Int
        var remaining: Int { bytes.count - offset }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard remaining >= size else { return nil }
            var value: T = 0
            for index in 0..<size { value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index) }
            offset += size
            return value
        }
        mutating func uint8() -> UInt8? { integer(UInt8.self) }
        mutating func uint16() -> UInt16? { integer(UInt16.self) }
        mutating func uint32() -> UInt32? { integer(UInt32.self) }
        mutating func double() -> Double? { integer(UInt64.self).map { Double(bitPattern: $0) } }
        mutating func variableLength() -> UInt64? {
            switch uint8() {
            case 1: return uint8().map(UInt64.init)
            case 4: return uint32().map(UInt64.init)
            case 8: return integer(UInt64.self)
            default: return nil
            }
        }
        mutating func value(_ format: XDFChannelFormat) -> Double? {
            switch format {
            case .float32: return uint32().map { Double(Float(bitPattern: $0)) }
            case .double64: return double()
            case .int8: return uint8().map { Double(Int8(bitPattern: $0)) }
            case .int16: return uint16().map { Double(Int16(bitPattern: $0)) }
            case .int32: return uint32().map { Double(Int32(bitPattern: $0)) }
            case .int64: return integer(UInt64.self).map { Double(Int64(bitPattern: $0)) }
            case .string: return nil
            }
        }
    }
}

/// The little XML XDF headers need: the text of the first element of a name, an element's inner section, and
/// every element of a name in a section. Headers are flat, attribute-free XML (XDF and LSL write no attributes).
enum XMLText {
    static func section(_ name: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(name)>"),
            let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex)
        else { return nil }
        return String(xml[open.upperBound..<close.lowerBound])
    }

    static func first(_ name: String, in xml: String) -> String? { section(name, in: xml).map(unescape) }

    static func elements(_ name: String, in xml: String) -> [String] {
        var result: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)>"),
            let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex)
        {
            result.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return result
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
