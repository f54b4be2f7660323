import AxonStreams

/// Axon's own CSV layout, shared by ``AxonCSVReader``, ``AxonCSVWriter`` and the pipeline's CSV sink.
///
/// ```
/// # axon-csv 1
/// # descriptor {"channels":[{"label":"O1","unit":"µV"}],"contentType":"EEG",…}
/// sample,host_time,device_time,counter,O1 (µV),O2 (µV)
/// 0,12.004,1557936053.329,17,-1.5,2.25
/// 1,12.008,,,-1.25,2.5
/// ```
///
/// - Line 1: ``signature``.
/// - Line 2: ``descriptorPrefix`` + the stream's ``AxonStreams/StreamDescriptor`` as one line of JSON (`JSONEncoder`,
///   sorted keys).
/// - Line 3: the header row: ``fixedColumns``, then one `<label> (<unit>)` column per channel, in frame order.
/// - Then one row per sample: `sample` (the sample's index, a non-negative integer), `host_time` (host monotonic
///   seconds; for a file written from a ``Recording``, the recording's own time of the frame), `device_time` (the
///   device's timestamp in seconds, empty when absent), `counter` (the device counter, empty when absent), then
///   the values. Numbers are written with Swift's shortest round-trip form, so a read gives back the same `Double`s.
///
/// - Markers (optional): lines `# marker FRAME,VALUE[,TEXT]` anywhere after the header row (``AxonCSVWriter``
///   writes them after the last row): FRAME counts data rows from 0, VALUE is the marker's number, TEXT (the rest of
///   the line, newlines written as spaces) its text when it has one. Readers before markers existed refuse a file
///   that has some; a file without markers is unchanged.
///
/// Threading: constants; any thread.
public enum AxonCSVFormat {
    /// The start of a marker line.
    public static let markerPrefix = "# marker "
    /// The first line.
    public static let signature = "# axon-csv 1"
    /// The start of the second line, before the descriptor's JSON.
    public static let descriptorPrefix = "# descriptor "
    /// The columns before the channels.
    public static let fixedColumns = ["sample", "host_time", "device_time", "counter"]

    /// The header name of a channel's column: `"O1 (µV)"`.
    public static func columnName(for channel: ChannelInfo) -> String {
        "\(channel.label) (\(channel.unit))"
    }

    /// The whole header row for a descriptor (no line terminator).
    public static func headerRow(for descriptor: StreamDescriptor) -> String {
        (fixedColumns + descriptor.channels.map(columnName(for:))).joined(separator: ",")
    }
}
