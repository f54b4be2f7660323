// AxonDSP — the one place that calls FFTW's planner, behind a process-wide lock.

import CFFTW
import Synchronization

/// Serializes FFTW planner calls process-wide.
///
/// FFTW documents that only `fftw_execute*` is thread-safe: `fftw_plan_*` and `fftw_destroy_plan` touch the
/// planner's global state (wisdom, codelet tables) and must never run concurrently, from any thread, for any
/// size. Every plan creation and destruction in AxonDSP goes through this type. The lock is a `Mutex` held in a
/// static `let` because Swift 6 forbids mutable globals holding C handles; plans never leave the closure through
/// the lock's `sending` result but through a captured local (see swift-stack.md, gotcha 9).
enum FFTWPlanner {
    /// The process-wide planner lock. Held only for the duration of one FFTW planner call.
    private static let lock = Mutex<Void>(())

    /// Plans an out-of-place real-to-complex transform of `size` points from `input` to `output`.
    ///
    /// With `FFTW_MEASURE` the planner overwrites both arrays while it times candidate algorithms, so callers must
    /// fill the input after planning. Returns `nil` when FFTW cannot make the plan.
    /// - Complexity: FFTW_ESTIMATE ≈ 1 ms, FFTW_MEASURE ≈ 60 ms for 256 points on this machine class; never call
    ///   it from a real-time thread.
    static func planRealToComplex(
        size: Int32,
        input: UnsafeMutablePointer<Double>,
        output: UnsafeMutablePointer<fftw_complex>,
        flags: UInt32
    ) -> fftw_plan? {
        var created: fftw_plan? = nil
        lock.withLock { _ in
            created = fftw_plan_dft_r2c_1d(size, input, output, flags)
        }
        return created
    }

    /// Destroys `plan` under the planner lock.
    static func destroy(_ plan: fftw_plan) {
        lock.withLock { _ in
            fftw_destroy_plan(plan)
        }
    }
}
