import AxonStreams

/// Writes a whole in-memory ``Recording`` as EDF+ or BDF+: its samples, its start time, and its markers as
/// annotations (marker text, or `marker <value>` for a marker without text).
///
/// Threading: a pure function of its arguments; runs on the caller's thread.
public enum EDFConversion {
    /// What a conversion wrote.
    public struct Result: Sendable, Hashable {
        /// Data records written.
        public var records: Int
        /// Annotations written (the recording start included).
        public var annotations: Int
        /// Samples clipped to the physical range, per channel.
        public var clipped: [Int]
    }

    /// Writes `recording` to `path`.
    ///
    /// - Parameters:
    ///   - format: EDF+ (16-bit) or BDF+ (24-bit).
    ///   - range: one physical range for every channel; `nil` uses each channel's declared range, else the format's
    ///     default. Samples outside are clipped and counted.
    /// - Throws: ``EDFWriterError`` if the file cannot be created or written.
    public static func write(
        _ recording: Recording, to path: String, format: EDFWriter.Format, range: ClosedRange<Double>? = nil
    ) throws(EDFWriterError) -> Result {
        var options = EDFWriter.Options(format: format)
        if let range { options.ranges = Array(repeating: range, count: recording.channelCount) }
        let start = recording.startTime ?? HostClock.unixNow()
        let writer = try EDFWriter(
            path: path, descriptor: recording.descriptor, startUnixTime: start, options: options)
        for marker in recording.markers {
            let text = marker.text ?? "marker \(marker.value)"
            writer.annotate(onset: Double(marker.frame) / recording.sampleRate, text: text)
        }
        let stride = recording.channelCount
        try recording.values.withUnsafeBufferPointer { (rows) throws(EDFWriterError) in
            try writer.append(rows: rows, stride: stride, valueOffset: 0, frameCount: recording.frameCount)
        }
        try writer.close()
        return Result(records: writer.recordCount, annotations: writer.annotationsWritten, clipped: writer.clippedSamples)
    }
}
