import AxonEEG
import AxonStreams
import Foundation
import Testing

@testable import AxonView

/// The zone timeline a view keeps is bounded: the newest `timelineEntries` indicators, older ones counted in a
/// summary a new viewer gets, so a view that runs for days holds the same memory (issue 39).
struct ZoneTimelineTests {
    @Test("a run longer than the timeline keeps its newest entries and counts the rest, per zone, in the hello")
    func olderIndicatorsScrollOutIntoTheSummary() async throws {
        // 150 s of a simulated headset as fast as it goes: a 12 s baseline, then an indicator every 10 s.
        let source = SimulatedSource(configuration: .init(duration: 150, realTime: false))
        let configuration = EEGEngine.Configuration(
            channelLabels: ["T3", "O1", "T4", "O2"], baselineDuration: 12, indicatorPeriod: 10)
        let hub = LiveViewHub(
            descriptor: source.descriptor, configuration: configuration, options: .init(timelineEntries: 4))
        let session = try EEGSession(
            source: source, configuration: configuration, sinks: [hub.sink], options: .init(publishSamples: false))
        try hub.start()
        session.startBaseline()
        try session.start()
        var published = 0
        var zones: [String] = []
        for await indicator in session.indicators {
            hub.publish(indicator)
            zones.append("\(indicator.activity.zone)")
            published += 1
        }
        session.waitUntilFinished()
        #expect(published >= 10, "\(published) indicators")
        #expect(hub.timelineCounts.kept == 4)
        #expect(hub.timelineCounts.scrolledOut == published - 4)

        // A viewer that connects now gets the four newest and the summary of the others.
        let viewer = hub.connect()
        let hello = try #require(await viewer.next())
        hub.stop()
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(hello.text.utf8)) as? [String: Any])
        #expect(json["timelineEntries"] as? Int == 4)
        #expect((json["indicators"] as? [Any])?.count == 4)
        let earlier = try #require(json["earlier"] as? [String: Any])
        #expect(earlier["count"] as? Int == published - 4)
        let counted = (earlier["zones"] as? [[String: Any]] ?? []).reduce(into: [String: Int]()) {
            $0[$1["zone"] as? String ?? "?", default: 0] += $1["count"] as? Int ?? 0
        }
        let expected = zones.prefix(published - 4).reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        #expect(counted == expected)
        #expect((earlier["from"] as? Double ?? 0) < (earlier["to"] as? Double ?? 0))
    }
}
