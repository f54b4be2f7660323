import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Axon's XDF writer and reader, checked against pyxdf (the reference reader, in .venv-peers).
@Suite("XDF sessions")
struct XDFTests {
    struct PeerStream: Decodable {
        var type: String
        var channel_count: Int
        var nominal_srate: Double
        var channel_format: String
        var source_id: String
        var labels: [String]
        var units: [String]
        var count: Int
        var first_timestamp: Double?
        var last_timestamp: Double?
        var footer_count: Int?
        var first: [Double]?
        var sum: Double?
        var strings: [[String]]?
    }

    static func pyxdf(_ path: String) throws -> [String: PeerStream] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: EDFPeers.python)
        process.arguments = [TestData.root.appendingPathComponent("scripts/check-xdf.py").path, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode([String: PeerStream].self, from: data)
    }

    /// 60 s of the OpenBCI recording's EEG, markers, spectra-shaped and zones-shaped streams, written as the engine
    /// would (one chunk per 250-frame block), read back by pyxdf and by Axon's reader with every count and field.
    @Test(.enabled(if: EDFPeers.available)) func sixtySecondSessionReadsBackInPyxdf() throws {
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("session.xdf").path
        let recording = try TestData.openBCI.get().selecting(channels: ["EXG2", "EXG3", "EXG6", "EXG7"])
        let frames = 60 * 250
        let writer = try XDFWriter(path: path)
        var eeg = recording.descriptor
        eeg.name = "Cyton"
        let markers = StreamDescriptor(
            name: "Marks", contentType: .markers, channels: [.init(label: "marker", unit: "")], nominalRate: 0,
            format: .string, sourceID: "cyton/markers")
        let spectra = StreamDescriptor(
            name: "Cyton Spectra", contentType: .eegFeatures,
            channels: [.init(label: "O1 7-13Hz frequency", unit: "Hz"), .init(label: "O1 7-13Hz power", unit: "µV^2")],
            nominalRate: 1, format: .float64, sourceID: "cyton/spectra")
        let zones = StreamDescriptor(
            name: "Cyton Zones", contentType: .markers, channels: [.init(label: "overall", unit: "")], nominalRate: 0,
            format: .string, sourceID: "cyton/zones")
        let eegID = try writer.addStream(eeg)
        let markersID = try writer.addStream(markers)
        let spectraID = try writer.addStream(spectra)
        let zonesID = try writer.addStream(zones)
        let start = 1000.0
        var scratch: [UInt8] = []
        for block in 0..<(frames / 250) {
            let first = block * 250
            let times = (first..<(first + 250)).map { start + Double($0) / 250 }
            let values = Array(recording.values[(first * 4)..<((first + 250) * 4)])
            try times.withUnsafeBufferPointer { times in
                try values.withUnsafeBufferPointer { values in
                    try writer.appendSamples(stream: eegID, timestamps: times, values: values, scratch: &scratch)
                }
            }
            let second = [start + Double(block) + 1]
            try second.withUnsafeBufferPointer { time in
                try [10 + Double(block % 3), Double(block)].withUnsafeBufferPointer { values in
                    try writer.appendSamples(stream: spectraID, timestamps: time, values: values, scratch: &scratch)
                }
            }
            if block % 10 == 5 {
                try writer.appendStrings(stream: zonesID, timestamp: second[0], strings: ["relaxed \(block)%"])
            }
            if block % 12 == 0 {
                try writer.appendStrings(stream: markersID, timestamp: second[0], strings: ["mark <\(block)> & co"])
            }
        }
        try writer.close()
        // Boundaries at 1000, 1010, …, 1050 s: every 10 s of the 60.
        #expect(writer.counts.boundaries == 6)

        let peer = try Self.pyxdf(path)
        #expect(peer.count == 4)
        let cyton = try #require(peer["Cyton"])
        #expect(cyton.count == frames && cyton.footer_count == frames)
        #expect(cyton.type == "EEG" && cyton.channel_count == 4 && cyton.nominal_srate == 250)
        #expect(cyton.channel_format == "float32" && cyton.source_id == eeg.sourceID)
        #expect(cyton.labels == ["EXG2", "EXG3", "EXG6", "EXG7"] && cyton.units == ["µV", "µV", "µV", "µV"])
        #expect(cyton.first == (0..<4).map { Double(Float(recording.value(frame: 0, channel: $0))) })
        let expectedSum = recording.values[0..<(frames * 4)].reduce(0) { $0 + Double(Float($1)) }
        #expect(abs((cyton.sum ?? 0) - expectedSum) < 1e-6 * abs(expectedSum))
        #expect(cyton.first_timestamp == start && cyton.last_timestamp == start + Double(frames - 1) / 250)
        let spectraPeer = try #require(peer["Cyton Spectra"])
        #expect(spectraPeer.count == 60 && spectraPeer.channel_format == "double64" && spectraPeer.first == [10, 0])
        #expect(spectraPeer.labels == ["O1 7-13Hz frequency", "O1 7-13Hz power"])
        let zonesPeer = try #require(peer["Cyton Zones"])
        #expect(zonesPeer.strings == (0..<60).filter { $0 % 10 == 5 }.map { ["relaxed \($0)%"] })
        let marksPeer = try #require(peer["Marks"])
        #expect(marksPeer.strings == [0, 12, 24, 36, 48].map { ["mark <\($0)> & co"] })
        #expect(marksPeer.footer_count == 5)

        // Axon's own reader agrees, and takes the file as a recording (what `axon info` shows).
        let file = try XDFReader.read(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(file.streams.map(\.sampleCount) == [frames, 5, 60, 6])
        #expect(file.trailingBytes == 0 && file.boundaryCount == 6)
        #expect(file.streams[3].strings.first == "relaxed 5%")
        let read = try RecordingReader.read(path: path)
        #expect(read.frameCount == frames && read.channelLabels == ["EXG2", "EXG3", "EXG6", "EXG7"])
        #expect(read.markers.map(\.frame) == [250, 3250, 6250, 9250, 12250])
        #expect(read.descriptor.metadata["format"] == "XDF")
    }

    /// `axon record --out x.xdf` killed with SIGKILL after 12 s: pyxdf reads the file, at least up to the last
    /// boundary (10 s), and agrees with Axon's reader sample for sample.
    @Test(.enabled(if: EDFPeers.available)) func sigkilledRecordingReadsUpToTheLastBoundary() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let folder = try EDFPeers.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("killed.xdf").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: axon)
        process.arguments = ["record", "simulator", "--out", path, "--baseline", "0", "--progress", "0.1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = Pipe()
        try process.run()
        let recorded = readRecordProgress(pipe.fileHandleForReading, until: 12)
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let file = try XDFReader.read(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let eeg = try #require(file.streams.first { $0.type == "EEG" })
        #expect(eeg.footerSampleCount == nil)
        #expect(file.boundaryCount >= 2)
        #expect(eeg.sampleCount >= 10 * 250)
        let peer = try Self.pyxdf(path)
        let peerEEG = try #require(peer["Simulated EEG"])
        #expect(peerEEG.count == eeg.sampleCount)
        #expect(peerEEG.footer_count == nil)
        #expect(peerEEG.first == Array(eeg.values[0..<4]))
        print(
            "xdf kill: \(eeg.sampleCount) samples (\(Double(eeg.sampleCount) / 250) s) of \(recorded) s recorded, "
                + "\(file.boundaryCount) boundaries, \(file.trailingBytes) bytes after the last whole chunk")
    }
}
