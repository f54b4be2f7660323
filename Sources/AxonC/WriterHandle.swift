// AxonC — what an axon_writer handle holds: Axon's EDF+/BDF+ writer and one frame gathered from channel-major input.

import AxonRecording

/// A file being written through the C interface: ``AxonRecording/EDFWriter`` fed channel-major blocks.
///
/// Threading: one thread at a time (`axon.h`).
final class WriterHandle {
    let writer: EDFWriter
    let channelCount: Int
    /// One frame of the caller's block, in the writer's order.
    private var frame: [Double]

    init(_ writer: EDFWriter) {
        self.writer = writer
        channelCount = writer.descriptor.channelCount
        frame = Array(repeating: 0, count: channelCount)
    }

    /// The registry's name for this kind of handle, in messages.
    static let kind = "writer"

    /// The writer behind `handle`.
    static func from(_ handle: OpaquePointer?, in function: String) throws(CallFailure) -> WriterHandle {
        try HandleRegistry.shared.object(handle, as: WriterHandle.self, kind: kind, in: function)
    }

    /// Appends `count` channel-major frames (`samples[c * count + i]`), one frame at a time.
    func append(_ samples: UnsafePointer<Double>, count: Int) throws(EDFWriterError) {
        for index in 0..<count {
            for channel in 0..<channelCount { frame[channel] = samples[channel * count + index] }
            let result: Result<Void, EDFWriterError> = frame.withUnsafeBufferPointer { values in
                Result { () throws(EDFWriterError) in try writer.append(values) }
            }
            try result.get()
        }
    }
}
