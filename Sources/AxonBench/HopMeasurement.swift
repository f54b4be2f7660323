// AxonBench — one hop of the EEG engine for one device, on the calling thread.

import AxonEEG

/// Times one engine hop: one second of frames (`hop` rows) through `EEGEngine.ingest(rows:…)`, the path the
/// pipeline's consumer runs, ending in one analysis: every channel's window copied out, mean removed, Hann
/// tapered, transformed, its power spectrum, three band peaks and powers, and the baseline accumulation (a
/// baseline that never completes, so every hop does it).
///
/// No ring and no second thread: this is the engine's own cost. Device-seconds per wall-second on one core, for
/// the engine alone, is 10⁹ ÷ the hop's nanoseconds.
///
/// Threading: use on one thread.
public final class HopMeasurement {
    /// The measured figures.
    public struct Result: Sendable, Hashable {
        /// Median nanoseconds per hop.
        public var nanoseconds: Double
        /// Heap allocations per hop in the steady state (`nil` when counting is off).
        public var allocations: Double?
        /// Spectra the engine made during the allocation count, one per hop (a check that hops were whole).
        public var spectraPerHop: Double
        /// Dominant frequency per band (Hz) of the last channel at the tenth hop: a check that the work was the real
        /// one, comparable with other programs fed the same signal.
        public var tenthHopDominantFrequencies: [Double?]
    }

    let engine: EEGEngine
    let signal: BenchSignal
    let workload: BenchWorkload
    private var sample = 0
    /// Spectra made while timed (kept so the hops cannot be optimised away).
    private var spectra = 0
    /// The last channel's dominant frequencies after the warm-up's tenth hop; `nil` before the first round.
    private var tenthHopDominantFrequencies: [Double?]?

    /// Builds the engine (FFTW plans included) and fills its first window up to one hop before its end, so every
    /// hop from then on ends with exactly one spectrum. `measuresSignalQuality: false` times the spectral work
    /// alone (``AxonEEG/EEGEngine/Configuration/measuresSignalQuality``), the work a plain C + FFTW hop does.
    /// `peakProminence` overrides ``AxonEEG/EEGEngine/Configuration/peakProminence`` (0: no background fit, the
    /// hop as it was before the fit existed).
    public init(_ workload: BenchWorkload, measuresSignalQuality: Bool = true, peakProminence: Double? = nil)
        throws(BenchError)
    {
        self.workload = workload
        var configuration = workload.engineConfiguration(baselineDuration: 1e7)
        configuration.measuresSignalQuality = measuresSignalQuality
        if let peakProminence { configuration.peakProminence = peakProminence }
        do { engine = try EEGEngine(configuration) } catch {
            throw .setupFailed("EEG engine", cause: error)
        }
        signal = BenchSignal(workload)
        engine.startBaseline()
        for _ in 0..<(workload.windowSize - workload.hop) {
            _ = engine.ingest(signal.frame(sample), time: Double(sample) / Double(workload.sampleRate))
            sample += 1
        }
    }

    /// One hop: `hop` frames; returns the spectra made (1).
    @inline(__always) public func hop() -> Int {
        var spectra = 0
        var remaining = workload.hop
        let rate = Double(workload.sampleRate)
        while remaining > 0 {
            let available = min(remaining, signal.frames - sample % signal.frames)
            let first = sample
            let (consumed, events) = engine.ingest(
                rows: signal.rows(from: sample, count: available), stride: workload.channels, valueOffset: 0,
                frameCount: available, time: { Double(first + $0) / rate })
            if events.contains(.spectrum) { spectra += 1 }
            sample += consumed
            remaining -= consumed
        }
        return spectra
    }

    /// Times hops within `timing`'s budget and returns nanoseconds per hop, one figure per repetition. The first
    /// call warms the engine with 10 hops and notes their dominant frequencies. Call it in several rounds between
    /// other measurements to spread a slow spell of the machine over them all, then ``result(nanosecondsPerHop:)``.
    public func timeHops(_ timing: RepeatedTiming) -> [Double] {
        if tenthHopDominantFrequencies == nil {
            for _ in 0..<10 { spectra &+= hop() }  // warm: caches, branch predictors, first-use paths
            let lastChannel = workload.channels - 1
            tenthHopDominantFrequencies = (0..<engine.configuration.bands.count).map {
                band in engine.withSpectrum { $0.dominantFrequency(channel: lastChannel, band: band) }
            }
        }
        return timing.measure { count in
            for _ in 0..<count { spectra &+= self.hop() }
        }.nanosecondsPerRepetition
    }

    /// The result from the figures of every ``timeHops(_:)`` round (their median), after counting the allocations
    /// of 1000 more hops.
    public func result(nanosecondsPerHop: [Double]) -> Result {
        let hops = 1000
        var counted = 0
        let allocations = AllocationCounter.perUnit(hops) {
            for _ in 0..<hops { counted += hop() }
        }
        return Result(
            nanoseconds: RepeatedTiming.median(nanosecondsPerHop), allocations: allocations,
            spectraPerHop: Double(counted) / Double(hops), tenthHopDominantFrequencies: tenthHopDominantFrequencies ?? [])
    }
}
