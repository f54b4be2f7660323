// Built with the LiveView trait (on by default; see Package.swift).
#if LiveView
import AxonBench
import AxonRecording
import AxonStreams
import Foundation
import Testing

/// `axon view-bench`'s measurement: a recording replayed through the engine and the live view, with and without
/// viewers.
@Suite("View measurement")
struct ViewMeasurementTests {
    static let rate = 250.0

    /// Four channels of a 10 Hz, 20 µV wave for `seconds`.
    static func recording(seconds: Double) -> Recording {
        let channels = 4
        let frames = Int(seconds * rate)
        var values = [Double](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                values[frame * channels + channel] = 20 * sin(2 * .pi * 10 * Double(frame) / rate + Double(channel))
            }
        }
        let descriptor = StreamDescriptor(
            name: "view bench test", contentType: .eeg,
            channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: rate, format: .float32, sourceID: "view-bench-test")
        return Recording(descriptor: descriptor, values: values)
    }

    @Test("a recording repeated to last the minutes asked, whole copies, at least one")
    func repeated() {
        let recording = Self.recording(seconds: 20)
        #expect(ViewMeasurement.repeated(recording, minutes: 1).frameCount == 3 * 5000)
        #expect(ViewMeasurement.repeated(recording, minutes: 0.5).frameCount == 2 * 5000)
        #expect(ViewMeasurement.repeated(recording, minutes: 0.01).frameCount == 5000)
        #expect(ViewMeasurement.repeated(recording, minutes: 1).values.suffix(20_000) == recording.values[...])
    }

    @Test("no viewer reads nothing; two readers and a stalled viewer read the run, the stalled one's queue bounded")
    func viewers() async throws {
        let recording = Self.recording(seconds: 30)
        let measurement = ViewMeasurement(speed: .asFastAsPossible)
        let alone = try await measurement.measure(recording, viewers: 0)
        #expect(alone.bytesRead == 0)
        #expect(alone.stalledPeak == 0)
        #expect(alone.skippedByStalled == 0)
        #expect(alone.framesPerBatch >= 1)
        #expect(alone.framesPerBatch <= 7500)
        #expect(alone.elapsed > 0)
        #expect(alone.queueCapacity > 0)

        let watched = try await measurement.measure(recording, viewers: 2)
        #expect(watched.bytesRead > 0)
        #expect(watched.stalledPeak <= watched.queueCapacity)
        #expect(watched.framesPerBatch >= 1)
        #expect(watched.latencyP99 >= 0)
    }
}
#endif
