/// What an XDF file holds, as ``XDFReader`` reads it.
///
/// Threading: value types; share freely.
public struct XDFFile: Sendable, Equatable {
    /// One stream of the file.
    public struct Stream: Sendable, Equatable {
        /// The stream id of its chunks.
        public var id: UInt32
        /// `name` of the header.
        public var name: String
        /// `type` of the header.
        public var type: String
        /// `channel_count`.
        public var channelCount: Int
        /// `nominal_srate` (0: irregular).
        public var nominalRate: Double
        /// `channel_format`.
        public var format: XDFChannelFormat
        /// `source_id`.
        public var sourceID: String
        /// Channel labels from `desc/channels/channel/label` (empty when the header has none).
        public var labels: [String]
        /// Channel units, parallel to `labels`.
        public var units: [String]
        /// One timestamp per sample.
        public var timestamps: [Double]
        /// Numeric values, sample-major (`timestamps.count × channelCount`); empty for text streams.
        public var values: [Double]
        /// Text values, sample-major; empty for numeric streams.
        public var strings: [String]
        /// The clock offsets (collection time, value).
        public var clockOffsets: [ClockOffset]
        /// `sample_count` of the footer, or nil when the file has no footer for the stream.
        public var footerSampleCount: Int?
        /// The StreamHeader's XML as written (every field, `desc` included; ``IdentifyingFields`` reads it).
        public var headerXML: String = ""

        /// Samples read.
        public var sampleCount: Int { timestamps.count }

        /// The timestamps on the recording machine's clock: each plus the clock offset at its time, interpolated
        /// linearly between ClockOffset chunks and held at the nearest one outside them (pyxdf fits one line through
        /// all of a stream's offsets instead; for offsets that drift by microseconds the two agree to far below a
        /// sample). The timestamps as stored when the stream has no offsets.
        public var synchronizedTimestamps: [Double] {
            guard !clockOffsets.isEmpty else { return timestamps }
            // The offsets' collection times on the stream's own clock, to compare with its timestamps.
            let points = clockOffsets.map { (time: $0.time - $0.value, value: $0.value) }
            var next = 0
            return timestamps.map { stamp in
                while next < points.count, points[next].time < stamp { next += 1 }
                if next == 0 { return stamp + points[0].value }
                if next == points.count { return stamp + points[points.count - 1].value }
                let before = points[next - 1]
                let after = points[next]
                let span = after.time - before.time
                let weight = span > 0 ? (stamp - before.time) / span : 1
                return stamp + before.value + weight * (after.value - before.value)
            }
        }
    }

    /// One ClockOffset chunk.
    public struct ClockOffset: Sendable, Equatable {
        /// When it was measured (the recording machine's clock).
        public var time: Double
        /// The offset to add to the stream's timestamps.
        public var value: Double
    }

    /// The streams, by id order of their headers.
    public var streams: [Stream]
    /// Boundary chunks seen.
    public var boundaryCount: Int
    /// Bytes after the last whole chunk (a file cut short, for example by a crash), 0 for an intact file.
    public var trailingBytes: Int
    /// The FileHeader's `datetime` as written (LabRecorder: when the file was created), or nil.
    public var datetime: String? = nil
    /// The FileHeader's `unix_time_offset` (``XDFWriter/unixTimeOffsetElement``, Axon's): what to add to the
    /// synchronised timestamps for Unix time; nil when the file has none.
    public var unixTimeOffset: Double? = nil
    /// The FileHeader's XML as written, or nil when the file has none.
    public var fileHeaderXML: String? = nil
}
