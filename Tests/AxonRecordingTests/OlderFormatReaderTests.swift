import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// The sample files of the older OpenBCI formats (datasets/README.md, made by scripts/make-format-samples.py from the
/// OpenBCI GUI v6 recording): every value read must equal the v6 file's value for the same sample, except the spans
/// the samples put at the rails.
@Suite("OpenBCI GUI v1–v4 text and BrainFlow CSV readers")
struct OlderOpenBCIFormatTests {
    static let legacyPath = TestData.root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/OpenBCI-RAW-2016-format-first20s.txt"
    ).path
    static let brainFlowPath = TestData.root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/BrainFlow-RAW-cyton-first8s.csv"
    ).path

    @Test func the2016FileReadsAllEightChannelsWithTheRailsIntact() throws {
        let recording = try OpenBCILegacyTextReader().read(path: Self.legacyPath)
        let source = try TestData.openBCI.get()
        #expect(recording.frameCount == 5000)
        #expect(recording.sampleRate == 250)
        #expect(recording.channelLabels == (0..<8).map { "EXG\($0)" })
        #expect(
            recording.descriptor.channels.allSatisfy {
                $0.unit == "µV"
                    && $0.range == OpenBCILegacyTextReader.negativeRail...OpenBCILegacyTextReader.positiveRail
            })
        #expect(recording.timestamps == nil)
        #expect(recording.warnings.isEmpty && recording.truncation == nil)
        #expect(recording.descriptor.metadata["headerLines"] == "5")
        #expect(recording.descriptor.metadata["firstTimeOfDay"] == "12:00:53.329 (the file has no date)")
        var railed = [Int](repeating: 0, count: 8)
        var mismatches = 0
        for frame in 0..<5000 {
            for channel in 0..<8 {
                let value = recording.value(frame: frame, channel: channel)
                if channel == 5 && (1250..<2250).contains(frame) {
                    railed[5] += value == -187500.02 ? 1 : 0
                } else if channel == 3 && (3000..<3125).contains(frame) {
                    railed[3] += value == 187500.00 ? 1 : 0
                } else if value != source.value(frame: frame, channel: channel) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
        #expect(railed == [0, 0, 0, 125, 0, 1000, 0, 0])
        // The rails are at the ends of the declared range: an analysis or an EDF/BDF conversion sees them as rails.
        #expect(abs(-187500.02 - OpenBCILegacyTextReader.negativeRail) < 0.005)
        #expect(OpenBCILegacyTextReader.positiveRail == 187500.0)
        // The sample index is the device counter, as in the source.
        #expect(recording.counters == source.counters.map { Array($0.prefix(5000)) })
        #expect(recording.counterModulus == 256)
    }

    @Test func formatDetectionAndTheFrontDoor() throws {
        let bytes = try RecordingFile.readAll(path: Self.legacyPath)
        #expect(try RecordingFormat.detect(bytes: bytes) == .openBCILegacyText)
        #expect(try RecordingReader.read(path: Self.legacyPath).frameCount == 5000)
        let flow = try RecordingFile.readAll(path: Self.brainFlowPath)
        #expect(try RecordingFormat.detect(bytes: flow) == .brainFlowCSV)
        #expect(RecordingFormat.openBCILegacyText.description == "OpenBCI GUI v1–v4 text")
        #expect(RecordingFormat.brainFlowCSV.description == "BrainFlow CSV")
    }

    /// The GUI v3/v4 variant: `%Number of channels`, `%Last Column = Timestamp`, time of day then Unix milliseconds.
    @Test func theLaterVariantWithUnixMilliseconds() throws {
        let source = try TestData.openBCI.get()
        let sourceRows = try TestData.lines(of: TestData.openBCIPath).dropFirst(5).prefix(300)
        var text = "%OpenBCI Raw EEG Data\n%Number of channels = 8\n%Sample Rate = 250.0 Hz\n"
        text += "%First Column = SampleIndex\n%Last Column = Timestamp \n"
        text += "%Other Columns = EEG data in microvolts followed by Accel Data (in G) interleaved with Aux Data\n"
        for row in sourceRows {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            text += (Array(fields[0..<12]) + [fields[24], fields[22]]).joined(separator: ", ") + "\n"
        }
        let recording = try OpenBCILegacyTextReader().read(bytes: Array(text.utf8), sourceName: "v3.txt")
        #expect(recording.frameCount == 300)
        #expect(recording.descriptor.metadata["channelCount"] == "8 (from the header)")
        #expect(recording.timestamps == source.timestamps.map { Array($0.prefix(300)) })
        #expect(Array(recording.frame(299)) == Array(source.frame(299)))
    }

    @Test func badLegacyFilesAreRefusedWithTheLine() throws {
        let bytes = try RecordingFile.readAll(path: Self.legacyPath)
        let noRate = bytes.replacingLine(3, with: "%")
        #expect(
            throws: RecordingError.missingHeader(line: 6, expected: "a \"%Sample Rate = R Hz\" line before the data")
        ) {
            try OpenBCILegacyTextReader().read(bytes: noRate)
        }
        let shortRow = bytes.replacingLine(100, with: "93, 1.0, 2.0, 3.0")
        #expect(throws: RecordingError.malformedRow(line: 100, reason: "4 fields where the header has 13")) {
            try OpenBCILegacyTextReader().read(bytes: shortRow)
        }
        let oddColumns = Array("%OpenBCI Raw EEG Data\n%Sample Rate = 250.0 Hz\n0, 1.0, 2.0, 3.0, 4.0, 5.0\n".utf8)
        #expect(throws: RecordingError.self) { try OpenBCILegacyTextReader().read(bytes: oddColumns) }
        // A file cut inside its last row: the rows before it, with the cut described.
        let cut = Array(bytes[..<(bytes.offset(ofLine: 1006) + 20)])
        let recording = try OpenBCILegacyTextReader().read(bytes: cut)
        #expect(recording.frameCount == 1000)
        #expect(recording.truncation?.line == 1006)
    }

    @Test func theBrainFlowFileHasTheSourceValuesTimesAndCounters() throws {
        let recording = try BrainFlowCSVReader().read(path: Self.brainFlowPath)
        let source = try TestData.openBCI.get()
        #expect(recording.frameCount == 2000)
        #expect(recording.sampleRate == 250)
        #expect(recording.channelCount == 8)
        #expect(
            recording.descriptor.metadata["board"]?.hasPrefix("Cyton (BrainFlow board 0), from the 24 columns") == true)
        var mismatches = 0
        var railed = 0
        for frame in 0..<2000 {
            for channel in 0..<8 {
                let value = recording.value(frame: frame, channel: channel)
                if channel == 1 && (500..<525).contains(frame) {
                    railed += value == -187500.022352 ? 1 : 0
                } else if value != source.value(frame: frame, channel: channel) {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
        #expect(railed == 25)
        // Unix seconds written with six decimals: the same Double as the v6 file's milliseconds ÷ 1000.
        #expect(recording.timestamps == source.timestamps.map { Array($0.prefix(2000)) })
        #expect(recording.counters == source.counters.map { Array($0.prefix(2000)) })
        #expect(recording.markers.isEmpty)
    }

    @Test func theBoardComesFromTheColumnsOrIsGiven() throws {
        let bytes = try RecordingFile.readAll(path: Self.brainFlowPath)
        let wifi = try BrainFlowCSVReader(board: .cytonWifi).read(bytes: bytes)
        #expect(wifi.sampleRate == 1000)
        #expect(wifi.descriptor.metadata["board"] == "CytonWifi (BrainFlow board 5), as given")
        let viaFrontDoor = try RecordingReader.read(
            bytes: bytes, sourceName: "x.csv", options: .init(brainFlowBoard: .cytonWifi))
        #expect(viaFrontDoor.sampleRate == 1000)
        #expect(
            throws: RecordingError.malformedHeader(line: 1, reason: "24 columns, but BrainFlow's Ganglion rows have 15")
        ) {
            try BrainFlowCSVReader(board: .ganglion).read(bytes: bytes)
        }
        let tenColumns = Array((Array(repeating: "1.000000", count: 10).joined(separator: "\t") + "\n").utf8)
        #expect(throws: RecordingError.self) { try BrainFlowCSVReader().read(bytes: tenColumns) }

        // A Cyton + Daisy row: 32 columns, 16 channels at 125 Hz, markers from column 31, no counters.
        var rows = ""
        for index in 0..<4 {
            let channels: [Double] = (0..<16).map { Double($0) + 0.5 }
            let time: Double = 1_700_000_000 + Double(index) / 125
            let marker: Double = index == 2 ? 7 : 0
            let fields: [Double] = [Double(index * 2)] + channels + [Double](repeating: 0, count: 13) + [time, marker]
            rows += fields.map { String(format: "%f", $0) }.joined(separator: "\t") + "\n"
        }
        let daisy = try RecordingReader.read(bytes: Array(rows.utf8), sourceName: "daisy.csv")
        #expect(daisy.channelCount == 16 && daisy.sampleRate == 125 && daisy.frameCount == 4)
        let lastFrame: [Double] = (0..<16).map { Double($0) + 0.5 }
        #expect(Array(daisy.frame(3)) == lastFrame)
        #expect(daisy.counters == nil)
        #expect(daisy.markers == [RecordingMarker(frame: 2, value: 7)])
        #expect(daisy.timestamps?[1] == 1_700_000_000.008)
    }
}

/// The Mind Monitor samples (datasets/README.md): RAW equals the muse-lsl recording they were made from; band powers
/// and `Elements` as written.
@Suite("Mind Monitor CSV reader")
struct MindMonitorCSVReaderTests {
    static let rawPath = TestData.root.appendingPathComponent(
        "datasets/muse-p300/mindMonitor-2017-format-first4s.csv"
    ).path
    static let bandsPath = TestData.root.appendingPathComponent("datasets/muse-p300/mindMonitor-bands-only.csv").path

    @Test func rawRowsAreTheMuseLSLSamples() throws {
        let file = try MindMonitorCSVReader().read(path: Self.rawPath)
        let eeg = try #require(file.eeg)
        let source = try TestData.muse.get()
        #expect(eeg.frameCount == 1024)
        #expect(eeg.sampleRate == 256)
        #expect(eeg.channelLabels == ["TP9", "AF7", "AF8", "TP10"])
        var mismatches = 0
        for frame in 0..<1024 {
            for channel in 0..<4
            where eeg.value(frame: frame, channel: channel) != source.value(frame: frame, channel: channel) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        // Millisecond times, exact: the same Doubles as muse-lsl's three-decimal stamps.
        #expect(eeg.timestamps == source.timestamps.map { Array($0.prefix(1024)) })
        // What the readers return: the EEG, with the band powers kept as its companion stream.
        #expect(file.recording.withCompanions([]) == eeg)
        #expect(file.recording.companions == [try #require(file.bandPowers)])
        #expect(eeg.descriptor.metadata["format"] == "Mind Monitor CSV")
    }

    @Test func elementsAreEventsAndMarkers() throws {
        let file = try MindMonitorCSVReader().read(path: Self.rawPath)
        let eeg = try #require(file.eeg)
        let source = try TestData.muse.get()
        let stimuli = source.markers.filter { $0.frame < 1024 }
        #expect(file.elements.count == stimuli.count + 2)
        #expect(file.elements.first?.payload == "/muse/event/connected Muse-7A1B")
        #expect(file.elements.contains { $0.payload == "/muse/elements/blink" })
        // Each stimulus marker at the same sample as in the muse-lsl file, as `/Marker/<class>`.
        let marked = eeg.markers.filter { $0.text?.hasPrefix("/Marker/") == true }
        #expect(marked.map(\.frame) == stimuli.map(\.frame))
        #expect(marked.map(\.text) == stimuli.map { "/Marker/\(Int($0.value))" })
        #expect(eeg.markers.first(where: { $0.text == "/muse/elements/blink" })?.frame == 512)
        #expect(file.elements[1].deviceTime == source.time(ofFrame: stimuli[0].frame))
    }

    @Test func bandPowersAreAnIrregularStreamOfUpdates() throws {
        let file = try MindMonitorCSVReader().read(path: Self.rawPath)
        let bands = try #require(file.bandPowers)
        // Three updates (at 1, 2 and 3 s); the RAW rows between repeat them and are not samples.
        #expect(bands.frameCount == 3)
        #expect(bands.channelCount == 20)
        #expect(bands.channelLabels.first == "Delta_TP9" && bands.channelLabels.last == "Gamma_TP10")
        #expect(bands.descriptor.channels.allSatisfy { $0.unit == "B" })
        let source = try TestData.muse.get()
        #expect(bands.timestamps == [256, 512, 768].map { source.time(ofFrame: $0) })
        // The values as written in the update rows.
        let lines = try TestData.lines(of: Self.rawPath)
        let firstUpdate = try #require(lines.first { $0.hasPrefix("2017-02-04 15:45:16.483,") })
        let written = firstUpdate.split(separator: ",", omittingEmptySubsequences: false)[1...20].map { Double($0)! }
        #expect(Array(bands.frame(0)) == written)
    }

    @Test func aBandPowersOnlyExportReads() throws {
        let file = try MindMonitorCSVReader().read(path: Self.bandsPath)
        #expect(file.eeg == nil)
        let bands = try #require(file.bandPowers)
        #expect(bands.frameCount == 13)
        #expect(bands.sampleRate == 1)
        #expect(bands.markers == [RecordingMarker(frame: 6, value: 1, text: "/Marker/1")])
        let recording = try RecordingReader.read(path: Self.bandsPath)
        #expect(recording == bands)
        #expect(try RecordingFormat.detect(bytes: RecordingFile.readAll(path: Self.bandsPath)) == .mindMonitorCSV)
    }

    @Test func timeStampsAreExactMilliseconds() {
        func parse(_ text: String) -> Double? {
            Array(text.utf8).withUnsafeBufferPointer {
                MindMonitorCSVReader.parseTime($0.baseAddress!, from: 0, to: $0.count)
            }
        }
        #expect(parse("2017-02-04 15:45:16.483") == 1_486_223_116.483)
        #expect(parse("1970-01-01 00:00:00.000") == 0)
        #expect(parse("2024-02-29T23:59:59.5") == 1_709_251_199.5)
        #expect(parse("2017-02-04 15:45:16") == 1_486_223_116)
        #expect(parse("2017-13-04 15:45:16.483") == nil)
        #expect(parse("2017-02-04 15:45") == nil)
        #expect(parse("04/02/2017 15:45:16") == nil)
    }

    @Test func badRowsAreRefusedWithTheLine() throws {
        let bytes = try RecordingFile.readAll(path: Self.rawPath)
        let line = bytes.line(40)
        var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[22] = ""
        #expect(
            throws: RecordingError.malformedRow(
                line: 40, reason: "3 of the 4 RAW columns are filled (a sample needs all four)")
        ) {
            try MindMonitorCSVReader().read(bytes: bytes.replacingLine(40, with: fields.joined(separator: ",")))
        }
        fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[0] = "15:45:16.483"
        #expect(
            throws: RecordingError.malformedRow(
                line: 40, reason: "TimeStamp \"15:45:16.483\" is not yyyy-MM-dd HH:mm:ss.SSS")
        ) {
            try MindMonitorCSVReader().read(bytes: bytes.replacingLine(40, with: fields.joined(separator: ",")))
        }
        let cut = Array(bytes[..<(bytes.offset(ofLine: 500) + 30)])
        let eeg = try #require(try MindMonitorCSVReader().read(bytes: cut).eeg)
        #expect(eeg.truncation?.line == 500)
        let noRaw = Array("TimeStamp,Battery,Elements\n2017-02-04 15:45:16.483,74,\n".utf8)
        #expect(throws: RecordingError.self) { try MindMonitorCSVReader().read(bytes: noRaw) }
    }
}

/// The older formats through `convert`'s path to EDF+ and back: EDFlib reads what was converted, within one digital
/// step, markers as annotations; pyedflib and MNE agree when the peers are installed.
@Suite("Older formats to EDF+")
struct OlderFormatEDFTests {
    @Test(arguments: [
        OlderOpenBCIFormatTests.legacyPath, OlderOpenBCIFormatTests.brainFlowPath, MindMonitorCSVReaderTests.rawPath,
        MindMonitorCSVReaderTests.bandsPath,
    ])
    func convertsToEDFPlusAndReadsBack(path: String) throws {
        let read = try RecordingReader.read(path: path)
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let edf = folder.appendingPathComponent("converted.edf").path
        // EDF holds no irregular stream: Mind Monitor's band powers beside its EEG are refused (convert counts them
        // as a loss), so the EEG goes alone, as `convert --allow-lossy` writes it.
        if !read.companions.isEmpty {
            #expect(throws: EDFWriterError.self) { _ = try EDFConversion.write(read, to: edf, format: .edfPlus) }
        }
        let recording = read.withCompanions([])
        let result = try EDFConversion.write(recording, to: edf, format: .edfPlus)
        #expect(result.clipped.allSatisfy { $0 == 0 })
        let back = try EDFFileReader().read(path: edf)
        #expect(back.channelLabels == recording.channelLabels)
        #expect(back.frameCount >= recording.frameCount)
        var steps: [Double] = []
        var worst = 0.0
        for (channel, info) in back.descriptor.channels.enumerated() {
            let range = try #require(info.range)
            let step = (range.upperBound - range.lowerBound) / 65535
            steps.append(step)
            for frame in 0..<recording.frameCount {
                let error = abs(
                    back.value(frame: frame, channel: channel) - recording.value(frame: frame, channel: channel))
                worst = max(worst, error / step)
            }
        }
        #expect(worst <= 1 + 1e-9, "worst error \(worst) steps")
        let texts = back.markers.compactMap(\.text)
        for marker in recording.markers { #expect(texts.contains(marker.text ?? "\(Int(marker.value))")) }

        // MNE reports units it does not know (the band powers' "B") as "n/a": the peers check the µV files.
        if EDFPeers.available, recording.descriptor.channels.allSatisfy({ $0.unit == "µV" }) {
            var values = (0..<recording.channelCount).map { channel in
                (0..<recording.frameCount).map { recording.value(frame: $0, channel: channel) }
            }
            // Padding of the last record holds the last value.
            let padded = back.frameCount - recording.frameCount
            for channel in values.indices { values[channel] += Array(repeating: values[channel].last!, count: padded) }
            let (status, output) = try EDFPeers.check(
                file: edf,
                expectation: .init(
                    labels: recording.channelLabels,
                    units: Array(repeating: "uV", count: recording.channelCount),
                    rate: recording.sampleRate, duration: Double(back.frameCount) / recording.sampleRate, steps: steps,
                    annotations: []),
                values: values)
            #expect(status == 0, "\(output)")
        }
    }
}
