// A refit that moves the lower envelope by a Bluetooth connection interval slews the time axis instead of stepping.

import Testing

@testable import AxonStreams

@Suite("Clock estimator: refits slew, never step")
struct ClockSlewTests {
    /// 250 Hz samples over a link with a 7.5 ms connection interval: a sample leaves at the first connection event
    /// after it is made. For the first 60 s every packet also misses one event (7.5 ms more), then none does, so
    /// the earliest arrivals — the lower envelope — move 7.5 ms earlier at the first refit after 60 s.
    static func arrivals(count: Int) -> [Double] {
        let interval = 0.0075
        return (0..<count).map { n in
            let made = Double(n) / 250
            let event = (made / interval).rounded(.up) * interval
            return 100 + event + (made < 60 ? interval : 0)
        }
    }

    @Test("timestamps stay one sample period apart (±1 %) through a 7.5 ms envelope move: no run of ulp-spaced times")
    func connectionIntervalMove() {
        let count = 150 * 250
        let arrivals = Self.arrivals(count: count)
        let estimator = ClockEstimator()
        var last = -Double.infinity
        var spacings: [Double] = []
        for n in 0..<count {
            let device = Double(n) / 250
            estimator.observe(deviceTime: device, arrivalTime: arrivals[n])
            // What StreamTimeline does: never let a timestamp go backwards.
            var time = estimator.hostTime(forDeviceTime: device)
            if time <= last { time = last.nextUp }
            if n > 0 { spacings.append(time - last) }
            last = time
        }
        // From the first full window (32 s) on: every spacing within 1 % of the 4 ms period.
        let settled = spacings[(8192)...]
        let smallest = settled.min() ?? 0
        let largest = settled.max() ?? 0
        #expect(smallest > 0.004 * 0.99, "smallest spacing \(smallest * 1e6) µs")
        #expect(largest < 0.004 * 1.01, "largest spacing \(largest * 1e6) µs")
        // And the axis did follow the new envelope: by the end, timestamps sit within 0.5 ms of the true times
        // plus the remaining minimum delay (0 to 7.5 ms, at least 0 below the earliest arrival).
        let trueEnd = 100 + Double(count - 1) / 250
        #expect(abs(last - trueEnd) < 0.0005 + 0.0075, "end offset \((last - trueEnd) * 1000) ms")
        #expect(last - trueEnd < 0.0075 - 0.001, "the 7.5 ms move was slewed in: \((last - trueEnd) * 1000) ms")
    }

    @Test("a 40 ms drop in the minimum delay is slewed in over tens of seconds: spacing within 0.5 %, then on time")
    func largeCorrection() {
        let estimator = ClockEstimator()
        var last = -Double.infinity
        var worst = 0.0
        let count = 130 * 250
        for n in 0..<count {
            let device = Double(n) / 250
            let arrival = 50 + device + (device < 40 ? 0.040 : 0)
            estimator.observe(deviceTime: device, arrivalTime: arrival)
            var time = estimator.hostTime(forDeviceTime: device)
            if time <= last { time = last.nextUp }
            // From the first full window on (the fits before it may step).
            if n > 8192 { worst = max(worst, abs((time - last) / 0.004 - 1)) }
            last = time
        }
        // 1 ms of slew per second is 0.1 % of each 4 ms step, plus the least-squares slope's lean while the window
        // still holds the old delays.
        #expect(worst < 0.005, "worst spacing error \(worst * 100) %")
        #expect(abs(last - (50 + Double(count - 1) / 250)) < 0.001, "end offset \((last - 50 - Double(count - 1) / 250) * 1000) ms")
    }
}
