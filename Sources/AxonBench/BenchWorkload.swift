// AxonBench — the device every measurement simulates: channel count, sample rate and the engine built for them.

import AxonEEG
import AxonStreams

/// The shape of the simulated device: `channels` channels at `sampleRate` Hz, analysed with one window of
/// `windowSize` samples every `hop` = one second of samples (one spectrum per device-second, as the Brainiac
/// headset's 256-sample window every 250 samples).
///
/// The window is the smallest power of two holding one second (256 at 250 Hz, 512 at 500 Hz), so the frequency
/// resolution stays about 1 Hz whatever the rate. The default is the Brainiac headset: 4 channels at 250 Hz.
///
/// Threading: a plain value, `Sendable`.
public struct BenchWorkload: Sendable, Hashable {
    /// Channels per frame.
    public let channels: Int
    /// Samples per second per channel.
    public let sampleRate: Int

    /// Creates a workload.
    ///
    /// - Throws: ``BenchError/invalidWorkload(_:)`` for fewer than 1 or more than 1024 channels, or a rate
    ///   outside 32…16384 Hz.
    public init(channels: Int = 4, sampleRate: Int = 250) throws(BenchError) {
        guard (1...1024).contains(channels) else {
            throw .invalidWorkload("\(channels) channels: use 1 to 1024")
        }
        guard (32...16384).contains(sampleRate) else {
            throw .invalidWorkload("\(sampleRate) Hz: use 32 to 16384 Hz")
        }
        self.channels = channels
        self.sampleRate = sampleRate
    }

    /// Samples between the ends of consecutive windows: one second.
    public var hop: Int { sampleRate }
    /// Samples per analysis window and FFT length: the smallest power of two ≥ one second.
    public var windowSize: Int { SPSCRing<Double>.powerOfTwo(atLeast: sampleRate) }
    /// Doubles per frame in a pipeline ring (header lanes + channels).
    public var frameWidth: Int { FrameLayout(channelCount: channels).width }

    /// The engine's configuration for this device: the Brainiac bands (3–7, 7–13, 14–24 Hz), mean detrend, Hann
    /// window, FFTW_MEASURE plans; `baselineDuration` and `indicatorPeriod` in seconds.
    public func engineConfiguration(baselineDuration: Double = 60, indicatorPeriod: Double = 10)
        -> EEGEngine.Configuration
    {
        EEGEngine.Configuration(
            sampleRate: Double(sampleRate), channelLabels: channelLabels, windowSize: windowSize, hop: hop,
            baselineDuration: baselineDuration, indicatorPeriod: indicatorPeriod)
    }

    /// The stream descriptor of the simulated device (µV channels, float32 on the wire).
    public var descriptor: StreamDescriptor {
        StreamDescriptor(
            name: "Bench EEG", contentType: .eeg, channels: channelLabels.map { ChannelInfo(label: $0, unit: "µV") },
            nominalRate: Double(sampleRate), format: .float32, sourceID: "axon-bench")
    }

    /// "T3", "O1", "T4", "O2" for the default device, "ch1"… otherwise.
    var channelLabels: [String] {
        channels == 4 ? ["T3", "O1", "T4", "O2"] : (1...channels).map { "ch\($0)" }
    }
}
