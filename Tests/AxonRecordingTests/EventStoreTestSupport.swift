import AxonStreams
import Foundation

@testable import AxonRecording

/// A fresh folder under the system's temporary directory, removed when the value goes away.
final class EventStoreTemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("axon-eventstore-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A scale's stored weighing: the payload the tests store.
struct ScaleReading: Codable, Sendable, Hashable {
    var kg: Double
    var impedance: Int
}

enum EventStoreFixtures {
    /// An irregular weight stream from one scale.
    static func scaleDescriptor(sourceID: String = "scale-0042", unit: String = "kg") -> StreamDescriptor {
        StreamDescriptor(
            name: "Weight", contentType: "Weight", channels: [ChannelInfo(label: "weight", unit: unit)],
            nominalRate: 0, format: .event, sourceID: sourceID, metadata: ["model": "BS-1", "firmware": "1.0.3"])
    }

    /// A band's sleep segments: a second stream, with a name and source id that need sanitizing.
    static let sleepDescriptor = StreamDescriptor(
        name: "Sleep segments (v2)", contentType: "Sleep", channels: [ChannelInfo(label: "stage", unit: "")],
        nominalRate: 0, format: .event, sourceID: "AA:BB:CC:DD:EE:FF")
}
