import AxonStreams

/// What one LSL stream is, read from its `lsl_streaminfo`: the header fields and, when the full description was
/// available, the channel metadata (XDF/LSL meta-data conventions: `desc/channels/channel/{label,unit,type}`).
///
/// Threading: a value type; share freely.
public struct LSLStreamInfo: Sendable, Hashable, Codable {
    /// Stream name.
    public var name: String
    /// Content type (`EEG`, `Markers`, …).
    public var type: String
    /// Channels per sample.
    public var channelCount: Int
    /// Samples per second, 0 for irregular streams.
    public var nominalRate: Double
    /// Value format (liblsl's spelling).
    public var channelFormat: String
    /// The outlet's source id ("" when it gave none).
    public var sourceID: String
    /// Host name of the outlet's machine.
    public var hostname: String
    /// Channel labels from the description (empty when the stream has none).
    public var labels: [String]
    /// Channel units from the description (parallel to `labels`; "" where absent).
    public var units: [String]
    /// Channel types from the description (parallel to `labels`; "" where absent).
    public var channelTypes: [String]

    /// Reads an info handle (not consumed).
    init(handle: UnsafeMutableRawPointer?, library: LSLLibrary) throws(LSLError) {
        let api = library.api
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        name = text(api.name(handle))
        type = text(api.type(handle))
        channelCount = Int(api.channelCount(handle))
        nominalRate = api.nominalRate(handle)
        guard let format = LSLChannelFormat(rawValue: api.channelFormat(handle)) else {
            throw .unsupportedStream("stream \(name) has an unknown channel format \(api.channelFormat(handle))")
        }
        channelFormat = format.description
        sourceID = text(api.sourceID(handle))
        hostname = text(api.hostname(handle))
        labels = []
        units = []
        channelTypes = []
        let channels = api.child(api.description(handle), "channels")
        guard api.isEmpty(channels) == 0 else { return }
        var channel = api.child(channels, "channel")
        while api.isEmpty(channel) == 0 {
            labels.append(text(api.childValueNamed(channel, "label")))
            units.append(text(api.childValueNamed(channel, "unit")))
            channelTypes.append(text(api.childValueNamed(channel, "type")))
            channel = api.nextSiblingNamed(channel, "channel")
        }
    }

    /// The format as a value.
    public var format: LSLChannelFormat? { LSLChannelFormat.allCases.first { $0.description == channelFormat } }

    /// The stream as an Axon descriptor: labels and units from the description (`Ch1…` and "" where the outlet
    /// declared none), the nominal rate, the format and the source id (the name and host when the outlet gave no
    /// source id, so the descriptor still names one source).
    public var descriptor: StreamDescriptor {
        let channels = (0..<channelCount).map { index in
            ChannelInfo(
                label: index < labels.count && !labels[index].isEmpty ? labels[index] : "Ch\(index + 1)",
                unit: index < units.count ? units[index] : "")
        }
        var metadata = ["lsl.hostname": hostname, "lsl.channel_format": channelFormat]
        for (index, kind) in channelTypes.enumerated() where !kind.isEmpty {
            metadata["lsl.channel\(index + 1).type"] = kind
        }
        return StreamDescriptor(
            name: name, contentType: StreamContentType(type), channels: channels, nominalRate: max(0, nominalRate),
            format: format?.sampleFormat ?? .float64, sourceID: sourceID.isEmpty ? "lsl:\(name)@\(hostname)" : sourceID,
            metadata: metadata)
    }
}
