import Foundation

extension IdentifyingFields {
    /// XDF: the FileHeader's dates; each StreamHeader's identifying elements by XML path; dated timestamps; the
    /// samples of text streams (markers).
    static func xdf(bytes: [UInt8]) throws(RecordingError) -> [IdentifyingField] {
        let file = try XDFReader.read(bytes: bytes)
        var fields: [IdentifyingField] = []
        for leaf in xmlLeaves(file.fileHeaderXML ?? "")
        where ["info/datetime", "info/\(XDFWriter.unixTimeOffsetElement)"].contains(leaf.path) {
            fields.append(.init(kind: .date, name: leaf.name, location: "FileHeader /\(leaf.path)", value: leaf.value))
        }
        for stream in file.streams {
            let place = "stream \(stream.id) header /"
            for leaf in xmlLeaves(stream.headerXML) {
                let kind = kind(ofStreamElement: leaf.path, value: leaf.value, type: stream.type)
                guard let kind else { continue }
                fields.append(.init(kind: kind, name: leaf.name, location: place + leaf.path, value: leaf.value))
            }
            if let first = stream.timestamps.first, first >= Anonymization.earliestDate {
                fields.append(.init(
                    kind: .date, name: "timestamps (Unix times)", location: "stream \(stream.id) samples, first",
                    value: String(first)))
            }
            // Axon's zones stream holds what the engine computed, no one's words.
            guard stream.format == .string, !stream.name.hasSuffix("Zones") else { continue }
            for (index, text) in stream.strings.enumerated() where !isGenerated(text) {
                fields.append(.init(
                    kind: .annotation, name: "text sample",
                    location: "stream \(stream.id) (\(stream.name)), sample \(index / max(1, stream.channelCount) + 1)",
                    value: text))
            }
        }
        return fields
    }

    /// What a StreamHeader element can reveal, or nil for a technical one.
    static func kind(ofStreamElement path: String, value: String, type: String) -> IdentifyingField.Kind? {
        let lower = path.lowercased()
        switch path {
        case "info/hostname": return value.isEmpty ? nil : .recording
        case "info/session_id": return value.isEmpty || value == "default" ? nil : .recording
        case "info/source_id": return value.isEmpty || value == Anonymization.sourceID ? nil : .device
        // A stream's name can carry a device's serial (`Muse-41D2`) or a file's name; an anonymized one is its type.
        case "info/name": return value == type || ["Markers", "Spectra", "Zones"].contains(value) ? nil : .device
        default: break
        }
        guard lower.hasPrefix("info/desc/"), !lower.hasPrefix("info/desc/channels/"),
            !["info/desc/acquisition/manufacturer", "info/desc/acquisition/model"].contains(lower)
        else { return nil }
        let personal = ["subject", "participant", "patient", "person", "name", "birth", "sex", "gender", "age"]
        if personal.contains(where: lower.contains) { return .person }
        if lower.contains("serial") { return .device }
        return .header
    }

    /// Every leaf element of a flat, attribute-free XML text (as XDF writes): its path from the root, its name and
    /// its text. Enough for headers, not a general XML parser.
    static func xmlLeaves(_ xml: String) -> [(path: String, name: String, value: String)] {
        var leaves: [(String, String, String)] = []
        var stack: [String] = []
        var text = ""
        var hadChild = false
        var rest = xml[...]
        while let open = rest.firstIndex(of: "<") {
            text += rest[rest.startIndex..<open]
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") || tag.hasSuffix("/") { continue }
            if tag.hasPrefix("/") {
                let name = stack.popLast() ?? ""
                if !hadChild {
                    let value = XMLText.unescape(text.trimmingCharacters(in: .whitespacesAndNewlines))
                    leaves.append(((stack + [name]).joined(separator: "/"), name, value))
                }
                hadChild = true
            } else {
                stack.append(String(tag.split(separator: " ").first ?? tag))
                hadChild = false
            }
            text = ""
        }
        return leaves
    }
}
