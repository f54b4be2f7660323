import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

/// `axon convert|record --anonymize` and `axon info --identifiers` as a user runs them, checked by the reference
/// readers (pyedflib, MNE, pyxdf from `.venv-peers`, `scripts/identity-peers.py`): the input carries a person, the
/// output carries none, and the signal is the same.
@Suite("axon --anonymize")
struct AnonymizeCommandTests {
    static let python = ConvertCommandTests.python
    static let peers = ReadmeTests.root.appendingPathComponent("scripts/identity-peers.py").path
    /// 2024-05-06 07:08:09 UTC, the input's start.
    static let start = 1_714_979_289.0
    static let typed = ["Jane said she felt dizzy", "eyes closed"]

    /// An EDF+ recording that names a person in every field it has: patient code, sex, birthdate, name, admin
    /// code, technician, equipment, and two typed annotations; 4 channels × 250 Hz × 10 s of sines.
    /// Returns a fresh folder (removed by the caller) and the file's path in it.
    static func identifiedEDF() throws -> (folder: URL, path: String) {
        let folder = try ConvertCommandTests.folder()
        let path = folder.appendingPathComponent("jane.edf").path
        let descriptor = StreamDescriptor(
            name: "EEG", contentType: .eeg,
            channels: (0..<4).map { ChannelInfo(label: "EEG\($0)", unit: "µV", range: -500...500) },
            nominalRate: 250, format: .int16, sourceID: "test")
        let writer = try EDFWriter(
            path: path, descriptor: descriptor, startUnixTime: start,
            options: .init(
                patient: .init(code: "MRN-4711", sex: "F", birthdate: "14-MAR-1971", name: "Jane Doe"),
                adminCode: "ADM-99", technician: "Dr Who", equipment: "Cyton-SN1234", startAnnotation: nil))
        writer.annotate(onset: 1, text: typed[0])
        writer.annotate(onset: 5, text: typed[1])
        for frame in 0..<2500 {
            try writer.append((0..<4).map { 100 * sin(2 * Double.pi * Double(5 + $0) * Double(frame) / 250) })
        }
        try writer.close()
        return (folder, path)
    }

    static func axon(_ arguments: [String]) throws -> String {
        let (status, output) = try ConvertCommandTests.axon(arguments)
        #expect(status == 0, "axon \(arguments.joined(separator: " ")): \(output)")
        return output
    }

    /// `identity-peers.py MODE PATHS…` as JSON.
    static func peers(_ arguments: [String]) throws -> [String: Any] {
        try #require(FileManager.default.isExecutableFile(atPath: python), "run scripts/python-peers.sh first")
        let (status, output) = try AxonExecutable.run(python, [peers] + arguments)
        #expect(status == 0, "\(output)")
        let json = try #require(output.split(separator: "\n").last { $0.hasPrefix("{") }, "\(output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// pyedflib's and MNE's identification fields of one file (`in` or `out` of the peers' answer).
    static func identity(_ answer: [String: Any], _ side: String) throws -> (
        header: [String: String], subject: [String: String], annotations: [String], mneAnnotations: [String],
        start: String, measDate: String
    ) {
        let file = try #require(answer[side] as? [String: Any])
        return (
            try #require(file["pyedflib"] as? [String: String]), try #require(file["mne_subject"] as? [String: String]),
            try #require(file["pyedflib_annotations"] as? [String]), try #require(file["mne_annotations"] as? [String]),
            try #require(file["pyedflib_start"] as? String), try #require(file["mne_meas_date"] as? String)
        )
    }

    static let headerKeys = [
        "patientname", "patientcode", "sex", "gender", "birthdate", "technician", "equipment", "admincode",
        "patient_additional", "recording_additional",
    ]

    @Test("EDF+ and BDF+: pyedflib and MNE find no identifying field, per field, and the same signal")
    func edfHasNoIdentifyingField() throws {
        let (folder, input) = try Self.identifiedEDF()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A plain conversion keeps every field (so the checks below can fail).
        let plain = folder.appendingPathComponent("plain.edf").path
        _ = try Self.axon(["convert", input, plain])
        let kept = try Self.identity(Self.peers(["edf", input, plain]), "out")
        #expect(kept.header["patientname"] == "Jane Doe" && kept.header["birthdate"] == "14 mar 1971")
        #expect(kept.subject["first_name"] == "Jane" && kept.annotations == Self.typed)

        for format in ["edf", "bdf"] {
            let output = folder.appendingPathComponent("anonymous.\(format)").path
            let printed = try Self.axon(["convert", input, output, "--anonymize"])
            #expect(printed.contains("anonymized: no patient, recording, host or device fields; dates kept"))
            let answer = try Self.peers(["edf", input, output])
            let before = try Self.identity(answer, "in")
            let after = try Self.identity(answer, "out")
            #expect(before.header["patientname"] == "Jane Doe" && before.header["patientcode"] == "MRN-4711")
            #expect(before.header["sex"] == "Female" && before.header["technician"] == "Dr Who")
            #expect(before.header["equipment"] == "Cyton-SN1234" && before.header["admincode"] == "ADM-99")
            #expect(before.subject["last_name"] == "Doe" && before.subject["birthday"] == "1971-03-14")
            for key in Self.headerKeys {
                // EDFlib reads an unknown (`X`) subfield as empty, or as `X` for the name.
                let value = after.header[key] ?? ""
                #expect(["", "X"].contains(value), "\(format) pyedflib \(key): \(value)")
            }
            // MNE: `X X X X` gives his_id and last_name X and sex 0 (unknown); no first name, no birthday.
            #expect(after.subject["first_name"] == nil && after.subject["birthday"] == nil, "\(after.subject)")
            #expect(["X", nil].contains(after.subject["his_id"]) && ["X", nil].contains(after.subject["last_name"]))
            #expect(["0", nil].contains(after.subject["sex"]), "\(after.subject)")
            #expect(after.annotations.isEmpty && after.mneAnnotations.isEmpty)
            #expect(after.start == before.start && after.measDate == before.measDate)  // the date is kept
            let step = format == "edf" ? 0.0 : 1000.0 / 65535  // BDF's range comes from the EDF's data
            let pyedflib = try #require(Double(answer["pyedflib_max_difference"] as? String ?? ""))
            let mne = try #require(Double(answer["mne_max_difference"] as? String ?? ""))
            #expect(pyedflib <= step && mne <= step * 1e-6, "\(format): \(pyedflib) µV, \(mne) V")
        }
    }

    @Test("--shift-days N moves the start by exactly N days, for pyedflib, MNE and Axon")
    func shiftDaysMovesTheStart() throws {
        let (folder, input) = try Self.identifiedEDF()
        defer { try? FileManager.default.removeItem(at: folder) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        for days in [10, -400] {
            let output = folder.appendingPathComponent("shifted\(days).edf").path
            _ = try Self.axon(["convert", input, output, "--anonymize", "--shift-days=\(days)"])
            let after = try Self.identity(Self.peers(["edf", input, output]), "out")
            let expected = formatter.string(from: Date(timeIntervalSince1970: Self.start + Double(days) * 86_400))
            #expect(after.start == expected && after.measDate == expected, "\(after.start) \(after.measDate)")
            let read = try RecordingReader.read(path: output)
            #expect(read.startTime == Self.start + Double(days) * 86_400)
        }
    }

    @Test("--keep-annotations keeps the annotations, and only them")
    func keepAnnotations() throws {
        let (folder, input) = try Self.identifiedEDF()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("kept.edf").path
        _ = try Self.axon(["convert", input, output, "--anonymize", "--keep-annotations"])
        let after = try Self.identity(Self.peers(["edf", input, output]), "out")
        #expect(after.annotations == Self.typed && after.mneAnnotations == Self.typed)
        #expect(after.header["patientname"] == "X" && after.subject["first_name"] == nil)
        let refused = try ConvertCommandTests.axon(["convert", input, output + ".edf", "--shift-days", "3"])
        #expect(refused.status != 0 && refused.output.contains("go with --anonymize"))
    }

    @Test("XDF: pyxdf finds no host, device, session, subject or marker in the output; the same values")
    func xdfHasNoIdentifyingField() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("labrecorder.xdf").path
        _ = try Self.peers(["labrecorder", input])
        let output = folder.appendingPathComponent("anonymous.xdf").path
        _ = try Self.axon(["convert", input, output, "--anonymize", "--shift-days", "7"])
        let answer = try Self.peers(["xdf", input, output])
        func elements(_ side: String) throws -> [[String]] {
            let file = try #require(answer[side] as? [String: Any])
            let streams = try #require(file["streams"] as? [[String: Any]])
            return streams.flatMap { ($0["elements"] as? [[String]]) ?? [] }
        }
        func texts(_ side: String) throws -> [String] {
            let file = try #require(answer[side] as? [String: Any])
            return try #require(file["streams"] as? [[String: Any]]).flatMap { ($0["texts"] as? [String]) ?? [] }
        }
        let before = try elements("in")
        let after = try elements("out")
        #expect(before.contains(["info/hostname", "lab-pc-jane"]))
        #expect(before.contains(["info/desc/subject/name", "Jane Doe"]))
        #expect(try texts("in") == Self.typed)
        #expect(!after.contains { $0[0] == "info/hostname" }, "\(after)")
        #expect(!after.contains { $0[0].contains("subject") || $0[0].contains("serial") }, "\(after)")
        #expect(after.filter { $0[0] == "info/source_id" }.allSatisfy { $0[1] == "anonymous" })
        #expect(after.filter { $0[0] == "info/session_id" }.allSatisfy { $0[1] == "default" })
        #expect(after.filter { $0[0] == "info/name" }.map { $0[1] } == ["EEG"])  // no Markers stream
        #expect(!after.contains { $0[1].contains("Jane") || $0[1].contains("7A1B") || $0[1].contains("lab-pc") })
        #expect(try texts("out").isEmpty)
        let header = try #require((answer["out"] as? [String: Any])?["file_header"] as? [[String]])
        // The date (the LabRecorder header's) moved by 7 days; no timestamp is a date.
        #expect(header.contains(["info/unix_time_offset", String(Self.start + 7 * 86_400)]), "\(header)")
        // The FileHeader's datetime (when the file was written) moved by the same 7 days.
        let datetime = try #require(header.first { $0[0] == "info/datetime" }?[1])
        let written = try #require(ISO8601DateFormatter().date(from: datetime))
        #expect(abs(written.timeIntervalSinceNow - 7 * 86_400) < 120, "\(datetime)")
        let streams = try #require((answer["out"] as? [String: Any])?["streams"] as? [[String: Any]])
        #expect(streams.allSatisfy { Double($0["first_timestamp"] as? String ?? "") ?? 1e9 < 978_307_200 })
        #expect(answer["max_difference"] as? String == "0.0")
        #expect(try RecordingReader.read(path: output).startTime == Self.start + 7 * 86_400)
    }

    /// The kinds `axon info --identifiers` lists, one per line.
    static func kinds(_ listing: String) -> [String] {
        listing.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard line.hasPrefix("  "), let first = words.first,
                IdentifyingField.Kind(rawValue: String(first)) != nil
            else { return nil }
            return String(first)
        }
    }

    @Test("axon info --identifiers: the person in the input, nothing but dates in the output (EDF+, XDF, CSV)")
    func infoIdentifiers() throws {
        let (folder, input) = try Self.identifiedEDF()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listed = try Self.axon(["info", "--identifiers", input])
        for expected in [
            "person     patient name — header bytes 31…38 (patient, subfield 4): \"Jane_Doe\"",
            "person     birthdate — header bytes 19…29 (patient, subfield 3): \"14-MAR-1971\"",
            "recording  technician — header bytes 117…122 (recording, subfield 4): \"Dr_Who\"",
            "device     equipment — header bytes 124…135 (recording, subfield 5): \"Cyton-SN1234\"",
            "annotation text — annotation signal, onset 1.000 s: \"Jane said she felt dizzy\"",
        ] {
            #expect(listed.contains(expected), "\(listed)")
        }
        for format in ["edf", "bdf", "xdf", "csv"] {
            let output = folder.appendingPathComponent("out.\(format)").path
            let plain = folder.appendingPathComponent("plain.\(format)").path
            _ = try Self.axon(["convert", input, output, "--anonymize"])
            _ = try Self.axon(["convert", input, plain])
            let before = Self.kinds(try Self.axon(["info", "--identifiers", plain]))
            let after = try Self.axon(["info", "--identifiers", output])
            #expect(before.contains("person") || format == "xdf", "\(format): \(before)")
            #expect(before.contains("annotation") && before.contains("device"), "\(format): \(before)")
            #expect(Set(Self.kinds(after)) == ["date"], "\(format): \(after)")
            #expect(after.contains("nothing but dates"))
        }
    }

    @Test("CSV: Axon CSV without the source's fields, markers or true dates; OpenBCI, BrainFlow, Muse, Mind Monitor")
    func csvHasNoIdentifyingField() throws {
        let (folder, input) = try Self.identifiedEDF()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("anonymous.csv").path
        _ = try Self.axon(["convert", input, output, "--anonymize", "--shift-days", "3"])
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let descriptor = try JSONDecoder().decode(
            StreamDescriptor.self, from: Data(lines[1].dropFirst("# descriptor ".count).utf8))
        #expect(descriptor.name == "EEG" && descriptor.sourceID == "anonymous")
        for key in descriptor.metadata.keys {
            #expect(!["patient", "birthdate", "sex", "technician", "equipment", "admincode", "recording", "file",
                      "startDate", "startTime"].contains(where: key.contains), "kept \(key)")
        }
        for word in ["Jane", "MRN", "Dr Who", "Cyton-SN", "ADM-99", "dizzy", "# marker", "jane.edf"] {
            #expect(!text.contains(word), "\(word)")
        }
        let source = try RecordingReader.read(path: input)
        let back = try RecordingReader.read(path: output)
        #expect(back.values == source.values && back.markers.isEmpty)
        #expect(back.startTime == Self.start + 3 * 86_400)
        let plainOutput = folder.appendingPathComponent("plain.csv").path
        _ = try Self.axon(["convert", input, plainOutput])
        #expect(try String(contentsOfFile: plainOutput, encoding: .utf8).contains("Jane Doe"))  // the check can fail

        // The files other programs write: what identifies is listed on them, and only dates once converted.
        let root = ReadmeTests.root.appendingPathComponent("datasets")
        let files = [
            ("openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt", "Timestamp"),
            ("openbci-cyton-eyes-closed/OpenBCI-RAW-2016-format-first20s.txt", "time of the first row"),
            ("openbci-cyton-eyes-closed/BrainFlow-RAW-cyton-first8s.csv", "time of the first row"),
            ("muse-p300/data_2017-02-04-15_45_13-first14s.csv", "timestamps"),
            ("muse-p300/mindMonitor-2017-format-first4s.csv", "Muse-7A1B"),
        ]
        for (index, (file, expected)) in files.enumerated() {
            let path = root.appendingPathComponent(file).path
            let listed = try Self.axon(["info", "--identifiers", path])
            #expect(listed.contains(expected), "\(file): \(listed)")
            let converted = folder.appendingPathComponent("other\(index).csv").path
            // Mind Monitor's band powers are a second stream, which Axon CSV cannot hold: the EEG is named.
            let eegOnly = file.hasPrefix("muse-p300/mindMonitor") ? ["--channels", "TP9,AF7,AF8,TP10"] : []
            _ = try Self.axon(["convert", path, converted, "--anonymize"] + eegOnly)
            let after = try Self.axon(["info", "--identifiers", converted])
            #expect(Set(Self.kinds(after)).isSubset(of: ["date"]), "\(file): \(after)")
        }
    }

    /// `axon record` of the simulator for 3 s in real time, with a line typed on standard input once samples are
    /// being written (a user marker); returns the output.
    static func recordTyping(_ line: String, _ arguments: [String]) throws -> String {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let input = Pipe()
        let run = try LiveOutputTests.Run(
            axon, ["record", "simulator", "--seconds", "3", "--baseline", "0"] + arguments, input: input)
        // The first progress line: samples are in the file, so the marker falls inside the recording.
        let started = run.wait(seconds: 30) { $0.contains { $0.text.hasPrefix("recorded ") } }
        #expect(started, "\(run.received.map(\.text))")
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        let marked = run.wait(seconds: 30) { $0.contains { $0.text.hasPrefix("marked") } }
        #expect(marked, "\(run.received.map(\.text))")
        let status = run.finish(seconds: 60)
        let printed = run.received.map(\.text).joined(separator: "\n")
        #expect(status == 0, "\(printed)")
        return printed
    }

    @Test("axon record --anonymize drops a line typed while recording (EDF+ and XDF), --keep-annotations keeps it")
    func recordDropsTypedMarkers() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let typed = "Jane Doe feels dizzy"
        for format in ["edf", "xdf"] {
            var texts: [String: [String]] = [:]
            for (name, extra) in [("plain", []), ("anonymous", ["--anonymize"]),
                                  ("kept", ["--anonymize", "--keep-annotations"])] {
                let path = folder.appendingPathComponent("\(name).\(format)").path
                let printed = try Self.recordTyping(typed, ["--out", path] + extra)
                #expect(printed.contains("marked \"\(typed)\""), "\(printed)")
                texts[name] = try RecordingReader.read(path: path).markers.compactMap(\.text)
            }
            #expect(texts["plain"]?.contains { $0.contains(typed) } == true, "\(format): \(texts)")
            #expect(texts["anonymous"]?.contains { $0.contains("Jane") } == false, "\(format): \(texts)")
            #expect(texts["kept"]?.contains { $0.contains(typed) } == true, "\(format): \(texts)")
        }
    }

    @Test("axon record --anonymize: EDF+, XDF and CSV written live name no one")
    func recordAnonymized() throws {
        let folder = try ConvertCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in ["edf", "xdf", "csv"] {
            let plain = folder.appendingPathComponent("plain.\(format)").path
            let output = folder.appendingPathComponent("anonymous.\(format)").path
            let common = ["record", "simulator", "--seconds", "2", "--fast", "--baseline", "0"]
            _ = try Self.axon(common + ["--out", plain])
            _ = try Self.axon(common + ["--out", output, "--anonymize", "--shift-days", "2"])
            let before = Self.kinds(try Self.axon(["info", "--identifiers", plain]))
            #expect(before.contains("device") || before.contains("recording"), "\(format): \(before)")
            let after = try Self.axon(["info", "--identifiers", output])
            #expect(Set(Self.kinds(after)) == ["date"], "\(format): \(after)")
            let shifted = try #require(try RecordingReader.read(path: output).startTime)
            let unshifted = try #require(try RecordingReader.read(path: plain).startTime)
            // Recorded one after the other, a few seconds apart: two days plus those seconds.
            #expect(abs(shifted - unshifted - 2 * 86_400) < 60, "\(format): \(shifted - unshifted) s")
        }
    }
}
