import AxonStreams
import Foundation

@testable import AxonRecording

/// Paths of the real recordings in `datasets/` (see datasets/README.md), found from this file's location.
enum TestData {
    static let root: URL = {
        var root = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        return root
    }()

    /// The OpenBCI GUI v6 sample file, 22,490 rows of Cyton data at 250 Hz.
    static let openBCIPath = root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
    ).path
    /// The cut of the same file the DSP tests use: EXG6/EXG7, rows 8500..<19000, verbatim text.
    static let eyesClosedCSVPath = root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/eyes-closed-exg6-exg7.csv"
    ).path
    /// The first 14 s of the Muse P300 recording.
    static let musePath = root.appendingPathComponent(
        "datasets/muse-p300/data_2017-02-04-15_45_13-first14s.csv"
    ).path

    /// The OpenBCI file's bytes, read once.
    static let openBCIBytes: Result<[UInt8], RecordingError> = Result { () throws(RecordingError) in
        try RecordingFile.readAll(path: openBCIPath)
    }

    /// The OpenBCI file, parsed once for the tests that only look at it.
    static let openBCI: Result<Recording, RecordingError> = Result { () throws(RecordingError) in
        try OpenBCITextReader().read(path: openBCIPath)
    }

    /// The Muse cut, parsed once.
    static let muse: Result<Recording, RecordingError> = Result { () throws(RecordingError) in
        try MuseCSVReader().read(path: musePath)
    }

    /// The lines of a text file, split the simple way (for cross-checks against the readers).
    static func lines(of path: String) throws -> [Substring] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }
}

/// Byte-level edits of a file's contents, for truncated and malformed copies.
extension Array where Element == UInt8 {
    /// Offset of the first byte of 1-based line `number`.
    func offset(ofLine number: Int) -> Int {
        var line = 1
        var index = 0
        while line < number {
            index = self[index...].firstIndex(of: UInt8(ascii: "\n"))! + 1
            line += 1
        }
        return index
    }

    /// The text of 1-based line `number`, without its line ending.
    func line(_ number: Int) -> String {
        let start = offset(ofLine: number)
        var end = self[start...].firstIndex(of: UInt8(ascii: "\n")) ?? count
        if end > start && self[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: self[start..<end], as: UTF8.self)
    }

    /// A copy with 1-based line `number` replaced by `text` (line ending kept).
    func replacingLine(_ number: Int, with text: String) -> [UInt8] {
        let start = offset(ofLine: number)
        var end = self[start...].firstIndex(of: UInt8(ascii: "\n")) ?? count
        if end > start && self[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return Array(self[..<start]) + Array(text.utf8) + Array(self[end...])
    }
}

/// A sink that keeps a copy of every frame and gap it receives.
final class CollectingSink: SampleSink {
    struct Frame: Equatable {
        var sequence: Double
        var arrival: Double
        var deviceTime: Double?
        var counter: UInt64?
        var timestamp: Double
        var values: [Double]
    }

    let name = "collect"
    private(set) var frames: [Frame] = []
    private(set) var gaps: [GapRecord] = []
    private(set) var closed = false

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        gaps.append(contentsOf: block.gaps.map(\.gap))
        for frame in 0..<block.frameCount {
            frames.append(
                Frame(
                    sequence: block.sequence(ofFrame: frame), arrival: block.arrivalTime(ofFrame: frame),
                    deviceTime: block.deviceTime(ofFrame: frame), counter: block.counter(ofFrame: frame),
                    timestamp: block.timestamp(ofFrame: frame), values: Array(block.values(ofFrame: frame))))
        }
    }

    func close() throws { closed = true }
}
