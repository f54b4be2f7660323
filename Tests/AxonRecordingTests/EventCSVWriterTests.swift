import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

@Suite("Event CSV: one row per event, JSON payloads, written through")
struct EventCSVWriterTests {
    struct Weighing: Codable, Sendable, Equatable {
        var kg: Double
        var note: String
    }

    @Test("events with and without device times and counters, quotes in payloads, and rows present before close")
    func rows() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-events-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = StreamDescriptor(
            name: "Weight", contentType: .weight, channels: [ChannelInfo(label: "weight", unit: "kg")],
            nominalRate: 0, format: .event, sourceID: "scale-7")
        let writer = try EventCSVWriter(path: path, descriptor: descriptor)
        try writer.append(EventSample(payload: Weighing(kg: 71.4, note: "after \"run\", tired"), arrivalTime: 10,
                                      deviceTime: 1_763_800_000.5, counter: 17))
        try writer.append(EventSample(payload: Weighing(kg: 71.2, note: ""), arrivalTime: 11))
        // Written through: the rows are in the file before close (a crash would keep them).
        let before = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(before.count == 5)
        try writer.close()
        #expect(throws: EDFWriterError.closed(path: path)) {
            try writer.append(EventSample(payload: Weighing(kg: 1, note: ""), arrivalTime: 12))
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "# axon-events-csv 1" && lines[1].hasPrefix("# descriptor {") && lines[2] == "host_time,device_time,counter,payload")
        let first = lines[3].split(separator: ",", maxSplits: 3).map(String.init)
        #expect(first[1] == "1763800000.5" && first[2] == "17")
        #expect(first[3] == #""{""kg"":71.4,""note"":""after \""run\"", tired""}""#)
        let payload = String(first[3].dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        #expect(try JSONDecoder().decode(Weighing.self, from: Data(payload.utf8)) == Weighing(kg: 71.4, note: "after \"run\", tired"))
        let second = lines[4].split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        #expect(second[1] == "" && second[2] == "")
        #expect(abs((Double(first[0]) ?? 0) - (10 + HostClock.wallClockOffset())) < 1)
        #expect(writer.count == 2)
    }

    @Test("a recording's markers as an event stream")
    func markers() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-markers-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recording = Recording(
            descriptor: StreamDescriptor(
                name: "R", contentType: .eeg, channels: [ChannelInfo(label: "A", unit: "µV")], nominalRate: 100,
                format: .float32, sourceID: "r"),
            values: Array(repeating: 0, count: 500), timestamps: (0..<500).map { 1000 + Double($0) / 100 },
            markers: [RecordingMarker(frame: 10, value: 1, text: "blink"), RecordingMarker(frame: 250, value: 2)])
        let writer = try EventCSVWriter(path: path, descriptor: recording.markerDescriptor)
        for event in recording.markerEvents() { try writer.append(event) }
        try writer.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[3].split(separator: ",")[1] == "1000.1" && lines[3].hasSuffix("\"\"\"blink\"\"\""))  // "blink" as JSON, quoted for CSV
    }
}
