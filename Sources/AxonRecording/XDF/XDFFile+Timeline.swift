/// One stream's samples on the recording's single timeline: clock resets found and bridged, regular streams
/// fitted per segment (their effective rate), and the pauses in them.
///
/// Built by ``XDFFile/Stream/timeline()``. Threading: a value type; share freely.
public struct XDFTimeline: Sendable, Equatable {
    /// A reset of the sending computer's clock: its timestamps jump (usually back) and its clock offsets jump with
    /// them.
    public struct ClockReset: Sendable, Equatable {
        /// The first sample stamped on the new clock.
        public var sample: Int
        /// The stored timestamp of the last sample before the reset.
        public var stampBefore: Double
        /// The stored timestamp of the first sample after it.
        public var stampAfter: Double
        /// That first sample's time on the timeline (the recording machine's clock).
        public var time: Double
        /// Whether the timeline goes on across the reset: false when its times still jump back there (no clock offset
        /// jumped with the stamps, or the file has none), and then the times after it are as stored.
        public var isBridged: Bool
    }

    /// A run of samples without a pause, fitted with one line (sample index → time).
    public struct Segment: Sendable, Equatable {
        /// The samples, by index.
        public var samples: Range<Int>
        /// Samples per second of the fitted line (0 for a single sample).
        public var effectiveRate: Double
    }

    /// A pause in a regular stream: more than ``pauseThreshold(nominalRate:)`` between two samples.
    public struct Pause: Sendable, Equatable {
        /// The first sample after the pause.
        public var beforeSample: Int
        /// The samples missing at the nominal rate (the time between the two samples × rate, rounded, − 1).
        public var missingCount: Int
        /// The fitted time of the last sample before the pause, on the timeline.
        public var from: Double
        /// The fitted time of the first sample after the pause, on the timeline.
        public var to: Double
    }

    /// Each sample's time on the recording machine's clock (clock offsets added, resets bridged), as stored apart
    /// from that; not dejittered.
    public var times: [Double]
    /// Clock resets, in sample order.
    public var resets: [ClockReset]
    /// Segments of a regular stream (one per run between pauses and pyxdf's breaks); empty for irregular streams.
    public var segments: [Segment]
    /// Pauses of a regular stream.
    public var pauses: [Pause]

    /// All samples over all segments' fitted time, as pyxdf computes `effective_srate`: Σ(count − 1) ÷ Σ duration;
    /// nil for an irregular stream or one without two samples in a segment.
    public var effectiveRate: Double? {
        var intervals = 0
        var duration = 0.0
        for segment in segments where segment.samples.count > 1 && segment.effectiveRate > 0 {
            intervals += segment.samples.count - 1
            duration += Double(segment.samples.count - 1) / segment.effectiveRate
        }
        return duration > 0 ? Double(intervals) / duration : nil
    }

    /// The shortest pause that is a gap: 0.1 s (what a live LSL inlet counts as lost samples) or 4 sample periods
    /// when that is longer.
    public static func pauseThreshold(nominalRate: Double) -> Double { max(0.1, 4 / nominalRate) }
}

extension XDFFile.Stream {
    /// The stream on one timeline, as pyxdf's `load_xdf` puts it with its default options:
    ///
    /// - **Clock resets** are found in the ClockOffset chunks as pyxdf's `_detect_clock_resets` does (and, where the
    ///   timestamps still jump back by more than 1 s or 500 samples, from them: a reset no offset bridges): between two
    ///   successive offsets, a collection time that goes backwards, or both a time step and an offset step that are
    ///   outliers (more than 5 median absolute deviations and 5 s from the median step for the times, 10 and 1 s for
    ///   the offsets). Each run of offsets between resets gets its own line (least squares of offset on collection
    ///   time; pyxdf's Huber fit gives the same line for offsets without outliers), and each sample takes the line
    ///   of its run: samples go to the next run from the first one stamped nearer to that run's first collection time
    ///   than to the current run's last (pyxdf's rule). With a single run, the offsets are interpolated
    ///   (``synchronizedTimestamps``).
    /// - **Segments** of a regular stream end where the synchronised timestamps step by more than
    ///   ``XDFTimeline/pauseThreshold(nominalRate:)`` (a pause) or by more than pyxdf's break (1 s or 500 samples)
    ///   either way; each segment is fitted with a line over its sample indices (pyxdf's dejittering), whose slope
    ///   is the segment's effective rate.
    /// - **Pauses** between segments are counted at the nominal rate, between the fitted times of the samples
    ///   around them.
    ///
    /// - Complexity: O(samples + clock offsets · log clock offsets).
    public func timeline() -> XDFTimeline {
        let times = resetAwareTimes()
        // Resets: where the clock offsets jumped (the runs' starts), and where the timestamps still jump back by more
        // than pyxdf's break (1 s, or 500 samples of a regular stream).
        let backwards = max(1, nominalRate > 0 ? 500 / nominalRate : 0)
        var boundaries = Set(times.runStarts.dropFirst().filter { $0 > 0 && $0 < timestamps.count })
        for index in times.values.indices.dropFirst() where times.values[index] - times.values[index - 1] < -backwards {
            boundaries.insert(index)
        }
        let resets = boundaries.sorted().map { boundary in
            XDFTimeline.ClockReset(
                sample: boundary, stampBefore: timestamps[boundary - 1], stampAfter: timestamps[boundary],
                time: times.values[boundary],
                isBridged: !(times.values[boundary] - times.values[boundary - 1] < -backwards))
        }
        var segments: [XDFTimeline.Segment] = []
        var pauses: [XDFTimeline.Pause] = []
        if nominalRate > 0, !times.values.isEmpty {
            let threshold = XDFTimeline.pauseThreshold(nominalRate: nominalRate)
            let pyxdfBreak = max(1, 500 / nominalRate)
            var start = 0
            var fits: [(range: Range<Int>, intercept: Double, slope: Double)] = []
            for index in 1...times.values.count {
                let step = index < times.values.count ? times.values[index] - times.values[index - 1] : .infinity
                if step > threshold || abs(step) > pyxdfBreak {
                    let range = start..<index
                    let line = Self.fit(times.values, range)
                    fits.append((range, line.intercept, line.slope))
                    segments.append(.init(samples: range, effectiveRate: line.slope > 0 ? 1 / line.slope : 0))
                    start = index
                }
            }
            // From the latest end of a segment of two or more samples so far, so one damaged stamp (a jump back or far
            // ahead, alone between two breaks) makes no pause around it.
            var latest = -Double.infinity
            for (previous, next) in zip(fits, fits.dropFirst()) {
                let end = previous.intercept + previous.slope * Double(previous.range.upperBound - 1)
                if end.isFinite, previous.range.count > 1 || latest == -.infinity { latest = max(latest, end) }
                let from = latest
                let to = next.intercept + next.slope * Double(next.range.lowerBound)
                // Garbage stamps (NaN, infinite, 1e300) make no gap: the conversion to Int would trap.
                let steps = ((to - from) * nominalRate).rounded()
                guard to - from > threshold, steps.isFinite, steps >= 2, steps < 1e15 else { continue }
                pauses.append(
                    .init(beforeSample: next.range.lowerBound, missingCount: Int(steps) - 1, from: from, to: to))
            }
        }
        return XDFTimeline(times: times.values, resets: resets, segments: segments, pauses: pauses)
    }

    /// Least squares line time = intercept + slope × index over `range` (pyxdf's `lstsq` on [1, index]), over the
    /// finite times only (a damaged NaN or infinite stamp would make the whole line NaN).
    private static func fit(_ values: [Double], _ range: Range<Int>) -> (intercept: Double, slope: Double) {
        let finite = range.filter { values[$0].isFinite }
        guard finite.count > 1 else { return (finite.first.map { values[$0] } ?? values[range.lowerBound], 0) }
        // Centred sums: no cancellation with indices in the millions and times in the hundreds of thousands.
        let count = Double(finite.count)
        let meanIndex = Double(finite.reduce(0, +)) / count
        let meanTime = finite.reduce(0.0) { $0 + values[$1] } / count
        var covariance = 0.0
        var variance = 0.0
        for index in finite {
            let x = Double(index) - meanIndex
            covariance += x * (values[index] - meanTime)
            variance += x * x
        }
        let slope = covariance / variance
        return (meanTime - slope * meanIndex, slope)
    }

    /// The timestamps plus their clock offsets, run by run between clock resets, and the first sample of each run.
    private func resetAwareTimes() -> (values: [Double], runStarts: [Int]) {
        let runs = clockOffsetRuns()
        guard runs.count > 1 else { return (synchronizedTimestamps, [0]) }
        var values = timestamps
        var runStarts: [Int] = []
        var first = 0
        for (number, run) in runs.enumerated() {
            var stop = timestamps.count
            if number + 1 < runs.count {
                // The first sample nearer to the next run's first collection time than to this run's last.
                let end = clockOffsets[run.upperBound - 1].time
                let next = clockOffsets[runs[number + 1].lowerBound].time
                stop = timestamps[first...].firstIndex { abs($0 - end) >= abs($0 - next) } ?? timestamps.count
            }
            guard stop > first else { continue }
            let line = offsetLine(run)
            for index in first..<stop { values[index] += line.intercept + line.slope * timestamps[index] }
            runStarts.append(first)
            first = stop
        }
        return (values, runStarts.isEmpty ? [0] : runStarts)
    }

    /// The runs of clock offsets between resets (pyxdf's `_detect_clock_resets` with its default thresholds).
    private func clockOffsetRuns() -> [Range<Int>] {
        let count = clockOffsets.count
        guard count > 1 else { return count == 0 ? [] : [0..<1] }
        let timeSteps = (1..<count).map { clockOffsets[$0].time - clockOffsets[$0 - 1].time }
        let valueSteps = (1..<count).map { clockOffsets[$0].value - clockOffsets[$0 - 1].value }
        let timeGlitch = Self.outliers(timeSteps, deviations: 5, seconds: 5)
        let valueGlitch = Self.outliers(valueSteps, deviations: 10, seconds: 1)
        var runs: [Range<Int>] = []
        var start = 0
        for step in 0..<(count - 1) where timeSteps[step] < 0 || (timeGlitch[step] && valueGlitch[step]) {
            runs.append(start..<(step + 1))
            start = step + 1
        }
        runs.append(start..<count)
        return runs
    }

    /// Steps further than `deviations` median absolute deviations and `seconds` from the median step.
    private static func outliers(_ steps: [Double], deviations: Double, seconds: Double) -> [Bool] {
        let median = Self.median(steps)
        let mad = Self.median(steps.map { abs($0 - median) }) + Double.ulpOfOne
        return steps.map { abs($0 - median) / mad > deviations && abs($0 - median) > seconds }
    }

    /// numpy's median: the mean of the two middle values for an even count.
    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Offset = intercept + slope × collection time over one run of clock offsets (least squares); a single offset
    /// is held.
    private func offsetLine(_ run: Range<Int>) -> (intercept: Double, slope: Double) {
        guard run.count > 1 else { return (clockOffsets[run.lowerBound].value, 0) }
        let count = Double(run.count)
        let meanTime = run.reduce(0.0) { $0 + clockOffsets[$1].time } / count
        let meanValue = run.reduce(0.0) { $0 + clockOffsets[$1].value } / count
        var covariance = 0.0
        var variance = 0.0
        for index in run {
            let x = clockOffsets[index].time - meanTime
            covariance += x * (clockOffsets[index].value - meanValue)
            variance += x * x
        }
        let slope = variance > 0 ? covariance / variance : 0
        return (meanValue - slope * meanTime, slope)
    }
}
