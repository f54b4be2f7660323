import AxonEEG
import AxonRecording
import AxonStreams
import Foundation
import StreamTestSupport
import Testing

@testable import AxonView

/// The live view's display filter (docs/live-view.md): the traces come both raw and filtered 1–50 Hz with a notch
/// at the mains frequency the hub measures from the run's spectra; without a display filter the points are raw only.
struct DisplayFilterTests {
    static let rate = 250.0
    static let seconds = 30.0

    /// Four channels: a 25 mV offset, a 20 µV 10 Hz alpha wave and a 300 µV line at `mains` (none: nil).
    static func recording(mains: Double?) -> Recording {
        let channels = 4
        let frames = Int(seconds * rate)
        var values = [Double](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let time = Double(frame) / rate
            for channel in 0..<channels {
                var value = 25_000 + 20 * sin(2 * .pi * 10 * time + Double(channel))
                if let mains { value += 300 * sin(2 * .pi * mains * time) }
                values[frame * channels + channel] = value
            }
        }
        let descriptor = StreamDescriptor(
            name: "display test", contentType: .eeg,
            channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: rate, format: .float32, sourceID: "display-test")
        return Recording(descriptor: descriptor, values: values)
    }

    /// Runs the recording through the engine into a hub and returns a late viewer's `hello`, once it holds the last
    /// second.
    static func hello(mains: Double?, displayFilter: DisplayFilter?) async throws -> [String: Any] {
        let recording = recording(mains: mains)
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .asFastAsPossible))
        let configuration = EEGEngine.Configuration(
            sampleRate: rate, channelLabels: recording.channelLabels, baselineDuration: 10, indicatorPeriod: 10)
        let hub = LiveViewHub(
            descriptor: recording.descriptor, configuration: configuration,
            options: .init(displayFilter: displayFilter))
        let session = try EEGSession(
            source: replay, configuration: configuration, sinks: [hub.sink],
            options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
        try hub.start()
        defer { hub.stop() }
        try session.start()
        for await frame in session.spectra { hub.publish(frame) }
        session.waitUntilFinished()
        var hello: [String: Any] = [:]
        try await waitUntil(seconds: 20) {
            let viewer = hub.connect()
            defer { hub.disconnect(viewer) }
            let message = try #require(await viewer.next())
            hello = try #require(try JSONSerialization.jsonObject(with: Data(message.text.utf8)) as? [String: Any])
            let points = (hello["raw"] as? [String: Any])?["points"] as? [[Any]] ?? []
            let newest = points.last?.first as? Double ?? 0
            return newest > seconds - 0.1
        }
        return hello
    }

    /// The points of `hello`'s last `seconds`, `NSNull` as NaN.
    static func lastPoints(_ hello: [String: Any], seconds last: Double) -> [[Double]] {
        let points = ((hello["raw"] as? [String: Any])?["points"] as? [[Any]] ?? []).map { point in
            point.map { ($0 as? Double) ?? .nan }
        }
        return points.filter { $0[0] >= seconds - last }
    }

    @Test("the hub measures the mains frequency from the spectra and says so", arguments: [50.0, 60.0])
    func measuresTheMains(mains: Double) async throws {
        let hello = try await Self.hello(mains: mains, displayFilter: DisplayFilter())
        let display = try #require(hello["display"] as? [String: Any])
        #expect(display["mains"] as? Double == mains)
        #expect(display["notch"] as? String == "\(Int(mains)) Hz, measured")
        #expect(display["filter"] as? String == "1–50 Hz band-pass")
        #expect(Self.lastPoints(hello, seconds: 1).allSatisfy { $0.count == 9 })
    }

    // A replay as fast as it goes reaches the hub before the engine's spectra do, so which samples the measured notch
    // applies to depends on timing: the filtering itself is checked with the notch given.
    @Test("the traces come raw and filtered: the offset and the mains line go, alpha stays", arguments: [50.0, 60.0])
    func filteredBesideRaw(mains: Double) async throws {
        let hello = try await Self.hello(mains: mains, displayFilter: DisplayFilter(notch: .at(mains)))
        let display = try #require(hello["display"] as? [String: Any])
        #expect(display["notch"] as? String == "\(Int(mains)) Hz")
        let points = Self.lastPoints(hello, seconds: 2)
        #expect(points.count > 200)
        for point in points {
            #expect(point.count == 9)
            // Raw: the offset and the mains line (300 µV, a little less after averaging two samples a point).
            for raw in point[1...4] { #expect(abs(raw - 25_000) < 330) }
        }
        for channel in 0..<4 {
            let raw = points.map { $0[1 + channel] - 25_000 }
            let filtered = points.map { $0[5 + channel] }
            #expect(raw.map(abs).max()! > 150, "channel \(channel): the raw trace keeps the mains line")
            // Filtered: the 20 µV alpha wave alone (the band-pass passes 10 Hz within 1 %).
            let peak = filtered.map(abs).max()!
            #expect(peak > 17 && peak < 22, "channel \(channel): filtered peak \(peak) µV")
        }
    }

    @Test("without a mains line there is no notch, and the page says it is still measuring")
    func noMainsLineNoNotch() async throws {
        let hello = try await Self.hello(mains: nil, displayFilter: DisplayFilter())
        let display = try #require(hello["display"] as? [String: Any])
        #expect(display["mains"] is NSNull)
        #expect(display["notch"] as? String == "measuring the mains frequency")
    }

    @Test("without a display filter the points are raw only and the hello says so")
    func noDisplayFilter() async throws {
        let hello = try await Self.hello(mains: 50, displayFilter: nil)
        #expect(hello["display"] is NSNull)
        let points = Self.lastPoints(hello, seconds: 1)
        #expect(!points.isEmpty && points.allSatisfy { $0.count == 5 })
    }
}
