import Foundation

/// Lists every field of a recording file that can identify a person, and where it sits: what `axon info
/// --identifiers` prints, and what `--anonymize` (``Anonymization``) must leave out.
///
/// | format | fields |
/// |---|---|
/// | EDF+/BDF+ | patient subfields (code, sex, birthdate, name, the rest), recording subfields (start date, admin code, technician, equipment, the rest), header start date and time, annotations |
/// | EDF/BDF | the local patient and recording identification (free text), start date and time |
/// | XDF | FileHeader `datetime`, `unix_time_offset`; per stream `name`, `source_id`, `hostname`, `session_id`, every `desc` field outside `channels` and the acquisition's make, Unix-time timestamps, text samples |
/// | Axon CSV | the descriptor's name, source id and non-technical metadata, dated `host_time`/`device_time`, `# marker` lines |
/// | OpenBCI, BrainFlow, muse-lsl, Mind Monitor | header lines of unknown meaning, time columns of the first row, markers (Mind Monitor's `Elements` name the headset) |
///
/// Text Axon generates itself (`gap: N samples (cause)`, `Recording starts`) and the zones Axon computes are not
/// listed. Dates are listed with kind ``IdentifyingField/Kind/date``: `--anonymize` keeps them (moved by
/// `--shift-days`).
///
/// Threading: stateless; any thread.
public enum IdentifyingFields {
    /// The fields of the file at `path`; `recording` is the file as read (for markers and times).
    ///
    /// - Throws: ``RecordingError`` when the file cannot be read or its format is not one Axon reads.
    public static func find(path: String, recording: Recording) throws(RecordingError) -> [IdentifyingField] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotOpen(path: path, errno: errno)
        }
        let bytes = [UInt8](data)
        let format = try RecordingFormat.detect(bytes: bytes)
        switch format {
        case .edf, .bdf: return edf(header: bytes, recording: recording)
        case .xdf: return try xdf(bytes: bytes)
        case .axonCSV: return axonCSV(text: String(decoding: bytes, as: UTF8.self))
        case .brainVision: return brainVision(recording)
        case .fif: return fif(recording)
        default: return text(String(decoding: bytes, as: UTF8.self), format: format, recording: recording)
        }
    }

    /// The listing `axon info --identifiers` prints: one line per field, then a count by kind.
    public static func report(_ fields: [IdentifyingField], path: String) -> String {
        var lines = ["\(path): \(fields.count) field\(fields.count == 1 ? "" : "s") that can identify a person"]
        for field in fields {
            lines.append(
                "  " + field.kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                    + "\(field.name) — \(field.location): \"\(field.value)\"")
        }
        let others = fields.filter { $0.kind != .date }.count
        lines.append(
            others == 0
                ? "  nothing but dates (kept by --anonymize; --shift-days moves them)"
                : "  \(others) besides dates (axon convert --anonymize leaves out all but kept annotations)")
        return lines.joined(separator: "\n")
    }

    /// Whether an annotation's text is one Axon writes itself, naming no one.
    static func isGenerated(_ text: String) -> Bool {
        text == "Recording starts" || (text.hasPrefix("gap: ") && text.hasSuffix(")") && text.contains(" samples ("))
    }

    /// The recording's markers as annotation fields, `where` saying where each sits.
    static func markers(_ recording: Recording, where place: (RecordingMarker) -> String) -> [IdentifyingField] {
        recording.markers.compactMap { marker in
            let text = marker.text ?? "marker \(EDFConversion.shortest(marker.value))"
            guard !isGenerated(text) else { return nil }
            return IdentifyingField(kind: .annotation, name: "text", location: place(marker), value: text)
        }
    }

    // MARK: - BrainVision

    /// BrainVision: the start date (the first `New Segment` marker's) and the markers' texts; the headers hold no
    /// person.
    static func brainVision(_ recording: Recording) -> [IdentifyingField] {
        var fields: [IdentifyingField] = []
        if let start = recording.startTime {
            fields.append(
                .init(
                    kind: .date, name: "start", location: "marker file, the first New Segment's date",
                    value: BrainVisionDate.text(start)))
        }
        return fields + markers(recording) { marker in "marker file, position \(marker.frame + 1)" }
    }

    /// FIF: the subject block's fields (names, birthday, sex, hospital id, …), the experimenter and the description
    /// of the measurement info, the measurement date and the annotations' texts.
    static func fif(_ recording: Recording) -> [IdentifyingField] {
        var fields: [IdentifyingField] = []
        let metadata = recording.descriptor.metadata
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where key.hasPrefix("fif.subject.") {
            fields.append(
                .init(
                    kind: .person, name: "subject \(key.dropFirst("fif.subject.".count))",
                    location: "FIFFB_SUBJECT block", value: value))
        }
        for (key, name) in [("fif.experimenter", "experimenter"), ("fif.description", "description")] {
            if let value = metadata[key] {
                fields.append(.init(kind: .recording, name: name, location: "FIFFB_MEAS_INFO block", value: value))
            }
        }
        if let start = recording.startTime {
            fields.append(
                .init(kind: .date, name: "measurement date", location: "FIFF_MEAS_DATE", value: "Unix \(start) s"))
        }
        return fields + markers(recording) { marker in "annotations block, frame \(marker.frame)" }
    }

    // MARK: - EDF

    /// EDF(+)/BDF(+): the header's identification fields (EDF+ subfields byte by byte) and the annotations.
    static func edf(header bytes: [UInt8], recording: Recording) -> [IdentifyingField] {
        guard bytes.count >= 256 else { return [] }
        func text(_ offset: Int, _ width: Int) -> String {
            String(decoding: bytes[offset..<(offset + width)], as: UTF8.self)
        }
        let isPlus = text(192, 44).hasPrefix("EDF+") || text(192, 44).hasPrefix("BDF+")
        var fields: [IdentifyingField] = []
        var startKnown = true
        if isPlus {
            let patientNames = ["patient code", "sex", "birthdate", "patient name"]
            for (index, part) in subfields(text(8, 80), at: 8, named: 4).enumerated() where part.value != "X" {
                let name = index < patientNames.count ? patientNames[index] : "patient additional"
                fields.append(.init(
                    kind: .person, name: name, location: "header bytes \(part.range) (patient, subfield \(index + 1))",
                    value: part.value))
            }
            let recordingNames: [(String, IdentifyingField.Kind)] = [
                ("Startdate", .date), ("recording start date", .date), ("admin code", .recording),
                ("technician", .recording), ("equipment", .device),
            ]
            for (index, part) in subfields(text(88, 80), at: 88, named: 5).enumerated() where index > 0 {
                if index == 1, part.value == "X" { startKnown = false }
                guard part.value != "X" else { continue }
                let (name, kind) =
                    index < recordingNames.count ? recordingNames[index] : ("recording additional", .recording)
                fields.append(.init(
                    kind: kind, name: name, location: "header bytes \(part.range) (recording, subfield \(index + 1))",
                    value: part.value))
            }
        } else {
            for (offset, name, kind) in [
                (8, "local patient identification", IdentifyingField.Kind.person),
                (88, "local recording identification", .recording),
            ] {
                let value = text(offset, 80).trimmingCharacters(in: .whitespaces)
                if !value.isEmpty {
                    fields.append(.init(
                        kind: kind, name: name, location: "header bytes \(offset)…\(offset + 79)", value: value))
                }
            }
        }
        // An EDF+ `Startdate X` file's header date is a placeholder (01.01.85), not a date.
        if startKnown {
            for (offset, name) in [(168, "start date"), (176, "start time")] {
                fields.append(.init(
                    kind: .date, name: name, location: "header bytes \(offset)…\(offset + 7)", value: text(offset, 8)))
            }
        }
        return fields + markers(recording) { marker in
            "annotation signal, onset \(String(format: "%.3f", Double(marker.frame) / recording.sampleRate)) s"
        }
    }

    /// The space-separated subfields of an EDF+ identification field, the ones after the `named` first joined
    /// into one (EDF+'s free "additional" part): each value and its byte range in the header.
    static func subfields(_ field: String, at offset: Int, named: Int) -> [(value: String, range: String)] {
        var spans: [(start: Int, end: Int)] = []
        let bytes = Array(field.utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] != UInt8(ascii: " ") else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: " ") { index += 1 }
            spans.append((start, index))
        }
        if spans.count > named + 1 { spans[named...] = [(spans[named].start, spans[spans.count - 1].end)] }
        return spans.map { span in
            let value = String(decoding: bytes[span.start..<span.end], as: UTF8.self)
            return (value, "\(offset + span.start)…\(offset + span.end - 1)")
        }
    }
}
