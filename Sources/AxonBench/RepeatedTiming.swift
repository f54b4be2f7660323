// AxonBench — fixed-time measurement loops: calibrate a run length, repeat within a budget, keep the median.

import AxonStreams

/// Times a piece of work that can be run `n` units at a time, in repetitions that fill a time budget, and
/// reports the median time per unit.
///
/// The run length is calibrated first (doubling `n` until one run takes at least a fortieth of the budget, and
/// at least 0.2 ms), so that clock reads are a negligible part of a run; then runs repeat until the budget is
/// spent, with at least `minimumRepetitions` of them. The median of the per-unit times is robust to the
/// occasional run a noisy machine preempts.
///
/// Threading: a value used on one thread; `measure` runs `body` on the calling thread.
public struct RepeatedTiming: Sendable {
    /// Seconds the repetitions may take (calibration comes on top, at most about a tenth of it).
    public var budget: Double
    /// Repetitions made even when the budget is spent.
    public var minimumRepetitions: Int

    /// Creates a timing loop.
    public init(budget: Double, minimumRepetitions: Int = 5) {
        precondition(budget > 0 && minimumRepetitions >= 1)
        self.budget = budget
        self.minimumRepetitions = minimumRepetitions
    }

    /// The outcome: median nanoseconds per unit, the units per run and the runs made.
    public struct Result: Sendable, Hashable {
        /// Units of work per run after calibration.
        public var unitsPerRun: Int
        /// Nanoseconds per unit of every run after calibration, in the order timed (to pool with other rounds).
        public var nanosecondsPerRepetition: [Double]
        /// Median over the runs of (run time ÷ units per run), in nanoseconds.
        public var medianNanoseconds: Double { RepeatedTiming.median(nanosecondsPerRepetition) }
        /// Runs made after calibration.
        public var repetitions: Int { nanosecondsPerRepetition.count }
    }

    /// Measures `body(n)`, which must do `n` units of work.
    public func measure(_ body: (Int) -> Void) -> Result {
        let target = max(budget / 40, 0.0002)
        var units = 1
        while true {
            let seconds = Self.time(units, body)
            if seconds >= target || units >= 1 << 40 { break }
            // Grow towards the target in one or two steps once a run is long enough to be timed reliably.
            let factor = seconds > target / 64 ? Int((target / seconds).rounded(.up)) : 2
            units *= max(2, min(factor, 64))
        }
        var samples: [Double] = []
        samples.reserveCapacity(256)
        let end = HostClock.now() + budget
        repeat {
            samples.append(Self.time(units, body) / Double(units) * 1e9)
        } while samples.count < minimumRepetitions || (HostClock.now() < end && samples.count < 10_000)
        return Result(unitsPerRun: units, nanosecondsPerRepetition: samples)
    }

    /// The median of a non-empty list (the mean of the two middle values for an even count).
    public static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty)
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private static func time(_ units: Int, _ body: (Int) -> Void) -> Double {
        let start = HostClock.now()
        body(units)
        return HostClock.now() - start
    }
}
