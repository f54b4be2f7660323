import AxonEEG
import AxonStreams
import Foundation

/// A device's checkpoint in the `axon_checkpoints` bucket (key `dev.<partition>.<device>`): where its stream
/// stands (session, next frame, the raw stream sequence it covers) and its engine's state.
///
/// Threading: a plain value, `Sendable`.
public struct FleetDeviceCheckpoint: Sendable, Codable {
    /// The device.
    public var device: String
    /// Its stream.
    public var descriptor: StreamDescriptor
    /// The gateway session of the last batch processed.
    public var epoch: UInt64
    /// The first frame of the next batch expected.
    public var nextFrame: UInt64
    /// Time of its last frame (Unix seconds): a new session's gap is measured from it.
    public var lastTime: Double
    /// The last raw-stream sequence processed for this device.
    public var streamSequence: UInt64
    /// The engine stage's state.
    public var processor: EEGProcessor.Snapshot
    /// The worker that wrote it.
    public var worker: String

    /// `dev.<partition>.<device>`.
    public static func key(_ device: String) -> String { "dev.\(FleetSubjects.partition(of: device)).\(device)" }
}

/// A partition's checkpoint (key `part.<partition>` in `axon_checkpoints`): the raw-stream sequence every device
/// checkpoint of the partition covers; the next owner resumes the partition's consumer just after it.
public struct FleetPartitionCheckpoint: Sendable, Codable {
    /// Last raw-stream sequence covered.
    public var streamSequence: UInt64
    /// The worker that wrote it.
    public var worker: String
}

enum FleetJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}
