/// One EEG sample of the Brainiac headset, as the vendor SDK hands it to `CB_dataUpdatedWithDictionary:`.
///
/// The SDK's dictionary keys map to: `hardware_order_number` → ``hardwareOrderNumber``, `timeframe` →
/// ``timeMilliseconds``, `counter` → ``counter``, `ch1`…`ch4` → ``ch1``…``ch4`` (T3, O1, T4, O2, in µV).
/// Samples decoded from one notification share its order number; their counters and times step by 1 and 4 ms.
///
/// This is the record form for tools and tests; the real-time path writes samples straight into a
/// `FrameWriter` without building these (``BrainiacDecoder``).
///
/// Threading: a value type; share freely.
public struct BrainiacPacket: Sendable, Hashable {
    /// The hardware order number of the notification that carried the sample (wraps at 65 536).
    public var hardwareOrderNumber: UInt16
    /// The device's time of the sample, milliseconds since 1970.
    public var timeMilliseconds: UInt64
    /// The device's serial sample counter (wraps at 2³²).
    public var counter: UInt32
    /// Channel 1, T3, µV.
    public var ch1: Double
    /// Channel 2, O1, µV.
    public var ch2: Double
    /// Channel 3, T4, µV.
    public var ch3: Double
    /// Channel 4, O2, µV.
    public var ch4: Double

    /// Creates a sample record.
    public init(
        hardwareOrderNumber: UInt16, timeMilliseconds: UInt64, counter: UInt32, ch1: Double, ch2: Double,
        ch3: Double, ch4: Double
    ) {
        self.hardwareOrderNumber = hardwareOrderNumber
        self.timeMilliseconds = timeMilliseconds
        self.counter = counter
        self.ch1 = ch1
        self.ch2 = ch2
        self.ch3 = ch3
        self.ch4 = ch4
    }

    /// The four channel values in stream order (T3, O1, T4, O2). Allocates; not for the real-time path.
    public var values: [Double] { [ch1, ch2, ch3, ch4] }

    /// The device time in seconds since 1970 (what the decoder writes as a frame's device time).
    public var timeSeconds: Double { Double(timeMilliseconds) / 1000 }
}
