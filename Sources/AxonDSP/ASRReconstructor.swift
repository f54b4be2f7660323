// AxonDSP — ASR's sliding-window reconstruction: drop the components above threshold, rebuild the channels.

import AxonMemory

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cleans a multichannel stream with artifact subspace reconstruction, frame by frame, in place, with a fixed
/// delay and without allocating.
///
/// Every ``ASRConfiguration/stepLength`` frames it takes the covariance `Cw` of the last
/// ``ASRConfiguration/windowLength`` frames and its eigen-decomposition `Cw = V·D·Vᵀ` (LAPACK `dsyevr`). Component
/// `i` (eigenvector `vᵢ`, variance `dᵢ`) is an artifact when `dᵢ > ‖T·vᵢ‖²` — its variance exceeds the calibrated
/// RMS limit along that direction squared — unless it is among the weakest components that are always kept
/// (``ASRConfiguration/maxRemovedComponents``). With `K` the diagonal 0/1 matrix of kept components, the
/// reconstruction matrix is `R = M · (K·Vᵀ·M)⁺ · Vᵀ` (pseudo-inverse by LAPACK `dgesvd`): the kept components are
/// passed through, and the removed ones are replaced by their least-squares estimate from the kept ones under the
/// clean data's mixing `M`. When nothing is removed, `R` is the identity and the samples pass unchanged.
///
/// The samples a matrix applies to lie ``ASRConfiguration/lookahead`` frames behind the window's end (by default
/// the window is centred on them). Across each step the previous and the new matrix are blended with a raised
/// cosine, `y = w·R_new·x + (1 − w)·R_old·x` with `w` rising from 0 to 1, so the output has no discontinuities.
/// Hence a fixed delay: the value written into frame `n` is the cleaned value of input frame `n − delay`
/// (``delay``, `lookahead + stepLength − 1`); the first ``delay`` frames after init or ``reset()`` are zero.
///
/// Until a calibration is loaded the matrix is the identity: data passes through, delayed. A *segment* starts at
/// init, ``reset()`` and ``restart()``; no window reaches back before its segment's start, and until a segment holds
/// half a window (the look-ahead, by default) the matrix is the identity, then the covariance is taken over the
/// frames the segment has until it holds a full window — with the default look-ahead, the segment's first frames
/// are thus already repaired. ``restart()`` marks a break in the data (a gap): the frames still pending are
/// finished with a matrix from the window that ends at the break.
///
/// A LAPACK failure in an update keeps the previous matrix; it is counted in ``failureCount`` and kept in
/// ``lastFailure``. Non-finite input is not repaired (the matrix update in whose window it falls fails with
/// ``DSPError/nonFiniteData(count:)``); high-pass with ``HighPassFilter``, which holds such values, first.
///
/// Memory: everything — the input and output rings (a power of two above `max(window, lookahead + step) + step`
/// frames), the matrices, the LAPACK workspaces — is allocated at init, in ``AxonMemory/OwnedBuffer``s freed with the
/// reconstructor. ``process(_:frameCount:stride:)`` does not
/// allocate or lock.
///
/// Threading: a single-owner type (it owns mutable state); one thread at a time. Not `Sendable`.
///
///     let asr = try ASRReconstructor(configuration: configuration, calibration: calibration)
///     asr.process(values, frameCount: 256, stride: 8)   // 256 frames of 8 channels, cleaned and delayed in place
/// - Complexity: per step, O(window · channels²) for the covariance and O(channels³) for the eigen-problem,
///   pseudo-inverse and products; per frame, O(channels²) while a repair is active, a copy otherwise.
public final class ASRReconstructor {
    /// The parameters.
    public let configuration: ASRConfiguration
    /// Whether a calibration is loaded.
    public private(set) var isCalibrated = false
    /// Frames processed since init or ``reset()``.
    public private(set) var frameCount = 0
    /// Reconstruction matrices computed from the data (a calibration loaded, at least half a window in the
    /// segment).
    public private(set) var updateCount = 0
    /// Updates that removed at least one component.
    public private(set) var repairCount = 0
    /// Components removed by the last update.
    public private(set) var lastRemovedCount = 0
    /// Components removed, summed over all updates.
    public private(set) var removedComponentTotal = 0
    /// Updates that failed (the previous matrix was kept).
    public private(set) var failureCount = 0
    /// The error of the last failed update.
    public private(set) var lastFailure: DSPError?

    /// The fixed delay in frames: frame `n` receives the cleaned value of input frame `n − delay`.
    public var delay: Int { configuration.delay }

    private let channels: Int
    private let window: Int
    private let step: Int
    private let lookahead: Int
    private let keptAlways: Int
    private let mask: Int
    /// Every real the reconstructor keeps, one after another: the input and output rings (`ring × channels` each),
    /// the blend weights (`step`) and the matrices (`channels²` each, `Matrix`); `withPointers(_:)` lends them.
    private let reals: OwnedBuffer<Double>
    private let keep: OwnedBuffer<Bool>
    /// Which of the two reconstruction matrices is the previous one and which the current one: a step swaps them.
    private var previousMatrix = Matrix.first
    private var currentMatrix = Matrix.second

    /// The matrices in `reals`, in order after the rings and the blend weights.
    private enum Matrix: Int, CaseIterable {
        case mixing, thresholds, covariance, projected, reduced, inverse, product, first, second
    }

    /// Pointers into `reals` for the length of one `withPointers(_:)` call.
    private struct Pointers {
        let input, output, blend: UnsafeMutablePointer<Double>
        let mixing, thresholds, covariance, projected, reduced, inverse, product: UnsafeMutablePointer<Double>
        let previous, current: UnsafeMutablePointer<Double>
    }
    private var previousIsIdentity = true
    private var currentIsIdentity = true
    private let eigensolver: SymmetricEigensolver
    private let pseudoInverse: PseudoInverse
    private var segmentStart = 0
    private var lastReconstructed = -1
    private var phase = 0

    /// Prepares a reconstructor, optionally with its calibration.
    ///
    /// - Throws: the errors of ``ASRConfiguration/validate()``; ``DSPError/lapackFailed(routine:info:)`` from the
    ///   LAPACK workspace queries; the errors of ``load(_:)``.
    /// - Complexity: O(ring · channels + channels²) memory, allocated here once.
    public init(configuration: ASRConfiguration, calibration: ASRCalibration? = nil) throws(DSPError) {
        try configuration.validate()
        let c = configuration.channelCount
        self.configuration = configuration
        channels = c
        window = configuration.windowLength
        step = configuration.stepLength
        lookahead = configuration.lookahead
        keptAlways = c - configuration.maxRemovedComponents
        var ring = 1
        while ring <= max(window, lookahead + step) + step + 1 { ring <<= 1 }
        mask = ring - 1
        eigensolver = try SymmetricEigensolver(order: c)
        pseudoInverse = try PseudoInverse(order: c)
        reals = OwnedBuffer(repeating: 0, count: 2 * ring * c + step + Matrix.allCases.count * c * c)
        keep = OwnedBuffer(repeating: true, count: c)
        withPointers { p in
            for k in 0..<step { p.blend[k] = (1 - cos(Double.pi * Double(k + 1) / Double(step))) / 2 }
            Self.setIdentity(p.previous, order: c)
            Self.setIdentity(p.current, order: c)
        }
        if let calibration { try load(calibration) }
    }

    /// Calls `body` with pointers to the rings, the blend weights and the matrices, valid only inside `body`.
    @inline(__always)
    private func withPointers<Result, Failure: Error>(_ body: (Pointers) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let (c, ring, step) = (channels, mask + 1, step)
        let (previous, current) = (previousMatrix, currentMatrix)
        return try reals.withUnsafeMutableBufferPointer { (reals) throws(Failure) in
            let base = reals.baseAddress!
            let matrices = base + 2 * ring * c + step
            func matrix(_ which: Matrix) -> UnsafeMutablePointer<Double> { matrices + which.rawValue * c * c }
            return try body(
                Pointers(
                    input: base, output: base + ring * c, blend: base + 2 * ring * c, mixing: matrix(.mixing),
                    thresholds: matrix(.thresholds), covariance: matrix(.covariance), projected: matrix(.projected),
                    reduced: matrix(.reduced), inverse: matrix(.inverse), product: matrix(.product),
                    previous: matrix(previous), current: matrix(current)))
        }
    }

    /// Loads a calibration; updates from the next step on use it. Copies into memory allocated at init.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` if its channel count differs;
    ///   ``DSPError/nonFiniteData(count:)`` if a matrix entry is NaN or infinite.
    /// - Complexity: O(channels²); no allocation.
    public func load(_ calibration: ASRCalibration) throws(DSPError) {
        guard calibration.channelCount == channels else {
            throw .lengthMismatch(expected: channels, actual: calibration.channelCount)
        }
        try calibration.mixing.withUnsafeBufferPointer { (mixing) throws(DSPError) in
            try calibration.thresholdMatrix.withUnsafeBufferPointer { (thresholds) throws(DSPError) in
                try load(mixing: mixing, thresholdMatrix: thresholds)
            }
        }
    }

    /// Loads a calibration given as its mixing matrix `M` and threshold operator `T` (column-major,
    /// `channels²` values each), for instance straight from an ``ASRCalibrator``.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` if a matrix has the wrong size;
    ///   ``DSPError/nonFiniteData(count:)`` if an entry is NaN or infinite.
    /// - Complexity: O(channels²); no allocation.
    public func load(mixing: UnsafeBufferPointer<Double>, thresholdMatrix: UnsafeBufferPointer<Double>)
        throws(DSPError)
    {
        let square = channels * channels
        guard mixing.count == square, let m = mixing.baseAddress else {
            throw .lengthMismatch(expected: square, actual: mixing.count)
        }
        guard thresholdMatrix.count == square, let t = thresholdMatrix.baseAddress else {
            throw .lengthMismatch(expected: square, actual: thresholdMatrix.count)
        }
        var nonFinite = 0
        for i in 0..<square where !m[i].isFinite || !t[i].isFinite { nonFinite += 1 }
        guard nonFinite == 0 else { throw .nonFiniteData(count: nonFinite) }
        withPointers { p in
            p.mixing.update(from: m, count: square)
            p.thresholds.update(from: t, count: square)
        }
        isCalibrated = true
    }

    /// Cleans `frameCount` frames in place: frame `f`'s channel values are `values[f · stride ..< f · stride +
    /// channels]` and are replaced by the cleaned values of the frame ``delay`` frames earlier.
    ///
    /// - Precondition: `stride ≥ channels`.
    /// - Complexity: see the type; no allocation, no lock.
    public func process(_ values: UnsafeMutablePointer<Double>, frameCount count: Int, stride: Int) {
        withPointers { p in
            precondition(stride >= channels, "stride must cover the channels")
            let delay = configuration.delay
            for f in 0..<count {
                let frame = values + f * stride
                let n = frameCount
                (p.input + (n & mask) * channels).update(from: frame, count: channels)
                phase += 1
                if phase == step {
                    phase = 0
                    finishStep(at: n)
                }
                let m = n - delay
                if m >= 0 {
                    frame.update(from: p.output + (m & mask) * channels, count: channels)
                } else {
                    frame.update(repeating: 0, count: channels)
                }
                frameCount = n + 1
            }
        }
    }

    /// Marks a break in the data before the next frame (a gap): the frames still pending are finished with a
    /// matrix from the window that ends at the break, and a new segment starts, whose windows begin after the
    /// break. The delay line keeps running, so no frame is lost and the delay stays fixed.
    ///
    /// - Complexity: one update and up to ``delay`` frame reconstructions; no allocation.
    public func restart() {
        let last = frameCount - 1
        if last > lastReconstructed {
            update(windowEnd: last)
            reconstruct(through: last)
            swap(&previousMatrix, &currentMatrix)
            previousIsIdentity = currentIsIdentity
        }
        segmentStart = frameCount
        phase = 0
        withPointers { p in Self.setIdentity(p.previous, order: channels) }
        previousIsIdentity = true
    }

    /// Forgets the stream: empty delay line (the next ``delay`` frames out are zero), identity matrices, counters
    /// of frames and updates at zero. The calibration stays loaded.
    public func reset() {
        withPointers { p in
            let ring = mask + 1
            p.input.update(repeating: 0, count: ring * channels)
            p.output.update(repeating: 0, count: ring * channels)
            Self.setIdentity(p.previous, order: channels)
            Self.setIdentity(p.current, order: channels)
            previousIsIdentity = true
            currentIsIdentity = true
            frameCount = 0
            segmentStart = 0
            lastReconstructed = -1
            phase = 0
            updateCount = 0
            repairCount = 0
            lastRemovedCount = 0
            removedComponentTotal = 0
            failureCount = 0
            lastFailure = nil
        }
    }

    /// The end of a step at input frame `end`: a new matrix, then the frames up to `end − lookahead` rebuilt.
    private func finishStep(at end: Int) {
        update(windowEnd: end)
        reconstruct(through: end - lookahead)
        swap(&previousMatrix, &currentMatrix)
        previousIsIdentity = currentIsIdentity
    }

    /// Sets `current` from the window ending at input frame `end` (identity without a calibration or with less
    /// than half a window in the segment; the previous matrix if the update fails).
    private func update(windowEnd end: Int) {
        withPointers { p in
            guard isCalibrated, end - segmentStart + 1 >= max(1, window / 2) else {
                Self.setIdentity(p.current, order: channels)
                currentIsIdentity = true
                return
            }
            do throws(DSPError) {
                try computeReconstruction(windowEnd: end)
            } catch {
                failureCount += 1
                lastFailure = error
                p.current.update(from: p.previous, count: channels * channels)
                currentIsIdentity = previousIsIdentity
            }
        }
    }

    /// `R = M · (K·Vᵀ·M)⁺ · Vᵀ` for the window ending at input frame `end` (or starting at the segment's start,
    /// if that is later), into `current`.
    private func computeReconstruction(windowEnd end: Int) throws(DSPError) {
        try withPointers { (p) throws(DSPError) in
            let c = channels
            let first = max(end - window + 1, segmentStart)
            // Upper triangle of the window's mean outer product (the data is zero-mean).
            p.covariance.update(repeating: 0, count: c * c)
            for m in first...end {
                let x = p.input + (m & mask) * c
                for j in 0..<c {
                    let xj = x[j]
                    let column = p.covariance + j * c
                    for i in 0...j { column[i] += x[i] * xj }
                }
            }
            let scale = 1 / Double(end - first + 1)
            var finite = true
            for j in 0..<c {
                for i in 0...j {
                    p.covariance[i + j * c] *= scale
                    finite = finite && p.covariance[i + j * c].isFinite
                }
            }
            guard finite else { throw .nonFiniteData(count: nonFiniteCount(from: first, through: end)) }
            try eigensolver.decompose(p.covariance)
            try eigensolver.withDecomposition { (values, vectors) throws(DSPError) in
                try finishReconstruction(p, eigenvalues: values, eigenvectors: vectors)
            }
        }
    }

    /// The second half of ``computeReconstruction(windowEnd:)``: from the window's eigen-decomposition to the new
    /// reconstruction matrix in `current`.
    private func finishReconstruction(
        _ p: Pointers, eigenvalues values: UnsafeBufferPointer<Double>, eigenvectors: UnsafeBufferPointer<Double>
    ) throws(DSPError) {
        let c = channels
        let vectors = eigenvectors.baseAddress!
        // T·V: column i holds T·vᵢ, whose squared norm is the variance limit along vᵢ.
        Self.multiply(p.thresholds, vectors, into: p.projected, order: c)
        var removed = 0
        for i in 0..<c {
            var limit = 0.0
            for r in 0..<c { limit += p.projected[r + i * c] * p.projected[r + i * c] }
            keep[i] = i < keptAlways || values[i] < limit
            if !keep[i] { removed += 1 }
        }
        updateCount += 1
        lastRemovedCount = removed
        guard removed > 0 else {
            Self.setIdentity(p.current, order: c)
            currentIsIdentity = true
            return
        }
        repairCount += 1
        removedComponentTotal += removed
        // K·Vᵀ·M: row i is vᵢᵀ·M for a kept component, zero for a removed one.
        for j in 0..<c {
            for i in 0..<c {
                var sum = 0.0
                if keep[i] { for k in 0..<c { sum += vectors[k + i * c] * p.mixing[k + j * c] } }
                p.reduced[i + j * c] = sum
            }
        }
        try pseudoInverse.compute(p.reduced, into: p.inverse)
        Self.multiply(p.mixing, p.inverse, into: p.product, order: c)
        // R = (M·(K·Vᵀ·M)⁺)·Vᵀ.
        for j in 0..<c {
            for i in 0..<c {
                var sum = 0.0
                for k in 0..<c { sum += p.product[i + k * c] * vectors[j + k * c] }
                p.current[i + j * c] = sum
            }
        }
        currentIsIdentity = false
    }

    /// Writes the output for input frames `lastReconstructed + 1 ... last`, blending `previous` into `current`.
    private func reconstruct(through last: Int) {
        withPointers { p in
            guard last > lastReconstructed else { return }
            let c = channels
            let count = last - lastReconstructed
            let trivial = previousIsIdentity && currentIsIdentity
            for k in 1...count {
                let m = lastReconstructed + k
                let x = p.input + (m & mask) * c
                let y = p.output + (m & mask) * c
                if trivial {
                    y.update(from: x, count: c)
                    continue
                }
                let w = count == step ? p.blend[k - 1] : (1 - cos(Double.pi * Double(k) / Double(count))) / 2
                for i in 0..<c {
                    var new = 0.0
                    var old = 0.0
                    for j in 0..<c {
                        new += p.current[i + j * c] * x[j]
                        old += p.previous[i + j * c] * x[j]
                    }
                    y[i] = w * new + (1 - w) * old
                }
            }
            lastReconstructed = last
        }
    }

    /// NaN or infinite input values in frames `first...last` (only counted on the failure path).
    private func nonFiniteCount(from first: Int, through last: Int) -> Int {
        withPointers { p -> Int in
            var count = 0
            for m in first...last {
                let x = p.input + (m & mask) * channels
                for i in 0..<channels where !x[i].isFinite { count += 1 }
            }
            return count
        }
    }

    /// `result = a · b` for column-major `order × order` matrices.
    private static func multiply(
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, into result: UnsafeMutablePointer<Double>, order n: Int
    ) {
        for j in 0..<n {
            for i in 0..<n {
                var sum = 0.0
                for k in 0..<n { sum += a[i + k * n] * b[k + j * n] }
                result[i + j * n] = sum
            }
        }
    }

    private static func setIdentity(_ matrix: UnsafeMutablePointer<Double>, order n: Int) {
        matrix.update(repeating: 0, count: n * n)
        for i in 0..<n { matrix[i + i * n] = 1 }
    }
}

/// `ASRReconstructor` owns the stream's state and scratch memory: it is never `Sendable`.
@available(*, unavailable)
extension ASRReconstructor: Sendable {}
