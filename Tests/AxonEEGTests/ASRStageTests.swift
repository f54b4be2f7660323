// The ASR stage on the pipeline: synthetic bursts on the shared OpenBCI recording, and gaps.

import AxonDSP
import AxonEEG
import AxonRecording
import Foundation
import Testing

@testable import AxonStreams

/// Keeps every channel value that reaches it (test only: it allocates as it grows).
final class CaptureProcessor: SampleProcessor {
    let name = "capture"
    var values: [Double] = []

    init(reserve: Int) { values.reserveCapacity(reserve) }

    func process(_ block: SampleBlock) {
        for frame in 0..<block.frameCount { values.append(contentsOf: block.values(ofFrame: frame)) }
    }
}

@Suite("ASR stage: bursts on real EEG, alpha kept, gaps restart the filters", .serialized)
struct ASRStageTests {
    static let rate = 250.0
    static let channels = 8
    /// The eyes-closed segment, 28–76 s of the recording.
    static let segment = 7000..<19_000
    /// Seconds (from the segment's start) the stage calibrates on: 28–48 s of the recording, free of bursts.
    static let calibrationSeconds = 20.0
    /// Bursts: start (s from the segment's start), duration (s), channel, amplitude in multiples of the
    /// channel's RMS, frequency (Hz; 0 for broadband noise). All inside 20–32 s of the segment (48–60 s of the
    /// recording), after the calibration and before the clean stretch the alpha peak is measured on.
    static let bursts: [(start: Double, duration: Double, channel: Int, gain: Double, frequency: Double)] = [
        (20.5, 0.5, 2, 10, 4), (22.0, 1.0, 6, 20, 0), (23.6, 0.7, 2, 15, 1.5), (23.8, 0.6, 6, 12, 0),
        (25.6, 0.8, 6, 15, 3), (27.4, 1.0, 2, 20, 0), (29.3, 0.5, 6, 18, 6), (31.0, 0.9, 2, 12, 2.5),
    ]
    /// The clean stretch after the bursts (s from the segment's start, input time), ending where the delayed output ends.
    static let cleanStretch = 33.0..<47.6

    /// Runs frame-major `values` (the segment's 8 channels) through replay → ring → ASR stage → capture.
    static func clean(_ values: [Double], like recording: Recording) throws -> (output: [Double], stage: ASRStage) {
        let input = Recording(
            descriptor: recording.descriptor, values: values, timestamps: recording.timestamps,
            counters: recording.counters, counterModulus: recording.counterModulus)
        let replay = RecordingReplaySource(recording: input, options: .init(speed: .asFastAsPossible))
        let stage = ASRStage(calibration: .firstSeconds(calibrationSeconds))
        let capture = CaptureProcessor(reserve: values.count)
        let pipeline = StreamPipeline(
            source: replay, processors: [stage, capture], sinks: [], configuration: replay.pipelineConfiguration())
        try pipeline.start()
        pipeline.waitUntilFinished()
        #expect(pipeline.statistics().dropped == 0 && pipeline.statistics().gapRecords == 0)
        return (capture.values, stage)
    }

    /// Channel `channel` of frame-major data over `frames`.
    static func channel(_ values: [Double], _ channel: Int, _ frames: Range<Int>) -> [Double] {
        frames.map { values[$0 * channels + channel] }
    }

    /// The 7–13 Hz peak of a Welch estimate (4-s Hann windows, 50 % overlap, 0.244 Hz bins), refined by a
    /// parabola through the peak bin and its neighbours.
    static func alphaPeak(_ signal: [Double]) throws -> Double {
        let analyzer = try SpectrumAnalyzer(.init(sampleRate: rate, fftSize: 1024, rigor: .estimate))
        var spectrum = [Double](repeating: 0, count: analyzer.grid.binCount)
        try signal.withUnsafeBufferPointer { (samples) throws(DSPError) in
            try spectrum.withUnsafeMutableBufferPointer { (destination) throws(DSPError) in
                _ = try analyzer.averageSpectrum(of: samples, hop: 512, into: destination)
            }
        }
        let bins = try analyzer.grid.bins(in: try FrequencyBand(7, 13))
        let k = bins.max { spectrum[$0] < spectrum[$1] }!
        let a: Double = spectrum[k - 1]
        let b: Double = spectrum[k]
        let c: Double = spectrum[k + 1]
        let curvature: Double = a - 2 * b + c
        let offset: Double = 0.5 * (a - c) / curvature
        return (Double(k) + offset) * analyzer.grid.binWidth
    }

    @Test("bursts of 10–20× RMS on two channels: ≥ 90 % of their energy removed, alpha peaks move < 0.1 Hz")
    func burstsOnRealEEG() throws {
        let recording = try RecordingReader.read(path: RealEEGTests.openBCIPath).frames(Self.segment)
        #expect(recording.channelCount == Self.channels && recording.sampleRate == Self.rate)
        let frames = recording.frameCount
        let clean = recording.values

        // The high-passed clean signal, for the channels' RMS and as the reference.
        let highPass = try HighPassFilter(channelCount: Self.channels, cutoff: 1, sampleRate: Self.rate)
        var filtered = clean
        filtered.withUnsafeMutableBufferPointer { buffer in
            for f in 0..<frames { highPass.filter(buffer.baseAddress! + f * Self.channels) }
        }
        let rms = (0..<Self.channels).map { c in
            (Self.channel(filtered, c, 0..<frames).map { $0 * $0 }.reduce(0, +) / Double(frames)).squareRoot()
        }

        var burst = [Double](repeating: 0, count: clean.count)
        var generator = SplitMix64(seed: 17)
        for b in Self.bursts {
            let start = Int(b.start * Self.rate)
            let length = Int(b.duration * Self.rate)
            for n in 0..<length {
                // Tukey envelope (10 % cosine tapers) so the burst has an onset, not a step.
                let taper = max(1, length / 10)
                let edge = min(n, length - 1 - n)
                let envelope = edge >= taper ? 1 : 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(taper))
                let wave =
                    b.frequency > 0
                    ? 2.0.squareRoot() * sin(2 * .pi * b.frequency * Double(n) / Self.rate)
                    : 3.0.squareRoot() * (2 * generator.uniform() - 1)
                burst[(start + n) * Self.channels + b.channel] += b.gain * rms[b.channel] * envelope * wave
            }
        }
        let dirty = zip(clean, burst).map(+)
        // What the stage's high-pass makes of the bursts alone (the filter is linear).
        let burstFilter = try HighPassFilter(channelCount: Self.channels, cutoff: 1, sampleRate: Self.rate)
        var filteredBurst = burst
        filteredBurst.withUnsafeMutableBufferPointer { buffer in
            for f in 0..<frames { burstFilter.filter(buffer.baseAddress! + f * Self.channels) }
        }

        let (cleanOut, cleanStage) = try Self.clean(clean, like: recording)
        let (dirtyOut, dirtyStage) = try Self.clean(dirty, like: recording)
        #expect(cleanOut.count == clean.count && dirtyOut.count == dirty.count)
        for stage in [cleanStage, dirtyStage] {
            #expect(stage.isCalibrated && stage.calibrationFailure == nil)
            #expect(stage.reconstructor?.failureCount == 0)
        }

        // Burst energy removed: 1 − ‖ASR(x+b) − ASR(x)‖² / ‖HP(b)‖², over the whole segment.
        let residual = zip(dirtyOut, cleanOut).map { ($0 - $1) * ($0 - $1) }.reduce(0, +)
        let energy = filteredBurst.map { $0 * $0 }.reduce(0, +)
        let removed = 1 - residual / energy
        #expect(removed >= 0.90, "burst energy removed: \(100 * removed) %")

        // Alpha peaks, each ASR output against HP(x) over the same input samples (outputs lag by the delay):
        // ASR(x+b) on the clean stretch after the bursts, and ASR(x) over everything after the calibration.
        let delay = dirtyStage.delay
        let stretch = Int(Self.cleanStretch.lowerBound * Self.rate)..<Int(Self.cleanStretch.upperBound * Self.rate)
        let calibrated = Int(Self.calibrationSeconds * Self.rate)..<(frames - delay)
        func shifted(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + delay)..<(range.upperBound + delay) }
        var shifts: [Double] = []
        var wholeShifts: [Double] = []
        for c in 0..<Self.channels {
            let reference = try Self.alphaPeak(Self.channel(filtered, c, stretch))
            let cleaned = try Self.alphaPeak(Self.channel(dirtyOut, c, shifted(stretch)))
            let wholeReference = try Self.alphaPeak(Self.channel(filtered, c, calibrated))
            let untouched = try Self.alphaPeak(Self.channel(cleanOut, c, shifted(calibrated)))
            // For the record only: the whole period with the bursts, whose channels ASR rebuilt from the others.
            let whole = try Self.alphaPeak(Self.channel(dirtyOut, c, shifted(calibrated)))
            shifts.append(max(abs(cleaned - reference), abs(untouched - wholeReference)))
            wholeShifts.append(abs(whole - wholeReference))
            #expect(abs(cleaned - reference) < 0.1, "EXG\(c): alpha \(reference) Hz → \(cleaned) Hz after bursts")
            #expect(abs(untouched - wholeReference) < 0.1, "EXG\(c): alpha \(wholeReference) → \(untouched) Hz")
        }
        let repairs = (dirtyStage.reconstructor?.repairCount ?? 0, cleanStage.reconstructor?.repairCount ?? 0)
        let updates = dirtyStage.reconstructor?.updateCount ?? 0
        print(
            "ASR figures: burst energy removed \(100 * removed) %, largest alpha-peak change \(shifts.max()!) Hz"
                + " (whole period with bursts: \(wholeShifts.map { ($0 * 1000).rounded() / 1000 }) Hz),"
                + " repairs \(repairs.0)/\(updates) with bursts, \(repairs.1)/\(updates) clean, delay \(delay) frames")
    }

    @Test("a gap record re-primes the high-pass: a 4 mV DC step across the gap leaves no transient")
    func gapRestartsFilters() throws {
        let descriptor = StreamDescriptor(
            name: "gap test", contentType: .eeg, channels: (0..<2).map { ChannelInfo(label: "ch\($0)", unit: "µV") },
            nominalRate: Self.rate, format: .float32, sourceID: "test")
        let stage = ASRStage(calibration: .firstSeconds(60))
        try stage.open(descriptor)
        let block = SampleBlock(layout: FrameLayout(channelCount: 2), capacity: 500)
        var outputs: [Double] = []
        for round in 0..<2 {
            block.reset(frameCount: 500)
            for frame in 0..<500 {
                let values = block.values(ofFrame: frame)
                let dc = frame < 250 && round == 0 ? 1000.0 : 5000.0
                values[0] = dc + sin(Double(frame))
                values[1] = -dc
            }
            if round == 0 {
                block.appendGap(GapRecord(cause: .linkLoss, missingCount: 40, start: 1, end: 1.16), beforeFrame: 250)
            }
            stage.process(block)
            for frame in 0..<500 { outputs.append(contentsOf: block.values(ofFrame: frame)) }
        }
        stage.close()
        #expect(stage.gapRestarts == 1)
        #expect(stage.reconstructor?.frameCount == 1000)
        // Channel 1 is pure DC on both sides of the gap: after priming it is exactly zero everywhere.
        #expect(stride(from: 1, to: outputs.count, by: 2).allSatisfy { outputs[$0] == 0 })
        // Channel 0 carries a 40 Hz tone of amplitude 1 (plus the priming transient of its phase, below 1): the
        // 4000 µV step never shows up.
        #expect(stride(from: 0, to: outputs.count, by: 2).allSatisfy { abs(outputs[$0]) < 2.5 })
    }

    @Test("open refuses irregular streams and a calibration made for other channels")
    func openErrors() throws {
        let irregular = StreamDescriptor(
            name: "events", contentType: .markers, channels: [ChannelInfo(label: "m", unit: "")], nominalRate: 0,
            format: .event, sourceID: "test")
        #expect(throws: EEGError.self) { try ASRStage().open(irregular) }
        let configuration = ASRConfiguration(sampleRate: Self.rate, channelCount: 3)
        var generator = SplitMix64(seed: 3)
        let calibration = try ASRCalibration(
            frames: (0..<(3 * 1000)).map { _ in 2 * generator.uniform() - 1 }, configuration: configuration)
        let eight = StreamDescriptor(
            name: "eeg", contentType: .eeg, channels: (0..<8).map { ChannelInfo(label: "ch\($0)", unit: "µV") },
            nominalRate: Self.rate, format: .float32, sourceID: "test")
        #expect(throws: EEGError.channelCountMismatch(expected: 3, actual: 8)) {
            try ASRStage(calibration: .given(calibration)).open(eight)
        }
    }
}
