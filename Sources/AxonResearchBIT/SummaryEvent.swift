import Foundation

/// One summary event held on a ResearchBIT device (the SDK's `SummaryData`).
///
/// Threading: a value type; share freely.
public struct SummaryEvent: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The SDK's two event types.
    public enum EventType: UInt8, Sendable, Hashable, Codable, CustomStringConvertible {
        /// Trigger pulls in a session (field 0: the count).
        case triggerPulls = 1
        /// How long the device was awake in that session (field 0: seconds).
        case timeAwake = 2
        /// A sentence for people.
        public var description: String { self == .triggerPulls ? "trigger pulls" : "time awake" }
    }

    /// The device's unique identifier of the event: its identity in the store.
    public var id: UUID
    /// What kind it is.
    public var type: EventType
    /// The event's size in bytes as the device counts it (identifier, type, wake-up time, fields).
    public var size: Int
    /// When the device woke up for the session (Unix seconds): shared by the session's two events.
    public var wakeupTime: UInt32
    /// The values (one today; an array for later fields).
    public var fields: [UInt32]

    /// Creates a value from its fields.
    public init(id: UUID, type: EventType, wakeupTime: UInt32, fields: [UInt32]) {
        self.id = id
        self.type = type
        self.wakeupTime = wakeupTime
        self.fields = fields
        self.size = Self.size(fieldCount: fields.count)
    }

    /// 16 (id) + 1 (type) + 4 (wake-up) + 1 (field count) + 4 per field.
    public static func size(fieldCount: Int) -> Int { 22 + 4 * fieldCount }

    /// A sentence for people.
    public var description: String {
        "\(type) \(fields.map(String.init).joined(separator: ",")) at wake-up \(wakeupTime) (\(id.uuidString))"
    }
}

/// One use of a ResearchBIT device: the trigger-pull event and the time-awake event with the same wake-up time.
///
/// Threading: a value type; share freely.
public struct ResearchBITSession: Sendable, Hashable, Codable {
    /// The shared wake-up time.
    public var wakeupTime: UInt32
    /// Trigger pulls.
    public var triggerPulls: SummaryEvent
    /// Time awake.
    public var timeAwake: SummaryEvent

    /// Trigger pulls in the session.
    public var pulls: UInt32 { triggerPulls.fields.first ?? 0 }
    /// Seconds awake.
    public var awakeSeconds: UInt32 { timeAwake.fields.first ?? 0 }

    /// Pairs events into sessions by wake-up time: each session has one event of each type with the same wake-up
    /// time. Events without a partner (yet: its partner may come in the next fetch) are returned unpaired; a second
    /// event of the same type and wake-up time is unpaired too.
    ///
    /// Complexity: O(n log n).
    public static func pair(_ events: [SummaryEvent]) -> (sessions: [ResearchBITSession], unpaired: [SummaryEvent]) {
        var byTime: [UInt32: (pulls: [SummaryEvent], awake: [SummaryEvent])] = [:]
        for event in events {
            switch event.type {
            case .triggerPulls: byTime[event.wakeupTime, default: ([], [])].pulls.append(event)
            case .timeAwake: byTime[event.wakeupTime, default: ([], [])].awake.append(event)
            }
        }
        var sessions: [ResearchBITSession] = []
        var unpaired: [SummaryEvent] = []
        for time in byTime.keys.sorted() {
            let group = byTime[time]!
            let n = min(group.pulls.count, group.awake.count)
            for i in 0..<n {
                sessions.append(
                    ResearchBITSession(wakeupTime: time, triggerPulls: group.pulls[i], timeAwake: group.awake[i]))
            }
            unpaired += group.pulls.dropFirst(n) + group.awake.dropFirst(n)
        }
        return (sessions, unpaired)
    }
}
