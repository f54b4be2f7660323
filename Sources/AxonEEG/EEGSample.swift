// AxonEEG — one raw multi-channel sample as delivered to applications.

/// One frame of raw EEG as the seed's `CB_dataUpdatedWithDictionary` delivers it: time, counter and one value per
/// channel (`ch1…ch4` = T3, O1, T4, O2 on the Brainiac headset).
///
/// Threading: a plain value, `Sendable`.
public struct EEGSample: Sendable, Hashable {
    /// Index of the sample in the stream (samples since the engine started, from 0; filled-in samples count).
    public var sampleIndex: Int
    /// Time of the sample, milliseconds since 1970 (the seed's `timeframe`).
    public var timeframe: Double
    /// The device's own counter for the sample, if it sends one (the seed's `counter`).
    public var counter: UInt64?
    /// One value per channel, in the stream's unit (µV).
    public var values: [Double]

    /// Creates a sample.
    public init(sampleIndex: Int, timeframe: Double, counter: UInt64?, values: [Double]) {
        self.sampleIndex = sampleIndex
        self.timeframe = timeframe
        self.counter = counter
        self.values = values
    }
}
