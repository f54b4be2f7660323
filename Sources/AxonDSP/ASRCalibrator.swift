// AxonDSP — ASR calibration on clean data: robust covariance, its square root, per-component thresholds.

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
/// The results stay in the calibrator's own memory (``mixing``, ``thresholdMatrix`` …) until the next call;
/// ``makeCalibration()`` copies them into a ``ASRCalibration`` value.
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
    let blocks: UnsafeMutablePointer<Double>
    let blockCapacity: Int
    /// Geometric-median iterate and the Weiszfeld numerator (packed).
    let median: UnsafeMutablePointer<Double>
    let numerator: UnsafeMutablePointer<Double>
    /// Per packed entry, how many entries of the full matrix it stands for (1 on the diagonal, 2 off it).
    let packedWeights: UnsafeMutablePointer<Double>
    /// Squared component activations, frame-major (`capacity × channels`).
    private let energies: UnsafeMutablePointer<Double>
    /// Window RMS values per component (`windowCapacity × channels`, component-major) and selection scratch.
    private let rms: UnsafeMutablePointer<Double>
    private let windowCapacity: Int
    let scratch: UnsafeMutablePointer<Double>
    /// The full covariance matrix before it is accepted (column-major, `channels²`).
    private let matrix: UnsafeMutablePointer<Double>

    private let covarianceStorage: UnsafeMutablePointer<Double>
    private let mixingStorage: UnsafeMutablePointer<Double>
    private let directionStorage: UnsafeMutablePointer<Double>
    private let thresholdStorage: UnsafeMutablePointer<Double>
    private let thresholdMatrixStorage: UnsafeMutablePointer<Double>

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
        blocks = .allocate(capacity: blockCapacity * packedCount)
        blocks.initialize(repeating: 0, count: blockCapacity * packedCount)
        median = .allocate(capacity: packedCount)
        median.initialize(repeating: 0, count: packedCount)
        numerator = .allocate(capacity: packedCount)
        numerator.initialize(repeating: 0, count: packedCount)
        packedWeights = .allocate(capacity: packedCount)
        var p = 0
        for j in 0..<c {
            for i in 0...j {
                (packedWeights + p).initialize(to: i == j ? 1 : 2)
                p += 1
            }
        }
        energies = .allocate(capacity: capacity * c)
        energies.initialize(repeating: 0, count: capacity * c)
        windowCapacity = (capacity - configuration.windowLength) / configuration.calibrationWindowStep + 1
        rms = .allocate(capacity: windowCapacity * c)
        rms.initialize(repeating: 0, count: windowCapacity * c)
        scratch = .allocate(capacity: max(windowCapacity, blockCapacity))
        scratch.initialize(repeating: 0, count: max(windowCapacity, blockCapacity))
        matrix = .allocate(capacity: c * c)
        covarianceStorage = .allocate(capacity: c * c)
        mixingStorage = .allocate(capacity: c * c)
        directionStorage = .allocate(capacity: c * c)
        thresholdMatrixStorage = .allocate(capacity: c * c)
        thresholdStorage = .allocate(capacity: c)
        for storage in [matrix, covarianceStorage, mixingStorage, directionStorage, thresholdMatrixStorage] {
            storage.initialize(repeating: 0, count: c * c)
        }
        thresholdStorage.initialize(repeating: 0, count: c)
    }

    deinit {
        blocks.deallocate()
        median.deallocate()
        numerator.deallocate()
        packedWeights.deallocate()
        energies.deallocate()
        rms.deallocate()
        scratch.deallocate()
        matrix.deallocate()
        covarianceStorage.deallocate()
        mixingStorage.deallocate()
        directionStorage.deallocate()
        thresholdMatrixStorage.deallocate()
        thresholdStorage.deallocate()
    }

    /// The robust covariance `C` (column-major, `channels²`), in the data's unit squared.
    public var covariance: UnsafeBufferPointer<Double> { buffer(covarianceStorage, channels * channels) }
    /// The mixing matrix `M = C^½` (column-major, `channels²`).
    public var mixing: UnsafeBufferPointer<Double> { buffer(mixingStorage, channels * channels) }
    /// The eigenvectors `V` of `C` (column-major: column `c` is component `c`, by ascending variance).
    public var componentDirections: UnsafeBufferPointer<Double> { buffer(directionStorage, channels * channels) }
    /// The RMS threshold `τ_c` of each component, in the data's unit.
    public var componentThresholds: UnsafeBufferPointer<Double> { buffer(thresholdStorage, channels) }
    /// The threshold operator `T = diag(τ) · Vᵀ` (column-major, `channels²`).
    public var thresholdMatrix: UnsafeBufferPointer<Double> { buffer(thresholdMatrixStorage, channels * channels) }

    private func buffer(_ pointer: UnsafeMutablePointer<Double>, _ count: Int) -> UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(start: pointer, count: count)
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
        try eigensolver.squareRoot(of: matrix, into: mixingStorage)
        covarianceStorage.update(from: matrix, count: channels * channels)
        directionStorage.update(from: eigensolver.eigenvectors.baseAddress!, count: channels * channels)

        // 3. Component RMS per window, then τ = median + cutoff · 1.4826 · MAD per component.
        let windows = fillWindowRMS(base, frames: frames)
        for component in 0..<channels {
            let values = rms + component * windowCapacity
            scratch.update(from: values, count: windows)
            let centre = Self.median(scratch, count: windows)
            for w in 0..<windows { scratch[w] = abs(values[w] - centre) }
            let spread = 1.4826 * Self.median(scratch, count: windows)
            thresholdStorage[component] = centre + configuration.cutoff * spread
        }
        for column in 0..<channels {
            for row in 0..<channels {
                thresholdMatrixStorage[row + column * channels] =
                    thresholdStorage[row] * directionStorage[column + row * channels]
            }
        }
        frameCount = frames
    }

    /// Copies the last results into a value (allocates; not for the real-time path).
    ///
    /// - Precondition: a successful ``calibrate(_:)``.
    public func makeCalibration() -> ASRCalibration {
        precondition(frameCount > 0, "makeCalibration() needs a successful calibrate(_:) first")
        return ASRCalibration(
            channelCount: channels, frameCount: frameCount, covariance: Array(covariance), mixing: Array(mixing),
            componentDirections: Array(componentDirections), componentThresholds: Array(componentThresholds),
            thresholdMatrix: Array(thresholdMatrix))
    }

    /// The mean outer product of each whole block of frames, packed; returns the number of blocks.
    private func fillBlockCovariances(_ base: UnsafePointer<Double>, frames: Int) -> Int {
        let length = configuration.covarianceBlockLength
        let count = frames / length
        let scale = 1 / Double(length)
        for block in 0..<count {
            let row = blocks + block * packedCount
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
        return count
    }

    /// Per component, the RMS of its activations over each calibration window (component-major in ``rms``);
    /// returns the number of windows.
    private func fillWindowRMS(_ base: UnsafePointer<Double>, frames: Int) -> Int {
        let v = directionStorage
        for frame in 0..<frames {
            let x = base + frame * channels
            for component in 0..<channels {
                var y = 0.0
                for channel in 0..<channels { y += v[channel + component * channels] * x[channel] }
                energies[frame * channels + component] = y * y
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
    private func unpack(_ packed: UnsafePointer<Double>, into full: UnsafeMutablePointer<Double>) {
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
