// Bad data must not become confident output: long outages, clock jumps, flat windows, leakage read as a peak.

import AxonDSP
import AxonStreams
import Foundation
import Testing

@testable import AxonEEG

/// Frames written as fast as the ring takes them, from a closure that gives each frame's values, device time and
/// counter (or `nil` to end).
private final class ScriptedSource: SampleSource, @unchecked Sendable {
    // Sendable invariant: `frame` is only called on the pipeline's source thread.
    let descriptor: StreamDescriptor
    let frame: (Int) -> (values: [Double], deviceTime: Double?, counter: UInt64?)?

    init(channels: [String], frame: @escaping (Int) -> (values: [Double], deviceTime: Double?, counter: UInt64?)?) {
        descriptor = StreamDescriptor(
            name: "scripted", contentType: .eeg, channels: channels.map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: 250, format: .float64, sourceID: "scripted")
        self.frame = frame
    }

    func run(into writer: FrameWriter) throws {
        var index = 0
        var arrival = 1000.0
        while let next = frame(index), !writer.isStopRequested {
            while writer.freeCapacity == 0, !writer.isStopRequested { sched_yield() }
            arrival += 1.0 / 250
            writer.write(next.values, deviceTime: next.deviceTime, counter: next.counter, arrivalTime: arrival)
            index += 1
        }
    }
}

/// Alpha at 10 Hz over pink noise, a little different on each channel.
private func restingEEG(_ noise: inout NoiseGenerator, sample: Int, channels: Int, alpha: Double = 12) -> [Double] {
    (0..<channels).map { channel in
        alpha * sin(2 * .pi * 10 * Double(sample) / 250 + Double(channel)) + 8 * noise.pinkNoise()
    }
}

/// Runs a scripted source through the pipeline into an engine and returns the processor and its results.
private func runPipeline(
    _ source: ScriptedSource, configuration: EEGEngine.Configuration, baseline: Bool
) throws -> (processor: EEGProcessor, spectra: [SpectrumFrame], indicators: [ActivityIndicators]) {
    let processor = try EEGProcessor(configuration: configuration, timeBase: .host, resultCapacity: 1 << 14)
    if baseline { processor.requestBaseline() }
    let pipeline = StreamPipeline(
        source: source, processors: [processor], sinks: [], configuration: .init(ringCapacity: 1 << 14))
    try pipeline.start()
    pipeline.waitUntilFinished()
    let engine = processor.engine
    var spectra: [SpectrumFrame] = []
    var row = [Double](repeating: 0, count: engine.spectrumLayout.width)
    while row.withUnsafeMutableBufferPointer({ processor.spectra.pop(into: $0) }) == 1 {
        spectra.append(
            row.withUnsafeBufferPointer {
                SpectrumFrame(
                    SpectrumFrameView(row: $0, layout: engine.spectrumLayout), labels: configuration.channelLabels,
                    bands: configuration.bands, binWidth: engine.grid.binWidth)
            })
    }
    var indicators: [ActivityIndicators] = []
    var indicatorRow = [Double](repeating: 0, count: engine.indicatorLayout.width)
    while indicatorRow.withUnsafeMutableBufferPointer({ processor.indicators.pop(into: $0) }) == 1 {
        indicators.append(
            indicatorRow.withUnsafeBufferPointer {
                ActivityIndicators(row: $0, layout: engine.indicatorLayout, labels: configuration.channelLabels)
            })
    }
    return (processor, spectra, indicators)
}

@Suite("Engine truth under bad data", .serialized)
struct EngineTruthTests {
    @Test("a device clock that jumps 3 hours ahead costs one window restart, not 2.7 million synthesised samples")
    func clockJumpIsBounded() throws {
        var noise = NoiseGenerator(seed: 3)
        let perSide = 20 * 250
        let jump = 3 * 3600.0
        let source = ScriptedSource(channels: ["T3", "O1", "T4", "O2"]) { index in
            guard index < 2 * perSide else { return nil }
            let time = 1_700_000_000 + Double(index) / 250 + (index >= perSide ? jump : 0)
            return (restingEEG(&noise, sample: index, channels: 4), time, nil)
        }
        let (processor, spectra, _) = try runPipeline(source, configuration: testConfiguration(), baseline: false)
        let engine = processor.engine
        #expect(engine.windowRestarts == 1)
        #expect(processor.bridgedSamples == 0)
        #expect(engine.sampleCount == 2 * perSide + Int(jump * 250))
        // 19 spectra of real samples on each side; none spans the jump.
        let perSideSpectra = (perSide - 256) / 250 + 1
        #expect(spectra.count == 2 * perSideSpectra)
        #expect(spectra.allSatisfy { $0.filledSamples == 0 })
        let firstAfter = spectra[perSideSpectra].sampleIndex
        #expect(firstAfter == perSide + Int(jump * 250) + 255)
    }

    @Test("a 5 s outage never yields a Dream indicator: no window spans it and no sample is made up for it")
    func outageIsNotSignal() throws {
        var noise = NoiseGenerator(seed: 5)
        let lost = (80 * 250)..<(85 * 250)
        let total = 140 * 250
        let source = ScriptedSource(channels: ["T3", "O1", "T4", "O2"]) { index in
            var index = index
            if index >= lost.lowerBound { index += lost.count }  // the device's counter jumps over the outage
            guard index < total else { return nil }
            return (restingEEG(&noise, sample: index, channels: 4), nil, UInt64(index))
        }
        let (processor, spectra, indicators) = try runPipeline(
            source, configuration: testConfiguration(), baseline: true)
        #expect(processor.engine.windowRestarts == 1)
        #expect(processor.bridgedSamples == 0)
        #expect(!indicators.isEmpty)
        #expect(indicators.allSatisfy { $0.activity.zone != .dream }, "\(indicators.map(\.activity.zone))")
        // No spectrum's window reaches into the outage.
        for frame in spectra {
            let window = (frame.sampleIndex - 255)...frame.sampleIndex
            #expect(!window.overlaps(lost), "frame ending at \(frame.sampleIndex)")
        }
        // The indicator whose period held the outage used fewer windows than a full period.
        let spanning = indicators.first { $0.sampleIndex > lost.upperBound && $0.sampleIndex - 2500 < lost.lowerBound }
        #expect(spanning.map { $0.frames < 10 } ?? false)
    }

    @Test("short losses are still bridged, and the spectra over them are kept out of the baseline")
    func shortLossBridgedAndExcluded() throws {
        var noise = NoiseGenerator(seed: 6)
        let lost = 3000..<3005
        let source = ScriptedSource(channels: ["T3", "O1", "T4", "O2"]) { index in
            let index = index >= lost.lowerBound ? index + lost.count : index
            guard index < 90 * 250 else { return nil }
            return (restingEEG(&noise, sample: index, channels: 4), nil, UInt64(index))
        }
        let (processor, spectra, _) = try runPipeline(source, configuration: testConfiguration(), baseline: true)
        #expect(processor.bridgedSamples == 5)
        #expect(processor.engine.windowRestarts == 0)
        let filled = spectra.filter { $0.filledSamples > 0 }
        #expect(filled.map(\.sampleIndex) == [3005, 3255])
        #expect(filled.allSatisfy { $0.isExcluded })
        #expect(processor.engine.excludedFrames == 2)
    }

    @Test("one flat window on one channel in the baseline leaves the other channels' zones alone and does not pin its own")
    func flatFrameIsExcluded() throws {
        func zones(flat: Bool) throws -> ([[ActivityZone?]], Int) {
            var noise = NoiseGenerator(seed: 9)
            let engine = try EEGEngine(testConfiguration())
            engine.startBaseline()
            var result: [[ActivityZone?]] = []
            for n in 0..<(130 * 250) {
                // Alpha doubles after the baseline: Relaxation on every channel.
                var values = restingEEG(&noise, sample: n, channels: 4, alpha: n < 60 * 250 ? 8 : 20)
                if flat, (20 * 250)..<(21 * 250 + 10) ~= n { values[0] = 812.5 }  // a shorted input
                if engine.ingest(values, time: testStartTime + Double(n) / 250).contains(.indicators) {
                    let indicator = engine.withIndicatorRow {
                        ActivityIndicators(row: $0, layout: engine.indicatorLayout, labels: ["T3", "O1", "T4", "O2"])
                    }
                    result.append(indicator.channels.map { $0.level?.zone })
                }
            }
            return (result, engine.unusableChannelWindows)
        }
        let (clean, cleanUnusable) = try zones(flat: false)
        let (withFlat, flatUnusable) = try zones(flat: true)
        #expect(cleanUnusable == 0)
        #expect(flatUnusable >= 1)
        #expect(clean.count == 8)
        #expect(clean.last?.allSatisfy { $0 == .relaxation || $0 == .highRelaxation } ?? false, "\(clean)")
        // The other channels are untouched; the flat channel itself loses one window of its baseline and is not
        // pinned to NormalActivity (a −20.7 log-odds in its baseline would have widened its spread many-fold).
        #expect(withFlat.map { Array($0[1...]) } == clean.map { Array($0[1...]) })
        #expect(withFlat[2...].map { $0[0] } == clean[2...].map { $0[0] })
    }

    @Test("a strong 8 Hz rhythm gives theta (3–7 Hz) and beta no peak, not the band edge; alpha reads 8 Hz")
    func leakageIsNoPeak() throws {
        let engine = try EEGEngine(testConfiguration())
        for n in 0..<256 {
            let value = 60 * sin(2 * .pi * 8 * Double(n) / 250)
            engine.ingest([value, value, value, value], time: testStartTime + Double(n) / 250)
        }
        let owned = engine.withSpectrum { frame in
            for channel in 0..<4 {
                #expect(frame.dominantFrequency(channel: channel, band: 0) == nil)
                #expect(frame.peakPower(channel: channel, band: 0) == nil)
                #expect(abs((frame.dominantFrequency(channel: channel, band: 1) ?? 0) - 8) < 0.02)
                #expect(frame.dominantFrequency(channel: channel, band: 2) == nil)
            }
            return SpectrumFrame(
                frame, labels: ["T3", "O1", "T4", "O2"], bands: engine.configuration.bands,
                binWidth: engine.grid.binWidth)
        }
        #expect(owned.channels[0].bands[0].dominantFrequency == nil)
        // The band still has power: zones use band power, never a peak.
        #expect(owned.channels[0].bands[0].power > 0)
    }
}
