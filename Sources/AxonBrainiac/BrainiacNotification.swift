/// The header fields every Brainiac notification carries (``BrainiacPacketLayout`` bytes 2–15).
///
/// Threading: a value type; share freely.
public struct BrainiacNotificationHeader: Sendable, Hashable {
    /// +1 per notification of any type; wraps at 65 536.
    public var hardwareOrderNumber: UInt16
    /// The device's sample counter: of the first sample (EEG) or of the next sample (battery, status).
    public var counter: UInt32
    /// The device's time in milliseconds since 1970: of the first sample (EEG) or of sending (battery, status).
    public var timeMilliseconds: UInt64

    /// Creates a header.
    public init(hardwareOrderNumber: UInt16, counter: UInt32, timeMilliseconds: UInt64) {
        self.hardwareOrderNumber = hardwareOrderNumber
        self.counter = counter
        self.timeMilliseconds = timeMilliseconds
    }
}

/// What one valid Brainiac notification said: the decoder's typed result.
///
/// EEG samples themselves go to the stream's `FrameWriter`; the result says how many there were. Battery and
/// status reports never go on the ring: they come back here (and into ``BrainiacDecoder/batteryLevel`` and
/// ``BrainiacDecoder/status``).
///
/// Threading: a value type; share freely.
public enum BrainiacNotification: Sendable, Hashable {
    /// EEG samples, written to the frame writer.
    case eeg(BrainiacNotificationHeader, sampleCount: Int)
    /// The battery level in percent, 0…100.
    case battery(BrainiacNotificationHeader, level: Int)
    /// A status message.
    case status(BrainiacNotificationHeader, BrainiacStatus)

    /// The header of the notification.
    public var header: BrainiacNotificationHeader {
        switch self {
        case .eeg(let header, _), .battery(let header, _), .status(let header, _): header
        }
    }

    /// The packet type of the notification.
    public var type: BrainiacPacketType {
        switch self {
        case .eeg: .eeg
        case .battery: .battery
        case .status: .status
        }
    }
}
