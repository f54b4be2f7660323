import AxonStreams
import Foundation

extension XDFFile {
    /// The file as a ``Recording`` (what `axon info`, `replay` and `convert` take): its first regular numeric
    /// stream (an EEG stream first), with the text samples of its first string stream as markers at the first
    /// frame stamped at or after them, and every stream listed in the metadata (`xdf.stream.ID`). Its timestamps
    /// are Unix times: the synchronised stamps plus the FileHeader's `unix_time_offset` (Axon writes it), or the
    /// stamps themselves when they are Unix times, or the FileHeader's `datetime` for the first frame (LabRecorder's
    /// files; with a warning); none when the file gives no way to date it.
    ///
    /// - Throws: ``RecordingError/malformedHeader(line:reason:)`` when the file has no regular numeric stream with
    ///   samples.
    public func recording(sourceName: String) throws(RecordingError) -> Recording {
        let regular = streams.filter { $0.format != .string && $0.nominalRate > 0 && $0.sampleCount > 0 }
        guard let main = regular.first(where: { $0.type == "EEG" }) ?? regular.first else {
            throw .malformedHeader(line: 0, reason: "the XDF file has no regular numeric stream with samples")
        }
        var metadata = ["format": "XDF", "xdf.streams": String(streams.count), "xdf.boundaries": String(boundaryCount)]
        for stream in streams {
            let rate = stream.nominalRate > 0 ? "\(stream.nominalRate) Hz" : "irregular"
            metadata["xdf.stream.\(stream.id)"] =
                "\(stream.name) (\(stream.type)): \(stream.channelCount) channels, "
                + "\(rate), \(stream.format.rawValue), \(stream.sampleCount) samples, source_id \(stream.sourceID)"
                + (stream.footerSampleCount == nil ? ", no footer" : "")
        }
        var warnings: [String] = []
        if trailingBytes > 0 { warnings.append("cut short: \(trailingBytes) bytes after the last whole chunk") }
        let channels = (0..<main.channelCount).map { index in
            ChannelInfo(
                label: index < main.labels.count && !main.labels[index].isEmpty ? main.labels[index] : "Ch\(index + 1)",
                unit: index < main.units.count ? main.units[index] : "")
        }
        let descriptor = StreamDescriptor(
            name: main.name, contentType: StreamContentType(main.type), channels: channels,
            nominalRate: main.nominalRate, format: main.format == .double64 ? .float64 : .float32,
            sourceID: main.sourceID.isEmpty ? "file:\(sourceName)" : main.sourceID, metadata: metadata)
        var markers: [RecordingMarker] = []
        if let text = streams.first(where: { $0.format == .string }) {
            // Both on the recording machine's clock (a stream from an LSL inlet is stored on its outlet's).
            let frameTimes = main.synchronizedTimestamps
            for (index, time) in text.synchronizedTimestamps.enumerated() {
                // The first frame at or after the marker's time (timestamps increase).
                var low = 0
                var high = main.sampleCount - 1
                while low < high {
                    let middle = (low + high) / 2
                    if frameTimes[middle] < time { low = middle + 1 } else { high = middle }
                }
                let frame = low
                let strings = text.strings[(index * text.channelCount)..<((index + 1) * text.channelCount)]
                markers.append(RecordingMarker(frame: frame, value: 1, text: strings.joined(separator: " ")))
            }
        }
        // Unix times: the synchronised timestamps plus the FileHeader's unix_time_offset (Axon's files), or as
        // they are when they are Unix times already, or — LabRecorder's files, stamped on a clock counted from the
        // machine's boot — the FileHeader's datetime (when the file was created) for the first frame.
        let synchronized = main.synchronizedTimestamps
        var timestamps: [Double]?
        if let offset = unixTimeOffset {
            timestamps = synchronized.map { $0 + offset }
        } else if let first = synchronized.first, first > 978_307_200 {
            timestamps = synchronized
        } else if let datetime, let created = Self.unixTime(iso8601: datetime), let first = synchronized.first {
            timestamps = synchronized.map { created + ($0 - first) }
            warnings.append(
                "start taken from the file header's datetime \(datetime) (when the file was created; to the second): "
                    + "the stream's timestamps are not Unix times")
        }
        if let stamps = timestamps, !(stamps.first.map { $0 > 978_307_200 } ?? false) { timestamps = nil }
        return Recording(
            descriptor: descriptor, values: main.values, timestamps: timestamps, markers: markers, warnings: warnings)
    }

    /// An ISO 8601 date and time (`2019-05-15T12:00:00+0200`, `…Z`, `…+02:00`, with or without fractions) as Unix
    /// seconds, or nil.
    static func unixTime(iso8601 text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }
}
