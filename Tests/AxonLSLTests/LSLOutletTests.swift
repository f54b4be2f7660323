import AxonEEG
import AxonLSL
import AxonRecording
import AxonStreams
import Foundation
import Synchronization
import Testing

/// Axon publishes a replayed recording's raw EEG, spectra and zones; a pylsl inlet receives all three.
@Suite("LSL outlets to a pylsl inlet", .serialized, .enabled(if: LSLPeer.available))
struct LSLOutletTests {
    struct Received: Decodable {
        var type: String
        var source_id: String
        var rate: Double
        var labels: [String]
        var samples: [[JSONValue]]
        var latencies: [Double]
    }

    /// A sample value as pylsl gives it: a number, text for string streams, or null for NaN (no peak).
    enum JSONValue: Decodable, Equatable {
        case number(Double)
        case text(String)
        case missing
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .missing
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
        var number: Double? { if case .number(let value) = self { value } else { nil } }
        var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    @Test func rawSpectraAndZonesReachPylsl() async throws {
        let library = try LSLPeer.library()
        let labels = ["EXG2", "EXG3", "EXG6", "EXG7"]
        let seconds = 12.0
        let recording = try RecordingReader.read(path: LSLPeer.recording).selecting(channels: labels)
            .segment(from: 30, to: 30 + seconds)
        let configuration = EEGEngine.Configuration(
            sampleRate: recording.sampleRate, channelLabels: labels, baselineDuration: 4, indicatorPeriod: 2)
        let name = "axon-test-\(UUID().uuidString.prefix(8))"
        var published = recording.descriptor
        published.name = name
        published.sourceID = "\(name)-eeg"
        let raw = try LSLOutlet(descriptor: published, library: library)
        let outlets = try EEGOutlets(eeg: published, configuration: configuration, library: library)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("axon-lsl-\(name).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let peer = try LSLPeer.Process([
            "receive", "--names", "\(name),\(name) Spectra,\(name) Zones,\(name) Alpha", "--seconds", "\(seconds + 6)",
            "--out", output.path,
        ])
        defer { peer.finish(timeout: 5) }
        try #require(peer.waitForLine(containing: "ready", timeout: 30) != nil)
        #expect(raw.waitForConsumers(timeout: 10))

        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .realTime(multiplier: 1)))
        let session = try EEGSession(
            source: replay, configuration: configuration, sinks: [LSLOutletSink(outlet: raw)],
            options: .init(timeBase: .device, publishSamples: false, pipeline: replay.pipelineConfiguration()))
        let spectraTask = Task { () throws -> [SpectrumFrame] in
            var frames: [SpectrumFrame] = []
            for await frame in session.spectra {
                try outlets.publish(frame)
                frames.append(frame)
            }
            return frames
        }
        let zonesTask = Task { () throws -> [ActivityIndicators] in
            var indicators: [ActivityIndicators] = []
            for await indicator in session.indicators {
                try outlets.publish(indicator)
                indicators.append(indicator)
            }
            return indicators
        }
        let alphaTask = Task { () throws -> [IndividualAlphaUpdate] in
            var updates: [IndividualAlphaUpdate] = []
            for await update in session.individualAlpha {
                try outlets.publish(update)
                updates.append(update)
            }
            return updates
        }
        session.startBaseline()
        try session.start()
        session.waitUntilFinished()
        let frames = try await spectraTask.value
        let indicators = try await zonesTask.value
        let updates = try await alphaTask.value
        try #require(peer.waitForLine(containing: "done", timeout: 30) != nil)

        let received = try JSONDecoder().decode([String: Received].self, from: Data(contentsOf: output))
        let rawReceived = try #require(received[name])
        let spectra = try #require(received["\(name) Spectra"])
        let zones = try #require(received["\(name) Zones"])
        let alphaStream = try #require(received["\(name) Alpha"])

        // Raw: every sample, in order, with the channel labels and source id.
        #expect(rawReceived.labels == labels)
        #expect(rawReceived.source_id == "\(name)-eeg")
        #expect(rawReceived.samples.count == recording.frameCount)
        let format = LSLChannelFormat(published.format)
        #expect(format == .float32)  // the Cyton's 24-bit samples, as µV
        var mismatches = 0
        for (index, sample) in rawReceived.samples.enumerated() where index < recording.frameCount {
            for channel in 0..<labels.count {
                let sent = recording.value(frame: index, channel: channel)
                let expected = format == .float32 ? Double(Float(sent)) : sent
                if sample[channel].number != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)

        // Spectra: one sample per hop; the 7–13 Hz dominant frequencies are Axon's own, value for value.
        #expect(spectra.type == "EEGFeatures")
        #expect(spectra.source_id == "\(name)-eeg/spectra")
        #expect(spectra.rate == recording.sampleRate / Double(configuration.hop))
        #expect(spectra.labels.count == labels.count * configuration.bands.count * 2)
        #expect(spectra.samples.count == frames.count)
        #expect(frames.count >= Int(seconds) - 2)
        let alpha = try #require(configuration.bands.firstIndex { $0.lower == 7 && $0.upper == 13 })
        for (frame, sample) in zip(frames, spectra.samples) {
            for (channel, spectrum) in frame.channels.enumerated() {
                let column = (channel * configuration.bands.count + alpha) * 2
                #expect(spectra.labels[column] == "\(labels[channel]) 7-13Hz frequency")
                #expect(sample[column].number == spectrum.bands[alpha].dominantFrequency)
                #expect(sample[column + 1].number == spectrum.bands[alpha].power)
            }
        }

        // Zones: one string sample per indicator, overall then per channel.
        #expect(zones.type == "Markers")
        #expect(zones.samples.count == indicators.count)
        #expect(indicators.count >= 3)
        for (indicator, sample) in zip(indicators, zones.samples) {
            let percent = Int((indicator.activity.percent * 100).rounded())
            #expect(sample.first?.text == "\(indicator.activity.zone) \(percent)%")
            #expect(sample.count == 1 + labels.count)
        }

        // Alpha: one sample per running individual alpha frequency (every 10 clean windows), per channel PAF and
        // CoG then the pooled ones; NaN (null) where there is none.
        #expect(alphaStream.type == "EEGFeatures")
        #expect(alphaStream.source_id == "\(name)-eeg/alpha")
        #expect(alphaStream.labels == (labels + ["pooled"]).flatMap { ["\($0) PAF", "\($0) CoG"] })
        #expect(updates.count >= 1 && alphaStream.samples.count == updates.count)
        for (update, sample) in zip(updates, alphaStream.samples) {
            #expect(update.windows % 10 == 0)
            for (channel, estimate) in update.estimate.channels.enumerated() {
                #expect(sample[channel * 2].number == estimate.peak)
                #expect(sample[channel * 2 + 1].number == estimate.centreOfGravity)
            }
        }
        // EXG6 and EXG7 carry the eyes-closed alpha rhythm from 30 s on: their PAF is there, near 11.6 Hz.
        if let last = updates.last {
            for channel in 2...3 {
                #expect(last.estimate.channels[channel].peak.map { abs($0 - 11.6) < 0.5 } == true, "\(last.estimate)")
            }
        }

        let spectraLatency = Self.percentiles(spectra.latencies)
        let rawLatency = Self.percentiles(rawReceived.latencies)
        print(
            "lsl outlets: \(rawReceived.samples.count) raw samples, \(spectra.samples.count) spectra, "
                + "\(zones.samples.count) zones; spectra push→pull p50 \(spectraLatency.p50 * 1e3) ms, "
                + "p99 \(spectraLatency.p99 * 1e3) ms; raw sample time→pull p50 \(rawLatency.p50 * 1e3) ms, "
                + "p99 \(rawLatency.p99 * 1e3) ms")
        #expect(spectraLatency.p99 < 0.5)
    }

    static func percentiles(_ values: [Double]) -> (p50: Double, p99: Double) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return (.nan, .nan) }
        func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))] }
        return (at(0.5), at(0.99))
    }
}
