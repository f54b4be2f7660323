/// The Brainiac notification layout, version 1: the bytes of one Bluetooth LE notification.
///
/// The vendor's own layout is not public, so Axon defines this one; `docs/brainiac-packet.md` is the same
/// specification with worked examples. Every multi-byte field is little-endian. One notification carries one
/// packet of one type; every type shares a 16-byte header and ends with a CRC-8.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | version, `1` |
/// | 1 | 1 | packet type: `0x01` EEG samples, `0x02` battery level, `0x03` status message (``BrainiacPacketType``) |
/// | 2 | 2 | hardware order number, `UInt16`: +1 per notification of any type, wraps at 65 536 |
/// | 4 | 4 | counter, `UInt32`: the device's sample counter (EEG: of the first sample; others: of the next sample) |
/// | 8 | 8 | device time, `UInt64` milliseconds since 1970 (EEG: of the first sample; others: when sent) |
/// | 16 | … | body (below) |
/// | last | 1 | CRC-8 over every preceding byte (``crc8(_:)-(UnsafeRawBufferPointer)``) |
///
/// Bodies:
/// - **EEG** (`0x01`): one byte sample count `N` (1…10), then `N` samples × 4 channels (T3, O1, T4, O2, sample
///   by sample) as signed 24-bit two's-complement little-endian counts of 0.05 µV. Range ±8 388 607 counts
///   = ±419 430.35 µV (≈ ±419 mV) at 0.05 µV resolution. Sample `i` has counter `counter + i` (modulo 2³²) and
///   device time `time + 4·i` ms (250 Hz). Size `18 + 12·N`: 30 to 138 bytes.
/// - **Battery** (`0x02`): one byte, the level in percent, 0…100. Size 18.
/// - **Status** (`0x03`): one byte, a ``BrainiacStatus`` code (the vendor SDK's `CBManagerMessage`, 0…15).
///   Size 18.
///
/// A decoder checks, in this order: not empty; version `1`; at least 18 bytes; a known type; for EEG a sample
/// count of 1…10; the exact length the type (and sample count) implies; the CRC-8; then the battery range or
/// the status code. The first failing check names the ``BrainiacPacketError``.
///
/// The counter counts samples, not notifications, so a lost notification shows as a counter jump of `N`;
/// the hardware order number shows lost notifications of every type.
///
/// Threading: constants and pure functions; use from any thread.
public enum BrainiacPacketLayout {
    /// The layout version this module reads and writes.
    public static let version: UInt8 = 1
    /// Bytes of the common header (version, type, order number, counter, device time).
    public static let headerSize = 16
    /// Bytes of the trailing CRC-8.
    public static let checksumSize = 1
    /// The smallest valid notification (battery and status; EEG is at least 30).
    public static let minimumSize = headerSize + 1 + checksumSize
    /// The most EEG samples one notification carries.
    public static let maximumSamplesPerNotification = 10
    /// Channels per EEG sample.
    public static let channelCount = 4
    /// Bytes of one channel value (signed 24-bit).
    public static let bytesPerValue = 3
    /// Bytes of one EEG sample (4 channels × 3 bytes).
    public static let bytesPerSample = channelCount * bytesPerValue
    /// The largest payload of one Bluetooth LE notification at the largest ATT MTU (247 − 3).
    public static let maximumNotificationSize = 244
    /// Counts per microvolt: one count is 0.05 µV. Decoding divides by this (exact for every count).
    public static let countsPerMicrovolt = 20.0
    /// The smallest raw count (−2²³).
    public static let minimumCount: Int32 = -8_388_608
    /// The largest raw count (2²³ − 1).
    public static let maximumCount: Int32 = 8_388_607
    /// Milliseconds between consecutive samples (250 Hz).
    public static let samplePeriodMilliseconds: UInt64 = 4
    /// The sample counter wraps to 0 at this value (2³²); give it to `StreamTimeline.Configuration`.
    public static let counterModulus: UInt64 = 1 << 32
    /// The hardware order number wraps to 0 at this value (2¹⁶).
    public static let orderNumberModulus = 1 << 16
    /// The highest battery level.
    public static let maximumBatteryLevel = 100

    /// Byte offset of the version.
    public static let versionOffset = 0
    /// Byte offset of the packet type.
    public static let typeOffset = 1
    /// Byte offset of the hardware order number.
    public static let orderNumberOffset = 2
    /// Byte offset of the counter.
    public static let counterOffset = 4
    /// Byte offset of the device time.
    public static let timeOffset = 8
    /// Byte offset of the body (EEG sample count, battery level or status code).
    public static let bodyOffset = 16
    /// Byte offset of the first EEG sample value.
    public static let firstValueOffset = bodyOffset + 1

    /// The size of an EEG notification with `sampleCount` samples.
    @inlinable
    public static func eegSize(sampleCount: Int) -> Int {
        headerSize + 1 + sampleCount * bytesPerSample + checksumSize
    }

    /// The largest EEG notification (10 samples, 138 bytes).
    public static let maximumEEGSize = eegSize(sampleCount: maximumSamplesPerNotification)

    /// The size of battery and status notifications.
    public static let eventSize = minimumSize

    /// The µV value of a raw count.
    @inlinable
    public static func microvolts(fromCount count: Int32) -> Double { Double(count) / countsPerMicrovolt }

    /// The nearest raw count of a µV value, saturated to the 24-bit range like an ADC; `nil` for NaN or ±∞.
    @inlinable
    public static func count(fromMicrovolts value: Double) -> Int32? {
        guard value.isFinite else { return nil }
        let scaled = (value * countsPerMicrovolt).rounded()
        if scaled <= Double(minimumCount) { return minimumCount }
        if scaled >= Double(maximumCount) { return maximumCount }
        return Int32(scaled)
    }
}
