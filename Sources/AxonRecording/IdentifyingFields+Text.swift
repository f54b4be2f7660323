import AxonStreams
import Foundation

extension IdentifyingFields {
    /// Axon CSV: the descriptor line's name, source id and non-technical metadata; the first row's dated times;
    /// the `# marker` lines.
    static func axonCSV(text: String) -> [IdentifyingField] {
        var fields: [IdentifyingField] = []
        var firstRow = true
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.hasPrefix(AxonCSVFormat.descriptorPrefix) {
                let json = Data(line.dropFirst(AxonCSVFormat.descriptorPrefix.count).utf8)
                guard let descriptor = try? JSONDecoder().decode(StreamDescriptor.self, from: json) else { continue }
                fields += self.descriptor(descriptor, location: "line \(number), descriptor")
            } else if line.hasPrefix(AxonCSVFormat.markerPrefix) {
                let value = String(line.dropFirst(AxonCSVFormat.markerPrefix.count))
                // `FRAME,VALUE[,TEXT]`: generated texts (gaps) name no one.
                let text = value.split(separator: ",", maxSplits: 2).dropFirst(2).first.map(String.init) ?? ""
                guard !isGenerated(text) else { continue }
                fields.append(.init(kind: .annotation, name: "marker", location: "line \(number)", value: value))
            } else if firstRow, !line.hasPrefix("#"), !line.hasPrefix("sample,"), !line.isEmpty {
                firstRow = false
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                for (column, name) in [(1, "host_time"), (2, "device_time")] where column < cells.count {
                    guard let time = Double(cells[column]), time >= Anonymization.earliestDate else { continue }
                    fields.append(.init(
                        kind: .date, name: name, location: "line \(number) (first row), column \(column + 1)",
                        value: String(cells[column])))
                }
            }
        }
        return fields
    }

    /// A descriptor's identifying parts: a name that is not its type, a source id, non-technical metadata.
    static func descriptor(_ descriptor: StreamDescriptor, location: String) -> [IdentifyingField] {
        var fields: [IdentifyingField] = []
        if descriptor.name != Anonymization().descriptor(descriptor).name {
            fields.append(.init(
                kind: .device, name: "stream name", location: location + " \"name\"", value: descriptor.name))
        }
        if descriptor.sourceID != Anonymization.sourceID, !descriptor.sourceID.isEmpty {
            fields.append(.init(
                kind: .device, name: "source id", location: location + " \"sourceID\"", value: descriptor.sourceID))
        }
        for (key, value) in descriptor.metadata.sorted(by: { $0.key < $1.key }) where !Anonymization.isTechnical(key) {
            fields.append(.init(
                kind: kind(ofMetadataKey: key), name: key, location: location + " \"metadata\"", value: value))
        }
        return fields
    }

    /// What a metadata key of a reader (`edf.patientName`, `file`, `header.Board`) can reveal.
    static func kind(ofMetadataKey key: String) -> IdentifyingField.Kind {
        let lower = key.lowercased()
        if ["patient", "birthdate", "sex"].contains(where: lower.contains) { return .person }
        if ["startdate", "starttime", "timeofday", "datetime"].contains(where: lower.contains) { return .date }
        if ["equipment", "file", "serial"].contains(where: lower.contains) { return .device }
        if ["recording", "technician", "admincode", "hostname"].contains(where: lower.contains) { return .recording }
        return .header
    }

    /// Technical header lines of the OpenBCI GUI's text files (everything else in a `%` header is listed).
    static let technicalHeaderLines = [
        "%OpenBCI Raw", "%Number of channels", "%Sample Rate", "%Board", "%First Column", "%Last Column",
        "%Other Columns",
    ]

    /// OpenBCI GUI text, BrainFlow, muse-lsl and Mind Monitor CSV: unknown `%` header lines, the first row's time
    /// columns, and the markers.
    static func text(_ text: String, format: RecordingFormat, recording: Recording) -> [IdentifyingField] {
        var fields: [IdentifyingField] = []
        var columns: [Substring]?
        var dated = false
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\u{FEFF}"])
            let number = index + 1
            if line.hasPrefix("%") {
                guard line.count > 1, !technicalHeaderLines.contains(where: line.hasPrefix) else { continue }
                fields.append(.init(kind: .header, name: "header line", location: "line \(number)", value: line))
                continue
            }
            let separator: Character = line.contains("\t") ? "\t" : ","
            let cells = line.split(separator: separator, omittingEmptySubsequences: false)
            // The column row (it has letters); then the first data row's time columns.
            let named = cells.contains { cell in
                Double(cell.trimmingCharacters(in: .whitespaces)) == nil && cell.contains(where: \.isLetter)
            }
            if columns == nil, named {
                columns = cells
                continue
            }
            if let columns {
                for (column, name) in columns.enumerated()
                where name.lowercased().contains("time") && column < cells.count && !cells[column].isEmpty {
                    let name = name.trimmingCharacters(in: .whitespaces)
                    fields.append(.init(
                        kind: .date, name: name, location: "line \(number) (first row), column \(column + 1)",
                        value: cells[column].trimmingCharacters(in: .whitespaces)))
                    dated = true
                }
            }
            break
        }
        // Files without a time column in a row of names (BrainFlow; the old GUI's time of day): what the reader found.
        if !dated, let time = recording.metadata("firstTimeOfDay") ?? recording.startTime.map({ String($0) }) {
            fields.append(.init(kind: .date, name: "time of the first row", location: "first data row", value: time))
        }
        let markerColumn = format == .mindMonitorCSV ? "Elements column" : "marker column"
        return fields + markers(recording) { "row of frame \($0.frame), \(markerColumn)" }
    }
}

extension Recording {
    /// The descriptor's metadata value for `key`.
    fileprivate func metadata(_ key: String) -> String? { descriptor.metadata[key] }
}
