import AxonBand
import AxonBrainiac
import AxonMuse
import AxonOpenBCI
import AxonRecording
import AxonResearchBIT
import AxonScales
import AxonSensors
import AxonStreams
import Foundation
import FuzzTargets

/// Writes the seed corpora: `axon-fuzz-seeds CORPUS_DIR DATASETS_DIR` fills `CORPUS_DIR/<target>/` with small
/// valid inputs made by Axon's own encoders and simulators, the published vectors its tests check against, and
/// cuts of the real recordings in DATASETS_DIR (the project's `datasets/`). Deterministic: the same files each run.
@main
struct SeedWriter {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: axon-fuzz-seeds CORPUS_DIR DATASETS_DIR\n".utf8))
            exit(2)
        }
        let corpus = URL(fileURLWithPath: arguments[1])
        let datasets = URL(fileURLWithPath: arguments[2])
        var written = 0
        for target in FuzzTarget.allCases {
            let folder = corpus.appendingPathComponent(target.rawValue)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, seed) in try seeds(target, datasets: datasets).enumerated() {
                try Data(seed).write(to: folder.appendingPathComponent(String(format: "seed-%02d", index)))
                written += 1
            }
        }
        print("axon-fuzz-seeds: \(written) seeds for \(FuzzTarget.allCases.count) targets in \(corpus.path)")
    }

    static func hex(_ text: String) -> [UInt8] { text.split(separator: " ").map { UInt8($0, radix: 16)! } }

    /// The first `lines` lines of a text file.
    static func head(_ url: URL, lines: Int) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var seen = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            seen += 1
            if seen == lines { return Array(bytes[...index]) }
        }
        return bytes
    }

    static func seeds(_ target: FuzzTarget, datasets: URL) throws -> [[UInt8]] {
        let openBCIURL = datasets.appendingPathComponent("openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")
        let museURL = datasets.appendingPathComponent("muse-p300/data_2017-02-04-15_45_13-first14s.csv")
        switch target {
        case .brainiac:
            let encoder = BrainiacEncoder()
            let header = { (order: UInt16, counter: UInt32) in
                BrainiacNotificationHeader(
                    hardwareOrderNumber: order, counter: counter, timeMilliseconds: 1_763_800_200_000 + UInt64(counter) * 4)
            }
            let eeg = { (order: UInt16, counter: UInt32, samples: Int) throws -> [UInt8] in
                try encoder.encodeEEG(
                    header(order, counter), values: (0..<(samples * 4)).map { Double($0 % 7) * 12.5 - 30 })
            }
            return [
                FuzzChunks.frame([try eeg(1, 0, 10), try eeg(2, 10, 10), try eeg(4, 30, 10)]),
                FuzzChunks.frame([
                    try encoder.encodeBattery(header(7, 100), level: 83), encoder.encodeStatus(header(8, 100), status: .scanningStarted),
                    try eeg(9, 100, 1),
                ]),
            ]
        case .elm327:
            return [
                "410C1AF8\r\r>", "SEARCHING...\r4100BE3FA813\r\r>", "014\r0: 490201575030\r1: 5A5A5A39395A54\r2: 53333930303030\r\r>",
                "NO DATA\r\r>", "41 0D 37\r", "43 01 33 00 00 00 00\r\r>", "?\r\r>", "BUS INIT: ...OK\r410D37\r",
                "7E8 04 41 0C 1A F8\r7E9 04 41 0C 1A F0\r\r>",
            ].map { Array($0.utf8) }
        case .band:
            guard let today = BandDate(year: 2025, month: 11, day: 22) else { return [] }
            let records = SimulatedBand.week(today: today, days: 2).prefix(12).enumerated().map {
                BandNotification.record(BandRecord(sequence: UInt32($0.offset), content: $0.element)).bytes
            }
            return records + [
                BandNotification.deviceInfo(BandDeviceInfo(model: .fitPulse, firmware: "2.0.17", name: "Fit Pulse")).bytes,
                BandNotification.battery(64).bytes, BandNotification.syncDone(lastSequence: 70_000).bytes,
                BandNotification.response(command: 0x43, accepted: true).bytes,
                // Heart Rate Measurement, the GATT example: 16-bit bpm, energy, one RR interval.
                [0x19, 0x96, 0x00, 0xD2, 0x04, 0x00, 0x03], [0x06, 0x48], [0x10, 0x50, 0x00, 0x04, 0x20, 0x04],
            ]
        case .researchbit:
            let event = SummaryEvent(
                id: UUID(uuidString: "6F1B2C3D-4E5F-4071-8293-A4B5C6D7E8F9")!, type: .triggerPulls,
                wakeupTime: 1_763_800_200, fields: [42, 7])
            return [
                ResearchBITNotification.event(sequence: 12, event).bytes,
                ResearchBITNotification.status(battery: 88, pending: 3).bytes,
                ResearchBITNotification.done(lastSequence: 12).bytes,
                ResearchBITCommand.fetch(after: 11).bytes, ResearchBITCommand.acknowledge(sequence: 12).bytes,
                ResearchBITCommand.status.bytes,
            ]
        case .scale:
            return [
                ScaleResponse.record(
                    index: 7,
                    ScaleRecord(
                        time: 1_763_800_200, weightKg: 71.4,
                        bodyComposition: SimulatedScale.Configuration.hs5Composition(weightKg: 71.4))
                ).bytes,
                ScaleResponse.users([HS5UserSlot(position: 2, serialNumber: 99)]).bytes,
                ScaleCommand.createUser(
                    HS5User(
                        serialNumber: 5, birthYear: 1990, birthMonth: 1, birthDay: 1, heightCM: 180, isAthlete: true,
                        sex: .female), position: 4
                ).bytes,
                ScaleCommand.memory(from: 3, serialNumber: 9).bytes,
            ]
        case .gatt:
            // Weight Measurement and Body Composition vectors (all flag fields present in some), Weight Scale
            // Feature, and a two-packet body composition measurement in the chunk framing.
            let vectors = [
                "00 A0 3C", "03 A0 3C E9 07 0B 16 08 1E 00", "0F A0 3C E9 07 0B 16 08 1E 00 01 FD 00 D6 06",
                "00 00 FA 00", "02 00 FA 00 E9 07 0B 16 08 1E 00", "08 00 FA 00 10 1B", "10 00 FA 00 7E 01",
                "FE 01 FA 00 10 1B 7E 01 A0 3C", "0F 00 00 00",
            ].map(hex)
            return vectors + [FuzzChunks.frame([hex("00 10 FA 00"), hex("00 00 FA 00 10 1B")])]
        case .edf:
            // The PhysioNet file's header and its first data record, the record count patched to 1.
            var bytes = [UInt8](try Data(contentsOf: datasets.appendingPathComponent("physionet-eegmmidb/S001R01.edf")))
            bytes = Array(bytes.prefix(256 * 66 + 20_640))
            bytes.replaceSubrange(236..<244, with: Array("1       ".utf8))
            return [bytes]
        case .axoncsv:
            let recording = try OpenBCITextReader().read(path: openBCIURL.path).frames(0..<12)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-fuzz-seed.csv").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try AxonCSVWriter.write(recording, to: path)
            return [[UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))]
        case .openbci:
            return [try head(openBCIURL, lines: 20)]
        case .musecsv:
            return [try head(museURL, lines: 20)]
        case .muse:
            // Three complete packets of 4 channels, index 2 missing (a lost packet).
            var packets: [[UInt8]] = []
            for index in [0, 1, 3] {
                for channel in 0..<4 {
                    let raw = (0..<12).map { UInt16(2048 + 37 * $0 + 101 * channel) }
                    packets.append([UInt8(channel)] + MuseEEGPacket(index: UInt16(index), raw: raw).bytes)
                }
            }
            return [[0] + FuzzChunks.frame(packets)]
        case .cyton:
            // Real counts: packets built from the OpenBCI recording's first frames, split at odd serial-read sizes.
            let recording = try OpenBCITextReader().read(path: openBCIURL.path).frames(0..<6)
            var stream: [UInt8] = []
            for frame in 0..<recording.frameCount {
                let counts = (0..<8).map { channel -> Int32 in
                    let microvolts = recording.values[frame * recording.channelCount + channel]
                    return Int32(max(-8_388_608, min(8_388_607, (microvolts / 0.022_351_744_455_307_46).rounded())))
                }
                stream += CytonPacket(sampleNumber: UInt8(frame), counts: counts).bytes
            }
            let chunks = stride(from: 0, to: stream.count, by: 50).map { Array(stream[$0..<min(stream.count, $0 + 50)]) }
            return [[0] + FuzzChunks.frame(chunks), [1] + FuzzChunks.frame(chunks)]
        case .ganglion:
            // OpenBCI's published 18-bit vector after a raw packet, and a 19-bit packet.
            let raw: [UInt8] = [0x00, 0x0F, 0x42, 0x40, 0xE1, 0x7B, 0x80, 0x7F, 0xFF, 0xFF, 0x80, 0x00, 0x00] + Array(repeating: 0, count: 7)
            let first: [UInt8] = [0x01] + hex("00 00 00 00 20 00 28 00 04 80 00 BC 00 07 00 28 C0 0A") + [0xFE]
            let second = hex("65 00 00 5F FF F4 03 48 00 00 00 00 00 00 00 00 00 07 FF FF")
            let impedance: [UInt8] = [0xCA] + Array("1234Z".utf8)
            return [FuzzChunks.frame([raw, first, second, impedance])]
        case .fif:
            // Axon writes no FIF: the seeds are MNE-Python's own files (RawArray.save, float and short, two channels,
            // an annotation), committed as Fuzz/Corpus/fif/seed-mne-*.
            return []
        case .osc:
            func string(_ text: String) -> [UInt8] {
                var bytes = Array(text.utf8) + [0]
                while bytes.count % 4 != 0 { bytes.append(0) }
                return bytes
            }
            func float(_ value: Float) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init) }
            func int32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
            // Mind Monitor's first RAW row as it streams it, a bundle holding it twice, and every other type tag.
            let eeg = string("/muse/eeg") + string(",ffff") + [-44.922, 27.832, 32.715, 58.105].flatMap(float)
            let bundle = string("#bundle") + [0, 0, 0, 0, 0, 0, 0, 1]
                + int32(Int32(eeg.count)) + eeg + int32(Int32(eeg.count)) + eeg
            let everything = string("/a") + string(",ifsbhdtcrmTFNI") + int32(-7) + float(1.5) + string("text")
                + int32(3) + [1, 2, 3, 0] + [UInt8](repeating: 0x11, count: 8) + [UInt8](repeating: 0x22, count: 8)
                + [UInt8](repeating: 0x33, count: 8) + int32(65) + int32(0x1020_3040) + int32(0x0090_3C40)
            return [eeg, bundle, everything]
        case .sensordescription:
            // The shipped examples (one per transport kind but UDP) and a UDP binary layout with every field form.
            let examples = datasets.deletingLastPathComponent().appendingPathComponent("examples/sensors")
            let files = ["arduino-csv.json", "mind-monitor-osc.json", "polar-h10-ecg.json"]
            let udp = """
                {"name": "b", "type": "EEG", "rate": 250, "transport": {"udp": {"port": 9000}},
                 "layout": {"binary": {"fields": [{"name": "seq", "offset": 0, "type": "uint8"}],
                    "samples": {"offset": 1, "stride": 5, "count": 2, "fields": [
                        {"name": "a", "offset": 0, "bit": 4, "bits": 12, "signed": true, "endian": "big"},
                        {"name": "b", "offset": 1, "type": "float32le"}]}}},
                 "counter": {"field": "seq", "counts": "packets"},
                 "channels": [{"label": "A", "field": "a", "unit": "µV", "scale": 0.5, "offset": -1, "range": [-2, 2]},
                              {"label": "B", "field": "b"}]}
                """
            return try files.map { [UInt8](try Data(contentsOf: examples.appendingPathComponent($0))) } + [Array(udp.utf8)]
        case .sensorlayout:
            func be16(_ value: Int16) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
            func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
            func float(_ value: Float) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init) }
            func string(_ text: String) -> [UInt8] {
                var bytes = Array(text.utf8) + [0]
                while bytes.count % 4 != 0 { bytes.append(0) }
                return bytes
            }
            // The first byte picks the layout (FuzzTarget.sensorLayouts' order); packets follow, chunked.
            // Packets 254, 255 and 0 (the counter wraps), four samples each.
            var counted: [[UInt8]] = []
            for packet in 0..<3 {
                var bytes: [UInt8] = [UInt8((254 + packet) % 256)]
                for sample in 0..<4 {
                    bytes += be16(Int16(packet * 8 + sample))
                    bytes += be16(-7)
                }
                counted.append(bytes)
            }
            var measurement: [UInt8] = [0]
            measurement += le32(1300)
            measurement += [0x12, 0x34] + float(1.5)
            measurement += [0xFF, 0xF0] + float(-2)
            let filled: [[UInt8]] = [measurement, [2] + le32(0)]
            let csv = ["n,skip,v", "998,x,1.5", "999,x,-2", "0,x,3e2", "1,x,"].map { Array($0.utf8) }
            let pattern = ["T=-3.5 H=41", "T=20 H=", "T=1 H=2"].map { Array($0.utf8) }
            func oscFloat(_ value: Float) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init) }
            let osc = [string("/muse/eeg") + string(",fff") + [1, 2, 3].flatMap(oscFloat), string("/other") + string(",")]
            return [
                [0] + FuzzChunks.frame(counted), [1] + FuzzChunks.frame(filled), [2] + FuzzChunks.frame(csv),
                [3] + FuzzChunks.frame(pattern), [4] + FuzzChunks.frame(osc),
            ]
        case .xdf, .lslxml:
            let recording = try MuseCSVReader().read(path: museURL.path).frames(0..<8)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-fuzz-seed.xdf").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try XDFWriter(path: path)
            let id = try writer.addStream(recording.descriptor)
            var scratch: [UInt8] = []
            let times = (0..<recording.frameCount).map { 1_486_223_113.0 + Double($0) / recording.sampleRate }
            try times.withUnsafeBufferPointer { timestamps in
                try recording.values.withUnsafeBufferPointer { values in
                    try writer.appendSamples(stream: id, timestamps: timestamps, values: values, scratch: &scratch)
                }
            }
            try writer.close()
            let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            guard target == .lslxml else { return [file] }
            // The stream header's XML: the first chunk with tag 2, after its stream id.
            guard let xml = Self.streamHeaderXML(in: file) else { return [] }
            return [xml]
        }
    }

    /// The XML of the first stream header chunk of an XDF file written by XDFWriter (4-byte lengths).
    static func streamHeaderXML(in file: [UInt8]) -> [UInt8]? {
        var offset = 4
        while offset + 7 <= file.count {
            let width = Int(file[offset])
            var length = 0
            for k in 0..<width { length |= Int(file[offset + 1 + k]) << (8 * k) }
            let tagAt = offset + 1 + width
            let tag = Int(file[tagAt]) | Int(file[tagAt + 1]) << 8
            if tag == 2 { return Array(file[(tagAt + 2 + 4)..<(tagAt + length)]) }
            offset = tagAt + length
        }
        return nil
    }
}
