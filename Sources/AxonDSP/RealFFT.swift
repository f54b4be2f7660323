// AxonDSP — a reusable, allocation-free real-to-complex FFT over FFTW (double precision).

import CFFTW

/// A real-to-complex discrete Fourier transform of a fixed size, planned once and executed many times.
///
/// The transform computes, for the `size` real samples `x[n]` in ``input``, the `size / 2 + 1` non-redundant
/// complex bins `X[k] = Σₙ x[n]·e^(−2πi·k·n/size)` (unnormalised, FFTW's sign convention) into ``output``.
///
/// Cost model:
/// - ``init(size:rigor:)`` is the expensive part: it allocates two aligned buffers and asks FFTW for a plan,
///   which takes about 1 ms with ``PlannerRigor/estimate`` and about 60 ms with ``PlannerRigor/measure`` for 256
///   points. Create instances at start-up, never on a real-time thread.
/// - ``execute()`` and ``transform(_:)-(UnsafeBufferPointer<Double>)`` reuse the plan and the buffers: no
///   allocation, no lock, O(size·log size) — about 0.25–0.4 µs for 256 points.
///
/// Input is always transformed from the plan's own 64-byte-aligned buffer; caller memory, whose alignment is
/// unknown, is copied in first (FFTW's SIMD codelets are chosen for the alignment seen at planning time).
///
/// Threading: a single-owner type. One thread at a time may use an instance; it is deliberately not `Sendable`.
/// Different instances may execute concurrently on different threads. Creating and destroying instances is safe
/// from any thread: planner calls are serialized process-wide by an internal lock.
///
///     let fft = try RealFFT(size: 256, rigor: .estimate)
///     try fft.transform(samples)          // samples.count == 256
///     let (re, im) = fft.output[10]       // bin 10, at 10 · fs / 256 Hz
public final class RealFFT {
    /// How hard FFTW searches for a fast algorithm when planning.
    ///
    /// Threading: a plain value, `Sendable`.
    public enum PlannerRigor: String, Sendable, CaseIterable {
        /// `FFTW_ESTIMATE`: a heuristic plan in about a millisecond; transforms are ~1.5× slower. Use in tests.
        case estimate
        /// `FFTW_MEASURE`: times candidate algorithms (~60 ms for 256 points) for the fastest transform.
        case measure

        /// The FFTW planner flag for this rigor.
        var flags: UInt32 {
            switch self {
            case .estimate: return UInt32(FFTW_ESTIMATE)
            case .measure: return UInt32(FFTW_MEASURE)
            }
        }
    }

    /// Number of real input samples per transform.
    public let size: Int
    /// Number of complex output bins, `size / 2 + 1` (DC through Nyquist, or the last bin below it for odd sizes).
    public let binCount: Int
    /// The planner rigor this instance was planned with.
    public let rigor: PlannerRigor

    private let inputPointer: UnsafeMutablePointer<Double>
    private let outputPointer: UnsafeMutablePointer<fftw_complex>
    private let plan: fftw_plan

    /// Plans a real-to-complex transform of `size` points and allocates its aligned buffers.
    ///
    /// - Parameters:
    ///   - size: the transform length, at least 2. Any size works; sizes with small prime factors are fastest.
    ///   - rigor: ``PlannerRigor/measure`` (default) for the fastest transforms, ``PlannerRigor/estimate`` for
    ///     fast start-up (tests).
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` for `size < 2` or beyond `Int32`,
    ///   ``DSPError/allocationFailed(elements:)`` if FFTW cannot allocate, ``DSPError/plannerFailed(size:)`` if
    ///   FFTW returns a null plan.
    /// - Complexity: one FFTW planning run (see the type's cost model) plus two allocations. Takes the
    ///   process-wide planner lock.
    public init(size: Int, rigor: PlannerRigor = .measure) throws(DSPError) {
        guard size >= 2, size <= Int(Int32.max) else { throw .invalidSize(size: size, minimum: 2) }
        let bins = size / 2 + 1
        guard let input = fftw_alloc_real(size) else { throw .allocationFailed(elements: size) }
        guard let output = fftw_alloc_complex(bins) else {
            fftw_free(input)
            throw .allocationFailed(elements: bins)
        }
        guard
            let created = FFTWPlanner.planRealToComplex(
                size: Int32(size), input: input, output: output, flags: rigor.flags)
        else {
            fftw_free(output)
            fftw_free(input)
            throw .plannerFailed(size: size)
        }
        // FFTW_MEASURE scribbles on both arrays while planning: start from a clean state.
        input.initialize(repeating: 0, count: size)
        output.initialize(repeating: (0, 0), count: bins)
        self.size = size
        self.binCount = bins
        self.rigor = rigor
        self.inputPointer = input
        self.outputPointer = output
        self.plan = created
    }

    deinit {
        FFTWPlanner.destroy(plan)
        fftw_free(outputPointer)
        fftw_free(inputPointer)
    }

    /// The plan's own aligned input buffer of ``size`` samples. Fill it (or process it in place) and call
    /// ``execute()``. Valid for the lifetime of this instance; do not let it escape to other threads.
    public var input: UnsafeMutableBufferPointer<Double> {
        UnsafeMutableBufferPointer(start: inputPointer, count: size)
    }

    /// The ``binCount`` complex bins `(real, imaginary)` of the last transform. Bin `k` is at `k · fs / size` Hz.
    /// Valid until the next transform; do not let it escape to other threads.
    public var output: UnsafeBufferPointer<(Double, Double)> {
        UnsafeBufferPointer(start: outputPointer, count: binCount)
    }

    /// Transforms the current contents of ``input`` into ``output``.
    ///
    /// The input buffer is preserved (out-of-place real-to-complex transforms do not destroy their input).
    /// - Complexity: O(size·log size); no allocation, no lock.
    public func execute() {
        fftw_execute(plan)
    }

    /// Copies `samples` into the aligned ``input`` buffer without transforming them, so that they can be
    /// processed in place (detrended, windowed) before ``execute()``.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `samples.count == size`.
    /// - Complexity: O(size); no allocation.
    public func load(_ samples: UnsafeBufferPointer<Double>) throws(DSPError) {
        guard samples.count == size, let source = samples.baseAddress else {
            throw .lengthMismatch(expected: size, actual: samples.count)
        }
        inputPointer.update(from: source, count: size)
    }

    /// Copies `samples` into the aligned ``input`` buffer and transforms them into ``output``.
    ///
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `samples.count == size`.
    /// - Complexity: O(size·log size); no allocation, no lock.
    public func transform(_ samples: UnsafeBufferPointer<Double>) throws(DSPError) {
        try load(samples)
        fftw_execute(plan)
    }

    /// Copies `samples` into the aligned ``input`` buffer and transforms them into ``output``.
    ///
    /// A convenience over ``transform(_:)-(UnsafeBufferPointer<Double>)``; it does not allocate either.
    /// - Throws: ``DSPError/lengthMismatch(expected:actual:)`` unless `samples.count == size`.
    public func transform(_ samples: [Double]) throws(DSPError) {
        try samples.withUnsafeBufferPointer { (buffer) throws(DSPError) in try transform(buffer) }
    }
}

/// `RealFFT` owns raw buffers and an FFTW plan that one thread at a time may execute: it is never `Sendable`.
@available(*, unavailable)
extension RealFFT: Sendable {}
