/// A snapshot of what a Brainiac headset's decoder has seen: statistics, latest battery level and status, last
/// rejection.
///
/// Threading: a value type; share freely. ``SimulatedBrainiacHeadset/state()`` hands out copies on any thread.
public struct BrainiacHeadsetState: Sendable, Hashable {
    /// What the decoder decoded and rejected.
    public var statistics = BrainiacDecoderStatistics()
    /// The latest battery level in percent, `nil` before the first battery notification.
    public var batteryLevel: Int?
    /// The latest status, `nil` before the first status notification.
    public var status: BrainiacStatus?
    /// The latest rejected notification's error, `nil` if none.
    public var lastError: BrainiacPacketError?
    /// Notifications the headset sent, damaged ones included.
    public var notificationsSent = 0
    /// Whether the headset is producing (between the start and the end of `run`).
    public var isRunning = false

    /// Creates an empty state.
    public init() {}
}

/// Something a Brainiac headset reported besides samples, for a status line or a log.
///
/// Threading: a value type; share freely.
public enum BrainiacHeadsetEvent: Sendable, Hashable {
    /// A battery notification: the level in percent.
    case battery(level: Int)
    /// A status notification.
    case status(BrainiacStatus)
    /// A notification was rejected; its samples, if any, are lost (the stream shows a counter gap).
    case rejected(BrainiacPacketError)
}
