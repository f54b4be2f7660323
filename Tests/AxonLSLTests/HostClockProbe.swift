import AxonStreams

/// Axon's host clock, named apart from liblsl's in the tests.
enum HostClockProbe {
    static func now() -> Double { HostClock.now() }
}
