// AxonEEG — artifact subspace reconstruction as a real-time pipeline stage, ahead of the EEG engine.

import AxonDSP
import AxonMemory
import AxonStreams

/// Cleans EEG blocks in place with artifact subspace reconstruction (ASR, `docs/asr.md`) on a
/// ``AxonStreams/StreamPipeline``'s consumer thread, before the engine and the sinks see them.
///
/// For every frame it (1) high-passes each channel (``AxonDSP/HighPassFilter``, second-order Butterworth, primed on the
/// first frame so the amplifier's DC offset leaves no transient), (2) while calibrating, keeps the frame for
/// calibration, and (3) passes it through an ``AxonDSP/ASRReconstructor``, which writes into the frame the cleaned value
/// of the frame ``delay`` frames earlier (77 frames, 308 ms, at 250 Hz with the defaults). The frame's header lanes
/// (sequence, arrival time, device time, counter, timestamp) travel with its values: the frame that leaves the
/// stage carries the header of the input frame its values were made from, so a spectrum, an indicator, a marker
/// alignment or a recording downstream puts the signal at its own time. The first ``delay`` frames of a stream
/// (the delay line's zeros) get times extrapolated back from the first frame, one sample period apart, and no
/// device counter (NaN); the last ``delay`` input frames stay in the delay line when the stream ends.
///
/// Calibration is either given (``Calibration/given(_:)``) or taken from the stream's first seconds
/// (``Calibration/firstSeconds(_:)``): those frames pass through, high-passed and delayed but not cleaned, and
/// when they are complete the calibration is computed on the consumer thread, into memory allocated at
/// ``open(_:)``. If it fails (a LAPACK error), ``calibrationFailure`` says why and the next seconds are collected
/// for another attempt.
///
/// A gap record in a block (lost samples) restarts the filters before the frame it precedes: the high-pass
/// primes again on that frame, and the reconstructor finishes the frames pending before the gap and starts a
/// new segment, so no window spans the gap (``AxonDSP/ASRReconstructor/restart()``). The delay line keeps running, so the
/// ``delay`` frames that follow a gap record carry the last cleaned frames from before it, with their times: the
/// jump in time shows ``delay`` frames after the gap record (the record itself stays where the source put it).
///
/// Warm-up (``WarmingUpStage``): until a calibration is loaded and ``delay`` frames more have left the stage,
/// its output is warm-up (``isWarmingUp``, ``warmUpFramesInLastBlock``), and an ``EEGSession`` holds the engine's
/// baseline until the output has settled, so a baseline is never taken on uncleaned frames.
///
/// Memory: everything is allocated in ``open(_:)``; ``process(_:)`` allocates nothing and takes no lock.
///
/// Threading: ``open(_:)`` and ``close()`` on the controlling thread before start / after the consumer ended,
/// ``process(_:)`` on the consumer thread; read the status properties on the consumer thread or after the
/// pipeline has finished.
///
///     let asr = ASRStage(calibration: .firstSeconds(60))
///     eegProcessor.warmUpStages = [asr]  // the baseline waits for cleaned output (an EEGSession does this itself)
///     let pipeline = StreamPipeline(descriptor: eeg, processors: [asr, eegProcessor], sinks: sinks)
public final class ASRStage: WarmingUpStage {
    /// Where the calibration comes from.
    public enum Calibration: Sendable, Hashable {
        /// The first `seconds` of the stream (at least four windows; 60 s is customary): clean resting EEG.
        case firstSeconds(Double)
        /// A calibration computed earlier for the same channels, order and unit, on data high-passed at the
        /// same cutoff.
        case given(ASRCalibration)
    }

    /// `"asr"`.
    public let name = "asr"
    /// Where the calibration comes from.
    public let calibration: Calibration
    /// The high-pass −3 dB frequency in hertz.
    public let highPassCutoff: Double
    /// Rejection threshold in standard deviations of the calibration data's window RMS.
    public let cutoff: Double
    /// The sliding window in seconds.
    public let windowDuration: Double
    /// The largest fraction of components removed per window.
    public let maxRemovedFraction: Double

    /// The reconstructor, from ``open(_:)`` on.
    public private(set) var reconstructor: ASRReconstructor?
    /// The high-pass filter, from ``open(_:)`` on.
    public private(set) var highPass: HighPassFilter?
    /// The calibration learned from the stream's first seconds, available after ``close()`` (`nil` when it was
    /// given, or the stream ended before it was complete).
    public private(set) var learnedCalibration: ASRCalibration?
    /// The error of the last failed calibration attempt, if any.
    public private(set) var calibrationFailure: DSPError?
    /// Gap records that restarted the filters.
    public private(set) var gapRestarts = 0
    /// The fixed delay in frames (0 before ``open(_:)``).
    public var delay: Int { reconstructor?.delay ?? 0 }
    /// Whether frames are being cleaned (a calibration is loaded).
    public var isCalibrated: Bool { reconstructor?.isCalibrated ?? false }
    /// Whether the next frame to leave the stage is still warm-up output, not yet cleaned with the loaded
    /// calibration: true from ``open(_:)`` until the calibration is loaded and ``delay`` more frames have left (with
    /// a given calibration: the stream's first ``delay`` frames, the delay line's zeros). While calibration attempts
    /// keep failing (``calibrationFailure``) it stays true.
    public var isWarmingUp: Bool { calibrating || warmUpFrames > 0 }
    /// How many frames of the block processed last were warm-up output (its first ones).
    public private(set) var warmUpFramesInLastBlock = 0
    /// Frames still to pass after the calibration was loaded before the output is all cleaned (``delay`` when it
    /// loads), counted down per frame.
    private var warmUpFrames = 0

    private var calibrator: ASRCalibrator?
    /// The calibration frames collected so far (empty when not calibrating on the stream).
    private var collected = OwnedBuffer<Double>(repeating: 0, count: 0)
    private var collectedFrames = 0
    private var calibrating = false
    private var channels = 0
    /// The delay line of the header lanes: ``delay`` headers, ``FrameLayout/headerLanes`` doubles each.
    private var headers = OwnedBuffer<Double>(repeating: 0, count: 0)
    private var headerCursor = 0
    private var headersPrimed = false
    private var samplePeriod = 0.0

    /// Creates the stage; nothing is allocated until ``open(_:)``.
    ///
    /// - Parameters:
    ///   - calibration: where the calibration comes from (default: the first 60 s of the stream).
    ///   - highPassCutoff: the high-pass −3 dB frequency (default 1 Hz: ASR needs zero-mean data, and the engine's
    ///     lowest band starts at 3 Hz).
    ///   - cutoff: rejection threshold in standard deviations (default 5).
    ///   - windowDuration: the sliding window in seconds (default 0.5).
    ///   - maxRemovedFraction: the largest fraction of components removed per window (default 0.66).
    public init(
        calibration: Calibration = .firstSeconds(60), highPassCutoff: Double = 1, cutoff: Double = 5,
        windowDuration: Double = 0.5, maxRemovedFraction: Double = 0.66
    ) {
        self.calibration = calibration
        self.highPassCutoff = highPassCutoff
        self.cutoff = cutoff
        self.windowDuration = windowDuration
        self.maxRemovedFraction = maxRemovedFraction
    }

    /// The ASR parameters for a stream of `channelCount` channels at `sampleRate`.
    public func configuration(sampleRate: Double, channelCount: Int) -> ASRConfiguration {
        ASRConfiguration(
            sampleRate: sampleRate, channelCount: channelCount, cutoff: cutoff, windowDuration: windowDuration,
            maxRemovedFraction: maxRemovedFraction)
    }

    /// Builds the filter, the reconstructor and, when calibrating on the stream, the calibration buffer.
    ///
    /// - Throws: ``EEGError/invalidConfiguration(_:)`` for an irregular stream or a calibration period that is not
    ///   finite and positive; ``EEGError/channelCountMismatch(expected:actual:)`` if a given calibration has
    ///   other channels; ``EEGError/dsp(_:)`` for parameters ASR cannot use.
    public func open(_ descriptor: StreamDescriptor) throws {
        guard descriptor.isRegular else {
            throw EEGError.invalidConfiguration("ASR needs a regular stream; \(descriptor.name) has no nominal rate")
        }
        let rate = descriptor.nominalRate
        let channelCount = descriptor.channelCount
        let configuration = configuration(sampleRate: rate, channelCount: channelCount)
        if case .given(let given) = calibration, given.channelCount != channelCount {
            throw EEGError.channelCountMismatch(expected: given.channelCount, actual: channelCount)
        }
        close()
        do throws(DSPError) {
            highPass = try HighPassFilter(channelCount: channelCount, cutoff: highPassCutoff, sampleRate: rate)
            reconstructor = try ASRReconstructor(configuration: configuration)
            switch calibration {
            case .given(let given):
                try reconstructor?.load(given)
            case .firstSeconds(let seconds):
                guard seconds.isFinite, seconds > 0 else {
                    throw DSPError.invalidParameter(
                        name: "calibration period", value: seconds, requirement: "it must be finite and positive")
                }
                let frames = max(Int((seconds * rate).rounded()), 4 * configuration.windowLength)
                calibrator = try ASRCalibrator(configuration: configuration, capacity: frames)
                collected = OwnedBuffer(repeating: 0, count: frames * channelCount)
            }
        } catch {
            close()
            throw EEGError.dsp(error)
        }
        channels = channelCount
        let delayFrames = reconstructor?.delay ?? 0
        if delayFrames > 0 {
            headers = OwnedBuffer(repeating: .nan, count: delayFrames * FrameLayout.headerLanes)
        }
        headerCursor = 0
        headersPrimed = false
        samplePeriod = 1 / rate
        warmUpFrames = calibrator == nil ? delayFrames : 0
        warmUpFramesInLastBlock = 0
        learnedCalibration = nil
        calibrating = calibrator != nil
        collectedFrames = 0
        gapRestarts = 0
        calibrationFailure = nil
    }

    /// High-passes, collects calibration frames or cleans, in place, and moves each frame's header lanes with its
    /// values (``delay`` frames on); gap records restart the filters.
    public func process(_ block: SampleBlock) {
        guard let highPass, let reconstructor else { return }
        warmUpFramesInLastBlock = 0
        let gaps = block.gaps
        let width = block.layout.width
        var gapIndex = 0
        var frame = 0
        while frame < block.frameCount || gapIndex < gaps.count {
            while gapIndex < gaps.count, gaps[gapIndex].beforeFrame <= frame {
                if gaps[gapIndex].gap.missingCount > 0 {
                    highPass.reset()
                    reconstructor.restart()
                    gapRestarts += 1
                }
                gapIndex += 1
            }
            guard frame < block.frameCount else { break }
            let end = gapIndex < gaps.count ? min(gaps[gapIndex].beforeFrame, block.frameCount) : block.frameCount
            let values = block.rows.baseAddress! + frame * width + FrameLayout.headerLanes
            for f in 0..<(end - frame) {
                let row = values + f * width
                highPass.filter(row)
                collect(row)
                delayHeader(row - FrameLayout.headerLanes)
            }
            reconstructor.process(values, frameCount: end - frame, stride: width)
            frame = end
        }
    }

    /// Releases the calibration buffers and the header delay line; the reconstructor and filter stay readable for
    /// their statistics.
    public func close() {
        if let calibrator, !calibrating, calibrator.frameCount > 0 { learnedCalibration = calibrator.makeCalibration() }
        collected = OwnedBuffer(repeating: 0, count: 0)
        headers = OwnedBuffer(repeating: 0, count: 0)
        calibrator = nil
        calibrating = false
    }

    /// Swaps the frame's header lanes with those of the frame ``delay`` frames earlier, the frame whose cleaned
    /// values the reconstructor writes into this one; counts the warm-up down.
    @inline(__always)
    private func delayHeader(_ header: UnsafeMutablePointer<Double>) {
        if calibrating || warmUpFrames > 0 {
            warmUpFramesInLastBlock += 1
            if !calibrating { warmUpFrames -= 1 }
        }
        guard !headers.isEmpty else { return }
        let lanes = FrameLayout.headerLanes
        let delayFrames = headers.count / lanes
        if !headersPrimed { primeHeaders(before: header, frames: delayFrames) }
        let slot = headerCursor * lanes
        for lane in 0..<lanes {
            let value = headers[slot + lane]
            headers[slot + lane] = header[lane]
            header[lane] = value
        }
        headerCursor = headerCursor + 1 == delayFrames ? 0 : headerCursor + 1
    }

    /// Fills the header delay line with the headers of the `frames` frames before the stream's first: its times
    /// and sequence numbers counted back one sample period each, no device counter.
    private func primeHeaders(before first: UnsafeMutablePointer<Double>, frames: Int) {
        guard !headers.isEmpty else { return }
        let lanes = FrameLayout.headerLanes
        for slot in 0..<frames {
            let back = Double(frames - slot)
            let row = slot * lanes
            headers[row + FrameLayout.sequenceLane] = first[FrameLayout.sequenceLane] - back
            headers[row + FrameLayout.arrivalLane] = first[FrameLayout.arrivalLane] - back * samplePeriod
            headers[row + FrameLayout.deviceTimeLane] = first[FrameLayout.deviceTimeLane] - back * samplePeriod
            headers[row + FrameLayout.counterLane] = .nan
            headers[row + FrameLayout.timestampLane] = first[FrameLayout.timestampLane] - back * samplePeriod
        }
        headerCursor = 0
        headersPrimed = true
    }

    /// Keeps one high-passed frame for calibration and calibrates when the period is complete.
    @inline(__always)
    private func collect(_ row: UnsafeMutablePointer<Double>) {
        guard calibrating, let calibrator, let reconstructor else { return }
        let (start, channels) = (collectedFrames * channels, channels)
        collected.withUnsafeMutableBufferPointer { ($0.baseAddress! + start).update(from: row, count: channels) }
        collectedFrames += 1
        guard collectedFrames == calibrator.capacity else { return }
        collectedFrames = 0
        do throws(DSPError) {
            try collected.withUnsafeBufferPointer { (frames) throws(DSPError) in try calibrator.calibrate(frames) }
            try calibrator.withResults { (results) throws(DSPError) in
                try reconstructor.load(mixing: results.mixing, thresholdMatrix: results.thresholdMatrix)
            }
            calibrationFailure = nil
            calibrating = false
            warmUpFrames = reconstructor.delay
        } catch {
            calibrationFailure = error
        }
    }
}
