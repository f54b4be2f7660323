import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// ``Anonymization`` in the writers and ``IdentifyingFields``, byte for byte; the command-line runs with pyedflib,
/// MNE and pyxdf are `AnonymizeCommandTests`.
@Suite("Anonymization")
struct AnonymizationTests {
    static let person = EDFWriter.Patient(code: "MRN-4711", sex: "F", birthdate: "14-MAR-1971", name: "Jane Doe")
    /// 2024-05-06 07:08:09.25 UTC.
    static let start = 1_714_979_289.25

    static func header(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// An EDF+ file of `EDFWriterTests`' stream with every identification field set and one typed annotation.
    static func write(_ anonymization: Anonymization?) throws -> (path: String, annotations: Int) {
        let path = EDFWriterTests.temporaryPath()
        var options = EDFWriter.Options(
            patient: person, adminCode: "ADM-99", technician: "Dr Who", equipment: "Cyton-SN1234")
        options.anonymization = anonymization
        let writer = try EDFWriter(
            path: path, descriptor: EDFWriterTests.descriptor, startUnixTime: start, options: options)
        writer.annotate(onset: 0.5, text: "Jane said she felt dizzy")
        writer.annotateGenerated(onset: 0.7, text: "gap: 3 samples (deviceCounter)")
        for i in 0..<250 { try writer.append([Double(i % 100), -Double(i % 50)]) }
        try writer.close()
        return (path, writer.annotationsWritten)
    }

    @Test("EDF+: the specification's anonymous fields, the start date moved by whole days, typed annotations dropped")
    func edfHeaderIsAnonymous() throws {
        let plain = try Self.write(nil)
        defer { try? FileManager.default.removeItem(atPath: plain.path) }
        var bytes = try Self.header(plain.path)
        // Without anonymization every field is there: what the anonymized file must not have.
        #expect(EDFWriterTests.field(bytes, 8, 80) == "MRN-4711 F 14-MAR-1971 Jane_Doe")
        #expect(EDFWriterTests.field(bytes, 88, 80) == "Startdate 06-MAY-2024 ADM-99 Dr_Who Cyton-SN1234")
        #expect(plain.annotations == 3)  // Recording starts, the typed one, the gap

        let anonymous = try Self.write(Anonymization(shiftDays: -400))
        defer { try? FileManager.default.removeItem(atPath: anonymous.path) }
        bytes = try Self.header(anonymous.path)
        #expect(EDFWriterTests.field(bytes, 8, 80) == "X X X X")
        #expect(EDFWriterTests.field(bytes, 88, 80) == "Startdate 02-APR-2023 X X X")  // 400 days before
        #expect(EDFWriterTests.field(bytes, 168, 8) == "02.04.23")
        #expect(EDFWriterTests.field(bytes, 176, 8) == "07.08.09")  // the time of day is kept
        #expect(anonymous.annotations == 2)  // Recording starts and the gap: Axon's own texts
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("dizzy") && text.contains("gap: 3 samples"))
        let read = try RecordingReader.read(path: anonymous.path)
        #expect(read.startTime == Self.start - 400 * 86_400)
        #expect(read.markers.map(\.text) == ["Recording starts", "gap: 3 samples (deviceCounter)"])

        let kept = try Self.write(Anonymization(keepsAnnotations: true))
        defer { try? FileManager.default.removeItem(atPath: kept.path) }
        #expect(kept.annotations == 3)
        #expect(EDFWriterTests.field(try Self.header(kept.path), 8, 80) == "X X X X")
    }

    @Test("identifying fields of EDF+: each subfield with its byte range; none but dates once anonymized")
    func edfIdentifyingFields() throws {
        let plain = try Self.write(nil)
        let anonymous = try Self.write(Anonymization())
        defer {
            try? FileManager.default.removeItem(atPath: plain.path)
            try? FileManager.default.removeItem(atPath: anonymous.path)
        }
        let fields = try IdentifyingFields.find(path: plain.path, recording: RecordingReader.read(path: plain.path))
        let found = Dictionary(fields.map { ($0.name, "\($0.location)=\($0.value)") }, uniquingKeysWith: { $0 + $1 })
        #expect(found["patient code"] == "header bytes 8…15 (patient, subfield 1)=MRN-4711")
        #expect(found["sex"] == "header bytes 17…17 (patient, subfield 2)=F")
        #expect(found["birthdate"] == "header bytes 19…29 (patient, subfield 3)=14-MAR-1971")
        #expect(found["patient name"] == "header bytes 31…38 (patient, subfield 4)=Jane_Doe")
        #expect(found["admin code"] == "header bytes 110…115 (recording, subfield 3)=ADM-99")
        #expect(found["technician"] == "header bytes 117…122 (recording, subfield 4)=Dr_Who")
        #expect(found["equipment"] == "header bytes 124…135 (recording, subfield 5)=Cyton-SN1234")
        #expect(found["start date"] == "header bytes 168…175=06.05.24")
        // The typed annotation is listed; Axon's own (start, gap) are not.
        #expect(fields.filter { $0.kind == .annotation }.map(\.value) == ["Jane said she felt dizzy"])

        let after = try IdentifyingFields.find(
            path: anonymous.path, recording: RecordingReader.read(path: anonymous.path))
        #expect(Set(after.map(\.kind)) == [.date])
        #expect(after.map(\.name) == ["recording start date", "start date", "start time"])
    }

    @Test("plain EDF/BDF: the local patient and recording identification are free text, listed whole")
    func plainEDFIdentifyingFields() throws {
        let written = try Self.write(nil)
        defer { try? FileManager.default.removeItem(atPath: written.path) }
        var bytes = try Self.header(written.path)
        func put(_ text: String, at offset: Int, width: Int) {
            let padded = text.padding(toLength: width, withPad: " ", startingAt: 0)
            bytes.replaceSubrange(offset..<(offset + width), with: Array(padded.utf8))
        }
        put("Jane Doe, born 1971", at: 8, width: 80)
        put("Ward 7, Dr Who", at: 88, width: 80)
        put("", at: 192, width: 44)  // no EDF+ in the reserved field: a plain EDF header
        let fields = IdentifyingFields.edf(header: bytes, recording: try RecordingReader.read(path: written.path))
        #expect(fields.filter { $0.kind != .annotation }.map { "\($0.name)@\($0.location)=\($0.value)" } == [
            "local patient identification@header bytes 8…87=Jane Doe, born 1971",
            "local recording identification@header bytes 88…167=Ward 7, Dr Who",
            "start date@header bytes 168…175=06.05.24", "start time@header bytes 176…183=07.08.09",
        ])
    }

    @Test("EDF+ subfields: the additional part after the named ones is one field")
    func subfieldRanges() {
        let parts = IdentifyingFields.subfields("MRN-4711 F X Jane_Doe left handed  ", at: 8, named: 4)
        #expect(parts.map(\.value) == ["MRN-4711", "F", "X", "Jane_Doe", "left handed"])
        #expect(parts.map(\.range) == ["8…15", "17…17", "19…19", "21…28", "30…40"])
    }

    @Test("a descriptor keeps only technical metadata; its name and source id name nothing")
    func descriptorKeepsOnlyTechnicalMetadata() {
        let descriptor = StreamDescriptor(
            name: "Muse-7A1B", contentType: .eeg, channels: [ChannelInfo(label: "TP9", unit: "µV")], nominalRate: 256,
            format: .float32, sourceID: "Muse-00:55:DA:B0:1E:2C",
            metadata: [
                "file": "jane-doe-2024-05-06.csv", "edf.patientName": "Jane Doe", "edf.technician": "Dr Who",
                "edf.startDate": "06.05.24", "header.Subject": "Jane", "lsl.hostname": "lab-pc-jane",
                "format": "EDF+", "edf.prefilter": "HP:0.1Hz", "sourceColumn.TP9": "TP9 ", "measuredRate": "256.00",
            ])
        let anonymous = Anonymization().descriptor(descriptor)
        #expect(anonymous.name == "EEG" && anonymous.sourceID == "anonymous")
        #expect(
            Set(anonymous.metadata.keys) == ["format", "edf.prefilter", "sourceColumn.TP9", "measuredRate"])
        #expect(anonymous.channels == descriptor.channels && anonymous.nominalRate == 256)
        var derived = descriptor
        derived.name = "Muse-7A1B Zones"
        #expect(Anonymization().descriptor(derived).name == "Zones")
        // Dates move, a device's own count (before 2001) does not.
        let shift = Anonymization(shiftDays: 3)
        #expect(shift.shifted(Self.start) == Self.start + 3 * 86_400 && shift.shifted(12.5) == 12.5)
    }

    @Test("XDF stream headers: every leaf by path, and which can identify")
    func xdfElements() {
        let xml = """
            <?xml version="1.0"?><info><name>Muse-7A1B</name><type>EEG</type><hostname>lab-pc</hostname>\
            <source_id>anonymous</source_id><session_id>default</session_id><desc><channels><channel>\
            <label>TP9</label></channel></channels><subject><name>Jane &amp; Joe</name></subject>\
            <acquisition><manufacturer>Interaxon</manufacturer><serial_number>7A1B</serial_number></acquisition>\
            <empty/><notes>left-handed</notes></desc></info>
            """
        let leaves = IdentifyingFields.xmlLeaves(xml)
        #expect(leaves.map(\.path).contains("info/desc/subject/name"))
        #expect(leaves.first { $0.path == "info/desc/subject/name" }?.value == "Jane & Joe")
        let kinds = Dictionary(
            leaves.compactMap { leaf in
                IdentifyingFields.kind(ofStreamElement: leaf.path, value: leaf.value, type: "EEG")
                    .map { (leaf.path, $0) }
            }, uniquingKeysWith: { first, _ in first })
        #expect(
            kinds == [
                "info/name": .device, "info/hostname": .recording, "info/desc/subject/name": .person,
                "info/desc/acquisition/serial_number": .device, "info/desc/notes": .header,
            ])
    }
}
