import AxonMemory

/// Maps a device's time axis (its own timestamps, or sample index ÷ nominal rate) to host time, with the device
/// clock's drift and the transport's arrival jitter removed.
///
/// It keeps the last `window` (device time, arrival time) pairs and refits a straight line
/// `host = offset + slope × device` by least squares every `refitInterval` observations (more often while the
/// window fills), like LSL's dejittering and muse-lsl's regression. The slope absorbs clock drift (a device
/// clock 100 ppm fast gives a slope of 1/1.0001).
///
/// Where the line sits is the ``Anchor``: arrivals are the true sample times *plus* a transport delay that is
/// never negative, so the least-squares line runs late by the mean delay. `.lowerEnvelope` (the default) shifts
/// the line down to the earliest arrivals — the samples that crossed with the least delay — which recovers the
/// true times when the minimum delay is small (Bluetooth, USB). `.mean` keeps LSL's behaviour: right when the
/// jitter is symmetric around the true time.
///
/// Once the window is full, a refit never steps the time axis: the lower envelope can move by a whole Bluetooth
/// connection interval (7.5 ms or more) when the earliest arrivals change, and a backward step would squeeze the
/// following timestamps together (the caller keeps them increasing). Instead the difference between the old and the
/// new line at the newest observation is slewed away linearly over the next refit interval of device time, or more
/// slowly if that would change time faster than ``Configuration/maxSlewRate``.
///
///     var clock = ClockEstimator()
///     clock.observe(deviceTime: Double(index) / 250, arrivalTime: HostClock.now())
///     let t = clock.hostTime(forDeviceTime: Double(index) / 250)
///
/// Threading contract: single owner (the stream's consumer thread). `observe` and `hostTime` allocate nothing;
/// all storage is allocated at init.
public final class ClockEstimator {
    /// Where the fitted line is anchored; see the type's documentation.
    public enum Anchor: String, Sendable, Hashable, CaseIterable {
        /// Through the earliest arrivals (true times when the minimum transport delay is small).
        case lowerEnvelope
        /// Through the mean of the arrivals (true times when jitter is symmetric).
        case mean
    }

    /// Settings of an estimator.
    public struct Configuration: Sendable, Hashable {
        /// Observations kept for the fit.
        public var window: Int
        /// Observations between refits once the window is full.
        public var refitInterval: Int
        /// Where the line is anchored.
        public var anchor: Anchor
        /// A device time that moves backwards, or an arrival further than this many seconds from the line,
        /// means the device clock was reset: the estimator starts over.
        public var resetThreshold: Double
        /// The fastest a refit's correction is slewed in, host seconds per device second (0.001 = 1 ms a second).
        public var maxSlewRate: Double

        /// Creates a configuration. The defaults suit 250 Hz EEG: a 32 s window, refit every 4096 samples (16 s; a
        /// refit scans the window twice, so this keeps the estimator near 4 array reads per sample).
        public init(window: Int = 8192, refitInterval: Int = 4096, anchor: Anchor = .lowerEnvelope,
                    resetThreshold: Double = 2, maxSlewRate: Double = 0.001) {
            precondition(window >= 2 && refitInterval >= 1 && maxSlewRate > 0)
            self.window = window
            self.refitInterval = refitInterval
            self.anchor = anchor
            self.resetThreshold = resetThreshold
            self.maxSlewRate = maxSlewRate
        }
    }

    /// The settings in use.
    public let configuration: Configuration

    private let deviceTimes: OwnedBuffer<Double>
    private let arrivalTimes: OwnedBuffer<Double>
    private var stored = 0
    private var next = 0
    private var sinceRefit = 0
    private var nextRefitAt = 2
    // Origin subtracted from every pair so the sums stay well conditioned (device times may be Unix seconds).
    private var deviceOrigin = 0.0
    private var hostOrigin = 0.0
    private var offset = 0.0
    private var slopeValue = 1.0
    private var fitted = false
    /// The correction still being slewed in: `slewOffset` at device time `slewStart` (relative to the origin),
    /// falling linearly to 0 at `slewStart + slewSpan`.
    private var slewOffset = 0.0
    private var slewStart = 0.0
    private var slewSpan = 0.0

    /// Creates an estimator; allocates its window once.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        deviceTimes = OwnedBuffer(repeating: 0, count: configuration.window)
        arrivalTimes = OwnedBuffer(repeating: 0, count: configuration.window)
    }

    /// Observations currently in the window.
    public var observationCount: Int { stored }

    /// Host seconds per device second (1 / (1 + drift)).
    public var slope: Double { slopeValue }

    /// The device clock's rate error relative to the host, in parts per million (positive = device fast).
    public var driftPPM: Double { (1 / slopeValue - 1) * 1e6 }

    /// Adds one (device time, host arrival time) pair.
    ///
    /// - Complexity: amortised O(window / refitInterval).
    public func observe(deviceTime: Double, arrivalTime: Double) {
        if stored == 0 {
            deviceOrigin = deviceTime
            hostOrigin = arrivalTime
        } else if needsReset(deviceTime: deviceTime, arrivalTime: arrivalTime) {
            reset()
            deviceOrigin = deviceTime
            hostOrigin = arrivalTime
        }
        deviceTimes[next] = deviceTime - deviceOrigin
        arrivalTimes[next] = arrivalTime - hostOrigin
        next = next + 1 == configuration.window ? 0 : next + 1
        stored = min(stored + 1, configuration.window)
        sinceRefit += 1
        if !fitted || stored >= nextRefitAt || sinceRefit >= configuration.refitInterval {
            refit()
        }
    }

    /// The estimated host time of a device time.
    public func hostTime(forDeviceTime deviceTime: Double) -> Double {
        hostOrigin + relativeHostTime(deviceTime - deviceOrigin)
    }

    /// Host time relative to the origin for a device time relative to it: the line plus what remains of the slew.
    private func relativeHostTime(_ x: Double) -> Double {
        var time = offset + slopeValue * x
        if slewSpan > 0 {
            let remaining = min(1, max(0, 1 - (x - slewStart) / slewSpan))
            time += slewOffset * remaining
        }
        return time
    }

    /// Forgets every observation.
    public func reset() {
        stored = 0
        next = 0
        sinceRefit = 0
        nextRefitAt = 2
        offset = 0
        slopeValue = 1
        fitted = false
        slewOffset = 0
        slewSpan = 0
    }

    private func needsReset(deviceTime: Double, arrivalTime: Double) -> Bool {
        let newest = deviceTimes[next == 0 ? configuration.window - 1 : next - 1] + deviceOrigin
        if deviceTime < newest { return true }
        return abs(arrivalTime - hostTime(forDeviceTime: deviceTime)) > configuration.resetThreshold
    }

    /// Least squares over the window in one pass: sums taken about the window's newest pair (so they stay well
    /// conditioned however far the stream has run from its origin), then the lower envelope in a second pass.
    private func refit() {
        sinceRefit = 0
        // Refit at 2, 4, 8, … observations while the first fits are poor, then every `refitInterval`.
        nextRefitAt = stored < configuration.refitInterval ? stored * 2 : .max
        let newest = next == 0 ? configuration.window - 1 : next - 1
        let pivotX = deviceTimes[newest]
        let pivotY = arrivalTimes[newest]
        var sumX = 0.0
        var sumY = 0.0
        var sumXX = 0.0
        var sumXY = 0.0
        for i in 0..<stored {
            let x = deviceTimes[i] - pivotX
            let y = arrivalTimes[i] - pivotY
            sumX += x
            sumY += y
            sumXX += x * x
            sumXY += x * y
        }
        let n = Double(stored)
        let meanX = sumX / n + pivotX
        let meanY = sumY / n + pivotY
        let sxx = sumXX - sumX * sumX / n
        let sxy = sumXY - sumX * sumY / n
        // One distinct device time cannot give a slope: assume the nominal rate until it can.
        let slope = sxx > 0 ? sxy / sxx : 1
        var intercept = meanY - slope * meanX
        if configuration.anchor == .lowerEnvelope {
            var lowest = Double.infinity
            for i in 0..<stored {
                lowest = min(lowest, arrivalTimes[i] - (intercept + slope * deviceTimes[i]))
            }
            intercept += lowest
        }
        // A refit of a full window slews from where the old line put the newest observation to the new line.
        let steady = fitted && stored >= configuration.refitInterval
        let before = steady ? relativeHostTime(pivotX) : 0
        slopeValue = slope
        offset = intercept
        fitted = true
        slewSpan = 0
        guard steady else { return }
        let correction = before - (intercept + slope * pivotX)
        let oldest = stored == configuration.window ? next : 0
        let devicePerObservation = (pivotX - deviceTimes[oldest]) / Double(max(1, stored - 1))
        let span = max(devicePerObservation * Double(configuration.refitInterval), abs(correction) / configuration.maxSlewRate)
        guard correction != 0, span > 0 else { return }
        slewOffset = correction
        slewStart = pivotX
        slewSpan = span
    }
}
