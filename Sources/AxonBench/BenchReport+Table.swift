// AxonBench — the report as the table `axon bench` prints, and as JSON.

import Foundation

extension BenchReport {
    /// The report as a fixed-width table: one measurement per line with its figure, unit and what it means.
    public func table() -> String {
        let device = "\(channels)-ch \(sampleRate) Hz"
        var rows: [(String, String, String)] = [
            ("FFT r2c, \(fftSize) points", Self.number(fftNanoseconds, 1) + " ns", "median per transform"),
            (
                "engine hop, \(device)", Self.number(hopNanoseconds / 1000, 2) + " µs",
                "one device-second: \(channels) windows → spectra, band peaks"
            ),
            (
                "  engine alone", Self.number(engineDeviceSecondsPerSecond, 0) + " dev-s/s",
                "10⁹ ÷ hop ns, one core"
            ),
            (
                "  spectral work only", Self.number(spectralHopNanoseconds / 1000, 2) + " µs",
                "the same hop, signal quality off (C + FFTW's work)"
            ),
            (
                "replay \(Self.duration(replayDeviceSeconds)), ring + engine",
                Self.number(replayMilliseconds, 2) + " ms", "median, baseline and indicators on"
            ),
            (
                "capacity", Self.number(deviceSecondsPerSecond, 0) + " dev-s/s",
                "= \(device) devices one core serves"
            ),
            (
                "  ring + engine ÷ engine", Self.number(ringEngineOverEngine, 2),
                "what the pipeline keeps of the engine's speed"
            ),
            (
                "ring, \(ringBatch) frames per push", Self.number(ringItemsPerSecond / 1e6, 1) + " M frames/s",
                "producer → consumer thread"
            ),
            (
                "ring, 1 frame per push", Self.number(ringSingleItemsPerSecond / 1e6, 1) + " M frames/s",
                "producer → consumer thread"
            ),
            (
                "latency p50 / p99 / max",
                "\(Self.number(latencyP50Microseconds, 0)) / \(Self.number(latencyP99Microseconds, 0)) / "
                    + "\(Self.number(latencyMaxMicroseconds, 0)) µs",
                "ring entry → spectrum out, consumer woken by the producer, \(latencyHops) hops"
            ),
            (
                "  pinned to one CPU p50 / p99 / max",
                pinnedLatencyP99Microseconds == nil ? "refused"
                    : "\(Self.number(pinnedLatencyP50Microseconds ?? .nan, 0)) / "
                        + "\(Self.number(pinnedLatencyP99Microseconds ?? .nan, 0)) / "
                        + "\(Self.number(pinnedLatencyMaxMicroseconds ?? .nan, 0)) µs",
                "producer and consumer on the same CPU: no cross-core wake-up"
            ),
            (
                "  napping consumer p99 / max",
                "\(Self.number(nappingLatencyP99Microseconds, 0)) / \(Self.number(nappingLatencyMaxMicroseconds, 0)) µs",
                "0.5 ms naps, the strategy before wake-ups"
            ),
            (
                "consumer CPU, 1 device", Self.number(consumerCPUPercent, 2) + " % of a core",
                "real time, frames one by one, woken per frame"
            ),
            (
                "  polling consumer",
                "\(Self.number(pollingLatencyP50Microseconds, 1)) / \(Self.number(pollingLatencyP99Microseconds, 1))"
                    + " / \(Self.number(pollingLatencyMaxMicroseconds, 0)) µs",
                "processing and hand-offs only"
            ),
        ]
        if allocationCounting {
            rows.append(
                (
                    "allocations, steady state",
                    [
                        allocationsPerHop, allocationsPerSpectralHop, allocationsPerReplayHop, allocationsPerRingBatch,
                        allocationsPerFFT,
                    ].map { Self.number($0 ?? .nan, 2) }.joined(separator: " / "),
                    "per hop / spectral hop / replay hop / ring batch / FFT"
                ))
        } else {
            rows.append(("allocations", "not counted", "this build has no allocation counter"))
        }
        if latencyUnmatchedSpectra > 0 {
            rows.append(("warning", "\(latencyUnmatchedSpectra) spectra", "latency hops without their own spectrum"))
        }
        let first = rows.map(\.0.count).max() ?? 0
        let second = rows.map(\.1.count).max() ?? 0
        let lines = rows.map { row in
            row.0.padding(toLength: first, withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: second - row.1.count) + row.1 + "  " + row.2
        }
        let title = "Axon bench: \(device), window \(windowSize), hop \(hop), \(Self.number(elapsedSeconds, 1)) s"
        return ([title] + lines).joined(separator: "\n")
    }

    /// The report as one JSON object (sorted keys, pretty-printed).
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    static func number(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        let text = String(format: "%.\(decimals)f", value)
        guard decimals == 0, abs(value) >= 10_000 else { return text }
        // Thousands separators for large integers: 244,000 reads at a glance.
        var digits = Array(text)
        var index = digits.count - 3
        while index > (digits.first == "-" ? 1 : 0) {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    static func duration(_ seconds: Int) -> String {
        seconds % 3600 == 0 ? "\(seconds / 3600) h" : seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
    }
}
