import AxonStreams

/// Writes a whole in-memory ``Recording`` as XDF with ``XDFWriter`` (the writer `axon record --out x.xdf` uses):
/// one numeric stream with every frame and its time (and one more for each of ``Recording/companions``, the file's
/// streams at other rates), and, when the recording has markers, a text stream with them.
///
/// - **Values** are written as `double64` whatever the source's sample format, so every value reads back as the same
///   `Double` (a `float32` stream would round a Cyton's −50,000 µV offsets to steps of 0.004 µV).
/// - **Times.** With a start EDF could also state (Unix times), each frame's timestamp is its Unix time (the
///   recording's own timestamps, as the file wrote them) and the FileHeader's `unix_time_offset` is 0, so
///   ``XDFReader`` gives the same start back; without one, the timestamps count seconds from the first frame and no
///   offset is written (the start stays unknown), and a gap of the recording (``Recording/gaps``) stays a pause of
///   its length in them.
/// - **Markers** go in a `Markers` stream, one string sample per marker (its text, or `marker <value>`), stamped with
///   its frame's time: ``XDFFile/recording(sourceName:)`` puts each back on the frame stamped nearest to it.
/// - **Anonymized** (``Anonymization``): the timestamps count seconds from the first frame and the start (moved by
///   its days) is the FileHeader's `unix_time_offset`, so no timestamp is a date; the stream headers name no host,
///   device or file; markers are left out unless kept.
///
/// Threading: a pure function of its arguments; runs on the caller's thread.
public enum XDFConversion {
    /// What a conversion wrote.
    public struct Result: Sendable, Hashable {
        /// Frames of the main stream written.
        public var frames: Int
        /// Numeric streams written: the main one and each companion.
        public var streams: Int
        /// Markers written.
        public var markers: Int
        /// Whether the timestamps are Unix times (the start is known).
        public var startIsKnown: Bool
    }

    /// Writes `recording` to `path`.
    ///
    /// - Throws: ``EDFWriterError`` when the file cannot be created or written.
    /// - Complexity: O(frames × channels).
    public static func write(
        _ recording: Recording, to path: String, anonymization: Anonymization? = nil
    ) throws -> Result {
        let start = EDFConversion.start(of: recording)
        // Anonymized, the times are relative and the start travels (shifted by the writer) in the offset alone.
        let origin = anonymization == nil ? 0 : start ?? 0
        let writer = try XDFWriter(
            path: path, unixTimeOffset: start == nil ? nil : origin, anonymization: anonymization)
        var scratch: [UInt8] = []
        var times: [Double] = []
        for (index, part) in recording.streams.enumerated() {
            var descriptor = part.descriptor
            descriptor.format = .float64
            let stream = try writer.addStream(descriptor)
            let partTimes: [Double] = (0..<part.frameCount).map { frame in
                if start != nil, let timestamps = part.timestamps { return timestamps[frame] - origin }
                return (start ?? 0) - origin + Double(frame + part.missingSamples(before: frame)) / part.sampleRate
            }
            if index == 0 { times = partTimes }
            let channels = part.channelCount
            let chunk = 1024
            try partTimes.withUnsafeBufferPointer { times in
                try part.values.withUnsafeBufferPointer { values in
                    var frame = 0
                    while frame < part.frameCount {
                        let count = min(chunk, part.frameCount - frame)
                        let rows = (frame * channels)..<((frame + count) * channels)
                        try writer.appendSamples(
                            stream: stream, timestamps: UnsafeBufferPointer(rebasing: times[frame..<(frame + count)]),
                            values: UnsafeBufferPointer(rebasing: values[rows]), scratch: &scratch)
                        frame += count
                    }
                }
            }
        }
        let kept = anonymization.markers(recording.markers)
        if !kept.isEmpty {
            let markers = try writer.addStream(
                StreamDescriptor(
                    name: "\(recording.descriptor.name) Markers", contentType: .markers,
                    channels: [ChannelInfo(label: "marker", unit: "")], nominalRate: 0, format: .string,
                    sourceID: "\(recording.descriptor.sourceID)/markers"))
            for marker in kept {
                try writer.appendStrings(
                    stream: markers, timestamp: times[marker.frame],
                    strings: [marker.text ?? "marker \(EDFConversion.shortest(marker.value))"])
            }
        }
        try writer.close()
        return Result(
            frames: recording.frameCount, streams: recording.streams.count, markers: kept.count,
            startIsKnown: start != nil)
    }
}
