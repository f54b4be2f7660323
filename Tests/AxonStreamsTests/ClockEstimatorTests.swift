import Testing

@testable import AxonStreams

@Suite("Clock estimator")
struct ClockEstimatorTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        var anchor: ClockEstimator.Anchor
        /// Arrival delay = lower + U(0, 1) × span, seconds.
        var delayLower: Double
        var delaySpan: Double
        var testDescription: String { "\(anchor) delay \(delayLower * 1e3)…\((delayLower + delaySpan) * 1e3) ms" }
    }

    /// A device clock 100 ppm fast, 5 ms of uniform arrival jitter, 250 Hz: after 30 s every estimated
    /// timestamp is within 0.5 ms of the true sample time. One-sided delays (what a radio link does) use the
    /// lower-envelope anchor; jitter symmetric around the true time uses the mean anchor.
    @Test(arguments: [
        Scenario(anchor: .lowerEnvelope, delayLower: 0, delaySpan: 0.005),
        Scenario(anchor: .mean, delayLower: -0.0025, delaySpan: 0.005),
    ])
    func dejittersADriftingClock(scenario: Scenario) {
        let rate = 250.0
        let drift = 100e-6
        let hostStart = 5_000.0
        let estimator = ClockEstimator(configuration: .init(anchor: scenario.anchor))
        var random = SplitMix64(seed: 42)
        var errors: [Double] = []
        for index in 0..<Int(40 * rate) {
            let trueTime = hostStart + Double(index) / rate
            let deviceTime = 1_700_000_000 + Double(index) / rate * (1 + drift)  // a Unix-epoch device clock
            let arrival = trueTime + scenario.delayLower + random.uniform() * scenario.delaySpan
            estimator.observe(deviceTime: deviceTime, arrivalTime: arrival)
            if Double(index) / rate >= 30 {
                errors.append(abs(estimator.hostTime(forDeviceTime: deviceTime) - trueTime))
            }
        }
        let p = percentiles(errors, [0.5, 0.9, 0.99, 1.0])
        print("clock \(scenario.testDescription): |error| p50 \(p[0] * 1e6) µs, p90 \(p[1] * 1e6) µs, "
              + "p99 \(p[2] * 1e6) µs, max \(p[3] * 1e6) µs; drift \(estimator.driftPPM) ppm")
        #expect(p[3] < 0.0005)
        #expect(abs(estimator.driftPPM - 100) < 5)
    }

    /// Raw arrival times, for comparison, are off by up to the full jitter: the estimator is doing the work.
    @Test func rawArrivalsAreWorseThanTheBound() {
        var random = SplitMix64(seed: 42)
        let worst = (0..<7500).map { _ in random.uniform() * 0.005 }.max()!
        #expect(worst > 0.004)
    }

    /// A device clock that jumps backwards (a reboot) restarts the fit instead of bending it.
    @Test func clockResetStartsOver() {
        let estimator = ClockEstimator()
        for i in 0..<1000 { estimator.observe(deviceTime: 50 + Double(i) * 0.004, arrivalTime: 10 + Double(i) * 0.004) }
        estimator.observe(deviceTime: 0, arrivalTime: 14.0)
        #expect(estimator.observationCount == 1)
        #expect(abs(estimator.hostTime(forDeviceTime: 0) - 14.0) < 1e-9)
        estimator.observe(deviceTime: 0.004, arrivalTime: 14.004)
        #expect(abs(estimator.hostTime(forDeviceTime: 0.004) - 14.004) < 1e-6)
    }
}
