import AxonStreams
import Foundation
import Testing

@testable import AxonRecording

/// `EDFSink.annotate` from other threads while the consumer thread writes: every annotation reaches the file
/// (run under ThreadSanitizer by `make test`).
struct EDFSinkThreadTests {
    @Test func annotationsFromTwoThreadsWhileRecording() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("axon-\(UUID().uuidString).edf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Paced (40 s of data in 2 s), so the marks arrive while the file is being written.
        let source = SimulatedSource(configuration: .init(noise: 0, duration: 40, speed: 20))
        let sink = EDFSink(path: path, inbox: AnnotationInbox(capacity: 512))
        let pipeline = StreamPipeline(
            source: source, sinks: [sink],
            configuration: .init(ringCapacity: 16_384, overflow: .rejectNewest, timeline: .init(clock: nil)))
        try pipeline.start()
        let submitted = DispatchGroup()
        for thread in 0..<2 {
            DispatchQueue.global().async(group: submitted) {
                for k in 0..<100 {
                    let accepted = sink.annotate(onset: Double(k) * 0.3, text: "thread \(thread) mark \(k)")
                    precondition(accepted, "the inbox holds 512")
                }
            }
        }
        submitted.wait()
        pipeline.waitUntilFinished()
        let writer = try #require(sink.writer)
        #expect(sink.inbox.rejectedCount == 0)
        #expect(writer.annotationsWritten == 201)  // 200 marks + "Recording starts"
        #expect(writer.recordCount == 40)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: bytes, as: UTF8.self)
        for thread in 0..<2 {
            for k in [0, 57, 99] { #expect(text.contains("\u{14}thread \(thread) mark \(k)\u{14}")) }
        }
    }
}
