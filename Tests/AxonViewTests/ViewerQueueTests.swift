import AxonEEG
import AxonStreams
import Foundation
import Testing

@testable import AxonView

/// A viewer that stops reading costs a bounded queue, never more (acceptance 5, counted, not timed).
struct ViewerQueueTests {
    @Test func stalledViewerNeverHoldsMoreThanItsCapacity() async throws {
        let queue = ViewerQueue(capacity: 8)
        for index in 0..<1000 {
            queue.push(ViewMessage(kind: index % 100 == 0 ? .indicator : .raw, text: "\(index)"))
            #expect(queue.count <= 8)
        }
        #expect(queue.peakCount == 8)
        // The ten indicators are kept in preference to raw data; everything else that did not fit is counted.
        #expect(queue.skippedCount == 1000 - 8)
        var kept: [ViewMessage] = []
        for _ in 0..<8 { kept.append(try #require(await queue.next())) }
        #expect(kept.filter { $0.kind == .indicator }.map(\.text) == ["300", "400", "500", "600", "700", "800", "900"])
        #expect(kept.last?.text == "999")
    }

    @Test func closeWakesAWaitingReader() async {
        let queue = ViewerQueue(capacity: 4)
        async let message = queue.next()
        // The reader is either waiting or about to: close() must end it either way.
        queue.close()
        #expect(await message == nil)
        #expect(queue.push(ViewMessage(kind: .raw, text: "late")) == false)
    }

    /// The whole hub with a viewer that never reads: a long run's raw messages leave its queue at capacity.
    @Test func hubFeedsAStalledViewerABoundedQueue() throws {
        let configuration = EEGEngine.Configuration()
        let descriptor = StreamDescriptor(
            name: "test", contentType: .eeg, channels: configuration.channelLabels.map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: 250, format: .float32, sourceID: "test")
        let hub = LiveViewHub(
            descriptor: descriptor, configuration: configuration, options: .init(queueCapacity: 16, flushInterval: 0.01))
        let stalled = hub.connect()
        try hub.start()
        let source = SimulatedSource(configuration: .init(duration: 120, realTime: false))
        // The ring holds the whole run, so a consumer slowed by a loaded machine loses nothing to count against.
        let pipeline = StreamPipeline(
            source: source, sinks: [hub.sink], configuration: .init(ringCapacity: 1 << 15, overflow: .rejectNewest))
        hub.attachStatistics { pipeline.statistics() }
        try pipeline.start()
        pipeline.waitUntilFinished()
        // Then 500 status messages (which are never skipped while skippable messages wait) on top.
        for index in 0..<500 { hub.publishStatus(code: index % 16, name: "status \(index)", message: "") }
        hub.finish(summary: "done")
        hub.stop()
        #expect(pipeline.statistics().delivered == 120 * 250)
        #expect(stalled.peakCount == 16)
        #expect(stalled.skippedCount >= 500 - 16)
        #expect(hub.viewerCount == 1)
    }
}
