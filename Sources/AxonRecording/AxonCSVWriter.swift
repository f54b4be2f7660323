import AxonStreams

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why ``AxonCSVWriter`` could not write a file.
///
/// Equality and hashing compare ``description``: ``descriptorNotEncodable(cause:)`` keeps the encoder's error as a
/// value.
///
/// Threading: a value type; share freely.
public enum AxonCSVWriterError: Error, Sendable, EquatableByDescription {
    /// The file could not be created (`errno`).
    case cannotCreate(path: String, errno: Int32)
    /// A write or the final close failed (`errno`: `ENOSPC`, `EIO`, …); the file is incomplete.
    case writeFailed(path: String, errno: Int32)
    /// The descriptor could not be encoded as JSON; `cause` is the encoder's error.
    case descriptorNotEncodable(cause: any Error)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let code): return "cannot create \(path): \(String(cString: strerror(code)))"
        case .writeFailed(let path, let code):
            return "writing \(path) failed: \(String(cString: strerror(code))) (the file is incomplete)"
        case .descriptorNotEncodable(let cause): return "the stream descriptor cannot be written as JSON: \(cause)"
        }
    }
}

/// Writes a ``Recording`` as Axon CSV (``AxonCSVFormat``): the plain, whole-recording writer behind
/// `axon convert`. (Streams written live go through the pipeline's CSV sink, which writes the same layout.)
///
/// Per row: `sample` = the frame index, `host_time` = ``Recording/time(ofFrame:)``, `device_time` = the
/// recording's timestamp (empty without timestamps), `counter` = its device counter (empty without counters),
/// then the values in Swift's shortest round-trip form, so ``AxonCSVReader`` gives back identical `Double`s.
/// The counter modulus travels in the descriptor's metadata (``AxonCSVReader/counterModulusKey``). Markers follow
/// the last row as `# marker FRAME,VALUE[,TEXT]` lines (``AxonCSVFormat``).
///
///     try AxonCSVWriter.write(recording, to: "out.csv")
///
/// Threading: stateless; call from any thread (distinct paths).
public enum AxonCSVWriter {
    /// Writes `recording` to `path` (created or truncated), in O(frames × channels), flushing every 64 KiB.
    /// An Axon CSV file holds one stream: the recording's ``Recording/companions`` are not written (`axon convert`
    /// counts them as a loss).
    ///
    /// - Parameter anonymization: de-identifies the file (``Anonymization``): the descriptor line without the
    ///   source's name, id and header fields, every date moved by its days, no `# marker` lines unless kept.
    /// - Throws: ``AxonCSVWriterError``.
    public static func write(
        _ recording: Recording, to path: String, anonymization: Anonymization? = nil
    ) throws(AxonCSVWriterError) {
        var descriptor = anonymization.descriptor(recording.descriptor)
        if let modulus = recording.counterModulus, recording.counters != nil {
            descriptor.metadata[AxonCSVReader.counterModulusKey] = String(modulus)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(descriptor)
        } catch {
            throw .descriptorNotEncodable(cause: error)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotCreate(path: path, errno: errno) }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        func flush() throws(AxonCSVWriterError) {
            var written = 0
            while written < out.count {
                do {
                    written += try SystemCall.retrying("write") {
                        out.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + written, $0.count - written) }
                    }
                } catch {
                    throw .writeFailed(path: path, errno: error.code)
                }
            }
            out.removeAll(keepingCapacity: true)
        }
        do {
            out.append(contentsOf: (AxonCSVFormat.signature + "\n" + AxonCSVFormat.descriptorPrefix).utf8)
            out.append(contentsOf: json)
            out.append(contentsOf: ("\n" + AxonCSVFormat.headerRow(for: descriptor) + "\n").utf8)
            let channels = recording.channelCount
            for frame in 0..<recording.frameCount {
                var row = "\(frame),\(anonymization.shifted(recording.time(ofFrame: frame))),"
                if let timestamps = recording.timestamps { row += "\(anonymization.shifted(timestamps[frame]))" }
                row += ","
                if let counters = recording.counters { row += "\(counters[frame])" }
                for channel in 0..<channels {
                    row += ","
                    row += "\(recording.values[frame * channels + channel])"
                }
                row += "\n"
                out.append(contentsOf: row.utf8)
                if out.count >= 1 << 16 { try flush() }
            }
            for marker in anonymization.markers(recording.markers) {
                var line = AxonCSVFormat.markerPrefix + "\(marker.frame),\(EDFConversion.shortest(marker.value))"
                if let text = marker.text {
                    line += "," + text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : String($0) }.joined()
                }
                out.append(contentsOf: (line + "\n").utf8)
                if out.count >= 1 << 16 { try flush() }
            }
            try flush()
        } catch {
            _ = close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw .writeFailed(path: path, errno: errno) }
    }
}

/// POSIX `write(2)` (the name is shadowed inside ``AxonCSVWriter``).
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
