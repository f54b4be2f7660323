// AxonDSP — ASR calibration on clean data: robust covariance, its square root, per-component thresholds.

import AxonMemory

/// Calibrates artifact subspace reconstruction on clean, zero-mean (high-passed) data, without allocating once
/// built, so a real-time stage can calibrate on its consumer thread at the end of a calibration period.
///
/// ``calibrate(_:)`` computes, from frame-major data (`data[frame · channels + channel]`):
/// 1. **the covariance**, robustly: the data is cut into blocks of ``ASRConfiguration/covarianceBlockLength``
///    frames, each block gives the mean of its outer products `x·xᵀ`, and the covariance is the *geometric median*
///    of those block matrices (the matrix minimising the sum of Frobenius distances to them; Weiszfeld's
///    iteration from their mean). A minority of contaminated blocks moves it little, where it would dominate the
///    plain mean.
/// 2. **the mixing matrix** `M = C^½`, the symmetric square root, from the eigen-decomposition `C = V·Λ·Vᵀ`
///    (LAPACK `dsyevr`): `M = V·Λ^½·Vᵀ`.
/// 3. **per-component thresholds**: the data is projected on the eigenvectors (`y = Vᵀx`), the RMS of each
///    component is taken over windows of ``ASRConfiguration/windowLength`` frames overlapping by
///    ``ASRConfiguration/calibrationWindowOverlap``, and component `c`'s threshold is
///    `τ_c = μ_c + cutoff · σ_c`, with the mean `μ_c` and standard deviation `σ_c` of its RMS values estimated
///    robustly as the median and `1.4826 ·` the median absolute deviation. The threshold operator is
///    `T = diag(τ) · Vᵀ`: the RMS limit along any direction `v` is `‖T·v‖`.
///
/// The results stay in the calibrator's own memory until the next call: ``withResults(_:)`` lends them
/// (``Results/mixing``, ``Results/thresholdMatrix`` …) and ``makeCalibration()`` copies them into a
/// ``ASRCalibration`` value.
///
/// Threading: a single-owner type (it owns mutable scratch memory); one thread at a time. Not `Sendable`.
///
///     let calibrator = try ASRCalibrator(configuration: .init(sampleRate: 250, channelCount: 8), capacity: 15_000)
///     try calibrator.calibrate(cleanFrames)           // 8 × n values, frame-major, high-passed
///     let calibration = calibrator.makeCalibration()
/// - Complexity: ``calibrate(_:)`` is O(frames · channels²) plus O(blocks · channels² · iterations) for the median;
///   no allocation.
public final class ASRCalibrator {
    /// The parameters.
    public let configuration: ASRConfiguration
    /// The most frames ``calibrate(_:)`` accepts.
    public let capacity: Int

    /// The fewest frames ``calibrate(_:)`` accepts: four windows, so the RMS distribution has a shape.
    public var minimumFrameCount: Int { 4 * configuration.windowLength }

    let channels: Int
    /// Values in the packed upper triangle of a `channels × channels` matrix.
    let packedCount: Int
    private let eigensolver: SymmetricEigensolver
    /// Block covariances, packed upper triangles, `blockCapacity` rows.
    let blocks: OwnedBuffer<Double>
    let blockCapacity: Int
    /// Geometric-median iterate and the Weiszfeld numerator (packed).
    let median: OwnedBuffer<Double>
    let numerator: OwnedBuffer<Double>
    /// Per packed entry, how many entries of the full matrix it stands for (1 on the diagonal, 2 off it).
    let packedWeights: OwnedBuffer<Double>
    /// Squared component activations, frame-major (`capacity × channels`).
    private let energies: OwnedBuffer<Double>
    /// Window RMS values per component (`windowCapacity × channels`, component-major) and selection scratch.
    private let rms: OwnedBuffer<Double>
    private let windowCapacity: Int
    let scratch: OwnedBuffer<Double>
    /// The full covariance matrix before it is accepted (column-major, `channels²`).
    private let matrix: OwnedBuffer<Double>

    /// The results, one after another: the covariance, the mixing matrix, the component directions and the
    /// threshold operator (`channels²` each, column-major), then the component thresholds (`channels`).
    private let results: OwnedBuffer<Double>
    private var mixingOffset: Int { channels * channels }
    private var directionOffset: Int { 2 * channels * channels }
    private var thresholdMatrixOffset: Int { 3 * channels * channels }
    private var thresholdOffset: Int { 4 * channels * channels }

    /// Frames used by the last successful ``calibrate(_:)`` (0 before).
    public private(set) var frameCount = 0
    /// Weiszfeld iterations the last geometric median took.
    public internal(set) var medianIterations = 0

    /// Prepares a calibrator for up to `capacity` frames.
    ///
    /// - Throws: the errors of ``ASRConfiguration/validate()``; ``DSPError/insufficientData(count:minimum:)`` if
    ///   `capacity` is below four windows; ``DSPError/lapackFailed(routine:info:)`` from the eigensolver's set-up.
    /// - Complexity: O(capacity · channels + blocks · channels²) memory.
    public init(configuration: ASRConfiguration, capacity: Int) throws(DSPError) {
        try configuration.validate()
        guard capacity >= 4 * configuration.windowLength else {
            throw .insufficientData(count: capacity, minimum: 4 * configuration.windowLength)
        }
        let c = configuration.channelCount
        self.configuration = configuration
        self.capacity = capacity
        channels = c
        packedCount = c * (c + 1) / 2
        eigensolver = try SymmetricEigensolver(order: c)
        blockCapacity = capacity / configuration.covarianceBlockLength
        blocks = OwnedBuffer(repeating: 0, count: blockCapacity * packedCount)
        median = OwnedBuffer(repeating: 0, count: packedCount)
        numerator = OwnedBuffer(repeating: 0, count: packedCount)
        packedWeights = OwnedBuffer(copying: (0..<c).lazy.flatMap { j in (0...j).lazy.map { i in i == j ? 1.0 : 2 } })
        energies = OwnedBuffer(repeating: 0, count: capacity * c)
        windowCapacity = (capacity - configuration.windowLength) / configuration.calibrationWindowStep + 1
        rms = OwnedBuffer(repeating: 0, count: windowCapacity * c)
        scratch = OwnedBuffer(repeating: 0, count: max(windowCapacity, blockCapacity))
        matrix = OwnedBuffer(repeating: 0, count: c * c)
        results = OwnedBuffer(repeating: 0, count: 4 * c * c + c)
    }

    /// The last calibration's results, as ``withResults(_:)`` lends them: valid only inside its closure.
    ///
    /// Threading: a view of the calibrator's memory; on the calibrator's thread, inside the closure.
    public struct Results {
        /// The robust covariance `C` (column-major, `channels²`), in the data's unit squared.
        public let covariance: UnsafeBufferPointer<Double>
        /// The mixing matrix `M = C^½` (column-major, `channels²`).
        public let mixing: UnsafeBufferPointer<Double>
        /// The eigenvectors `V` of `C` (column-major: column `c` is component `c`, by ascending variance).
        public let componentDirections: UnsafeBufferPointer<Double>
        /// The RMS threshold `τ_c` of each component, in the data's unit.
        public let componentThresholds: UnsafeBufferPointer<Double>
        /// The threshold operator `T = diag(τ) · Vᵀ` (column-major, `channels²`).
        public let thresholdMatrix: UnsafeBufferPointer<Double>
    }

    /// Calls `body` with the results of the last successful ``calibrate(_:)`` (zeros before the first), in the
    /// calibrator's own memory: valid only inside `body`, and overwritten by the next calibration.
    ///
    ///     try calibrator.withResults { try asr.load(mixing: $0.mixing, thresholdMatrix: $0.thresholdMatrix) }
    ///
    /// - Complexity: O(1); no allocation.
    public func withResults<Result, Failure: Error>(_ body: (Results) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let square = channels * channels
        let (channels, thresholds) = (channels, thresholdOffset)
        return try results.withUnsafeBufferPointer { (all) throws(Failure) in
            func matrix(at offset: Int) -> UnsafeBufferPointer<Double> {
                UnsafeBufferPointer(start: all.baseAddress! + offset, count: square)
            }
            return try body(
                Results(
                    covariance: matrix(at: 0), mixing: matrix(at: mixingOffset),
                    componentDirections: matrix(at: directionOffset),
                    componentThresholds: UnsafeBufferPointer(start: all.baseAddress! + thresholds, count: channels),
                    thresholdMatrix: matrix(at: thresholdMatrixOffset)))
        }
    }

    /// Calibrates on `data`: whole frames of ``ASRConfiguration/channelCount`` values, frame-major, zero-mean
    /// (high-passed) and free of large artifacts for most of its length.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless the count is a whole number of frames;
    ///   ``DSPError/insufficientData(count:minimum:)`` for fewer than ``minimumFrameCount`` or more than
    ///   ``capacity`` frames (`minimum` then names the bound); ``DSPError/nonFiniteData(count:)`` if a value is NaN
    ///   or infinite; ``DSPError/lapackFailed(routine:info:)`` from the eigen-decomposition. On error the
    ///   previous results are kept.
    /// - Complexity: see the type; no allocation.
    public func calibrate(_ data: UnsafeBufferPointer<Double>) throws(DSPError) {
        guard data.count % channels == 0, let base = data.baseAddress else {
            throw .lengthMismatch(expected: (data.count / channels + 1) * channels, actual: data.count)
        }
        let frames = data.count / channels
        guard frames >= minimumFrameCount else { throw .insufficientData(count: frames, minimum: minimumFrameCount) }
        guard frames <= capacity else { throw .insufficientData(count: frames, minimum: capacity) }
        var nonFinite = 0
        for i in 0..<data.count where !base[i].isFinite { nonFinite += 1 }
        guard nonFinite == 0 else { throw .nonFiniteData(count: nonFinite) }

        // 1. Robust covariance: geometric median of the block covariances, unpacked into a full matrix.
        let blockCount = fillBlockCovariances(base, frames: frames)
        geometricMedian(blockCount: blockCount)
        unpack(median, into: matrix)

        // 2. M = C^½ and the eigenvectors V (ascending variance).
        let square = channels * channels
        let (mixingOffset, directionOffset) = (mixingOffset, directionOffset)
        try matrix.withUnsafeBufferPointer { (matrix) throws(DSPError) in
            try results.withUnsafeMutableBufferPointer { (results) throws(DSPError) in
                try eigensolver.squareRoot(of: matrix.baseAddress!, into: results.baseAddress! + mixingOffset)
                (results.baseAddress!).update(from: matrix.baseAddress!, count: square)
                eigensolver.withDecomposition { _, vectors in
                    (results.baseAddress! + directionOffset).update(from: vectors.baseAddress!, count: square)
                }
            }
        }

        // 3. Component RMS per window, then τ = median + cutoff · 1.4826 · MAD per component.
        let windows = fillWindowRMS(base, frames: frames)
        for component in 0..<channels {
            let values = component * windowCapacity
            for w in 0..<windows { scratch[w] = rms[values + w] }
            let centre = scratch.withUnsafeMutableBufferPointer { Self.median($0.baseAddress!, count: windows) }
            for w in 0..<windows { scratch[w] = abs(rms[values + w] - centre) }
            let spread =
                1.4826 * scratch.withUnsafeMutableBufferPointer { Self.median($0.baseAddress!, count: windows) }
            results[thresholdOffset + component] = centre + configuration.cutoff * spread
        }
        for column in 0..<channels {
            for row in 0..<channels {
                results[thresholdMatrixOffset + row + column * channels] =
                    results[thresholdOffset + row] * results[directionOffset + column + row * channels]
            }
        }
        frameCount = frames
    }

    /// Copies the last results into a value (allocates; not for the real-time path).
    ///
    /// - Precondition: a successful ``calibrate(_:)``.
    public func makeCalibration() -> ASRCalibration {
        precondition(frameCount > 0, "makeCalibration() needs a successful calibrate(_:) first")
        return withResults { results in
            ASRCalibration(
                channelCount: channels, frameCount: frameCount, covariance: Array(results.covariance),
                mixing: Array(results.mixing), componentDirections: Array(results.componentDirections),
                componentThresholds: Array(results.componentThresholds),
                thresholdMatrix: Array(results.thresholdMatrix))
        }
    }

    /// The mean outer product of each whole block of frames, packed; returns the number of blocks.
    private func fillBlockCovariances(_ base: UnsafePointer<Double>, frames: Int) -> Int {
        let length = configuration.covarianceBlockLength
        let count = frames / length
        let scale = 1 / Double(length)
        let (channels, packedCount) = (channels, packedCount)
        blocks.withUnsafeMutableBufferPointer { blocks in
            for block in 0..<count {
                let row = blocks.baseAddress! + block * packedCount
                row.update(repeating: 0, count: packedCount)
                for frame in (block * length)..<((block + 1) * length) {
                    let x = base + frame * channels
                    var p = 0
                    for j in 0..<channels {
                        let xj = x[j]
                        for i in 0...j {
                            row[p] += x[i] * xj
                            p += 1
                        }
                    }
                }
                for p in 0..<packedCount { row[p] *= scale }
            }
        }
        return count
    }

    /// Per component, the RMS of its activations over each calibration window (component-major in ``rms``);
    /// returns the number of windows.
    private func fillWindowRMS(_ base: UnsafePointer<Double>, frames: Int) -> Int {
        let (channels, directions) = (channels, directionOffset)
        results.withUnsafeBufferPointer { results in
            let v = results.baseAddress! + directions
            for frame in 0..<frames {
                let x = base + frame * channels
                for component in 0..<channels {
                    var y = 0.0
                    for channel in 0..<channels { y += v[channel + component * channels] * x[channel] }
                    energies[frame * channels + component] = y * y
                }
            }
        }
        let length = configuration.windowLength
        let step = configuration.calibrationWindowStep
        let windows = (frames - length) / step + 1
        for w in 0..<windows {
            for component in 0..<channels {
                var sum = 0.0
                for frame in (w * step)..<(w * step + length) { sum += energies[frame * channels + component] }
                rms[component * windowCapacity + w] = (sum / Double(length)).squareRoot()
            }
        }
        return windows
    }

    /// Expands a packed upper triangle into a full symmetric column-major matrix.
    private func unpack(_ packed: borrowing OwnedBuffer<Double>, into full: borrowing OwnedBuffer<Double>) {
        var p = 0
        for j in 0..<channels {
            for i in 0...j {
                full[i + j * channels] = packed[p]
                full[j + i * channels] = packed[p]
                p += 1
            }
        }
    }
}

/// `ASRCalibrator` owns scratch memory that every call overwrites: it is never `Sendable`.
@available(*, unavailable)
extension ASRCalibrator: Sendable {}
