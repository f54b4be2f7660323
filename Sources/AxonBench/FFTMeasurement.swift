// AxonBench — one real-to-complex FFT of an analysis window.

import AxonDSP

/// Times FFTW's r2c transform of one analysis window (256 points for a 250 Hz device) with the plan the engine
/// uses (FFTW_MEASURE, made before timing), and counts its allocations.
///
/// Threading: use on one thread.
public enum FFTMeasurement {
    /// The measured figures.
    public struct Result: Sendable, Hashable {
        /// Points per transform.
        public var size: Int
        /// Median nanoseconds per transform.
        public var nanoseconds: Double
        /// Heap allocations per transform in the steady state (`nil` when counting is off).
        public var allocations: Double?
    }

    /// Plans, then times transforms within `timing`'s budget.
    public static func run(_ workload: BenchWorkload, timing: RepeatedTiming) throws(BenchError) -> Result {
        let fft: RealFFT
        do { fft = try RealFFT(size: workload.windowSize, rigor: .measure) } catch {
            throw .setupFailed("FFT plan of \(workload.windowSize) points", cause: error)
        }
        let signal = BenchSignal(workload)
        for index in 0..<fft.size { fft.input[index] = signal.values[index * workload.channels] }
        fft.execute()
        let timed = timing.measure { count in
            for _ in 0..<count { fft.execute() }
        }
        let allocations = AllocationCounter.perUnit(10_000) {
            for _ in 0..<10_000 { fft.execute() }
        }
        return Result(size: fft.size, nanoseconds: timed.medianNanoseconds, allocations: allocations)
    }
}
