import AxonDSP
import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Artifact subspace reconstruction on the EEG benchmarks' minute of 8-channel signal, with a 0.4-s burst of 30× the
/// signal on two channels every fourth second, so the repair path (pseudo-inverse, blended matrices) runs as well as
/// the pass-through one. Calibrated on the clean first 20 s; frames go through the high-pass and the reconstructor
/// exactly as `ASRStage` sends them.
final class ASRFixture {
    static let rate = 250
    let channels = 8
    let highPass: HighPassFilter
    let reconstructor: ASRReconstructor
    let values: UnsafeMutableBufferPointer<Double>
    let scratch: UnsafeMutableBufferPointer<Double>
    let frames: Int
    var sample = 0

    init() throws {
        let channels = self.channels
        let signal = EEGSignal(channels: channels, rate: Self.rate)
        frames = signal.frames
        values = .allocate(capacity: frames * channels)
        _ = values.initialize(from: signal.values)
        // Clean calibration data: the first 20 s, high-passed as the stage would.
        let calibrationFrames = 20 * Self.rate
        var calibrationData = Array(values[0..<(calibrationFrames * channels)])
        let calibrationFilter = try HighPassFilter(channelCount: channels, cutoff: 1, sampleRate: Double(Self.rate))
        calibrationData.withUnsafeMutableBufferPointer { buffer in
            for frame in 0..<calibrationFrames { calibrationFilter.filter(buffer.baseAddress! + frame * channels) }
        }
        for frame in 0..<frames where (frame / Self.rate) % 4 == 3 && frame % Self.rate < 100 {
            values[frame * channels + 1] += 30 * 20 * sin(2 * .pi * 3 * Double(frame) / Double(Self.rate))
            values[frame * channels + 5] += 30 * 15 * sin(2 * .pi * 3 * Double(frame) / Double(Self.rate))
        }
        let configuration = ASRConfiguration(sampleRate: Double(Self.rate), channelCount: channels)
        let calibration = try ASRCalibration(frames: calibrationData, configuration: configuration)
        highPass = try HighPassFilter(channelCount: channels, cutoff: 1, sampleRate: Double(Self.rate))
        reconstructor = try ASRReconstructor(configuration: configuration, calibration: calibration)
        scratch = .allocate(capacity: Self.rate * channels)
        scratch.initialize(repeating: 0)
        // One pass over the minute first, so the measured seconds find the window full and the delay line primed.
        for _ in 0..<(frames / Self.rate) { _ = second() }
    }

    deinit {
        values.deallocate()
        scratch.deallocate()
    }

    /// One device-second (250 frames, 15–16 reconstruction updates): copy out of the looped minute, high-pass,
    /// reconstruct in place. The minute is a multiple of a second, so a second never straddles its end.
    @inline(__always) func second() -> Double {
        let start = (sample % frames) * channels
        let base = scratch.baseAddress!
        base.update(from: values.baseAddress! + start, count: Self.rate * channels)
        for frame in 0..<Self.rate { highPass.filter(base + frame * channels) }
        reconstructor.process(base, frameCount: Self.rate, stride: channels)
        sample += Self.rate
        return base[channels + 1]
    }
}

func registerASRBenchmarks() {
    // One iteration = one device-second of 8 channels at 250 Hz through the high-pass and the reconstructor: the
    // same unit as `EEG.window8ch`, so the two read side by side. Per reconstruction update (a 0.5-s window every
    // 16 frames), divide by 250 / 16 = 15.6.
    Benchmark(
        "ASR.window8ch",
        // A device-second takes a few hundred microseconds, so unscaled iterations already time well.
        configuration: .init(scalingFactor: .one)
    ) { (benchmark: Benchmark, fixture: ASRFixture) in
        var last = 0.0
        for _ in benchmark.scaledIterations { last += fixture.second() }
        blackHole(last)
        blackHole(fixture.reconstructor.repairCount)
    } setup: {
        try ASRFixture()
    }
}
