/// What a stream is: the identity and shape every sink and consumer relies on.
///
/// Modelled on LSL's stream info. Two descriptors that compare equal describe the same stream; the `sourceID`
/// stays the same across reconnects of one device, so a recording resumed after a link loss joins the same
/// stream.
///
///     let eeg = StreamDescriptor(
///         name: "Brainiac EEG", contentType: .eeg,
///         channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") },
///         nominalRate: 250, format: .float32, sourceID: "brainiac-00:11:22:33:44:55")
///
/// Threading: a value type; share freely.
public struct StreamDescriptor: Sendable, Hashable, Codable {
    /// Human-readable stream name ("Brainiac EEG").
    public var name: String
    /// What the stream carries.
    public var contentType: StreamContentType
    /// One entry per channel, in sample order. Event streams have one logical channel (the payload).
    public var channels: [ChannelInfo]
    /// Samples per second for regular streams; 0 for irregular (event) streams.
    public var nominalRate: Double
    /// The device's native sample format (what a lossless file writer should keep).
    public var format: SampleFormat
    /// Identifies the data source, stable across reconnects (for example a device serial or address).
    public var sourceID: String
    /// Free-form extra facts (device model, firmware, montage, …).
    public var metadata: [String: String]

    /// Creates a descriptor; see the properties for the meaning of each field.
    public init(
        name: String, contentType: StreamContentType, channels: [ChannelInfo], nominalRate: Double,
        format: SampleFormat, sourceID: String, metadata: [String: String] = [:]
    ) {
        precondition(nominalRate >= 0 && nominalRate.isFinite, "nominal rate must be finite and ≥ 0")
        self.name = name
        self.contentType = contentType
        self.channels = channels
        self.nominalRate = nominalRate
        self.format = format
        self.sourceID = sourceID
        self.metadata = metadata
    }

    /// Number of channels.
    public var channelCount: Int { channels.count }

    /// Whether samples arrive at a fixed nominal rate.
    public var isRegular: Bool { nominalRate > 0 }

    /// Seconds between samples at the nominal rate, or `nil` for irregular streams.
    public var samplePeriod: Double? { isRegular ? 1 / nominalRate : nil }
}

/// One channel of a stream: its label and physical unit, optionally its declared range.
public struct ChannelInfo: Sendable, Hashable, Codable {
    /// Channel label, for example an electrode position ("O1").
    public var label: String
    /// Physical unit ("µV", "bpm", "kg", "rpm").
    public var unit: String
    /// The physical range the device can produce, if declared; file writers derive their scaling from it.
    public var range: ClosedRange<Double>?
    /// The label as the source wrote it, when a reader changed ``label`` to tell duplicates apart (`"EEG"` for
    /// `"EEG-0"`); `nil` when ``label`` is as written.
    public var writtenLabel: String?

    /// Creates a channel description.
    public init(label: String, unit: String, range: ClosedRange<Double>? = nil, writtenLabel: String? = nil) {
        self.label = label
        self.unit = unit
        self.range = range
        self.writtenLabel = writtenLabel
    }
}

/// What a stream carries. Open-ended: adapters may define their own (`StreamContentType("Spirometry")`).
public struct StreamContentType: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The type's name, as LSL writes it ("EEG", "Markers").
    public var rawValue: String

    /// Creates a content type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a content type from its name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// Creates a content type from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The name.
    public var description: String { rawValue }

    /// Electroencephalography.
    public static let eeg: Self = "EEG"
    /// Heart rate.
    public static let heartRate: Self = "HeartRate"
    /// Body weight and composition.
    public static let weight: Self = "Weight"
    /// Vehicle OBD-II data.
    public static let obd: Self = "OBD"
    /// Activity (steps, calories, distance, sport sessions).
    public static let activity: Self = "Activity"
    /// Sleep segments.
    public static let sleep: Self = "Sleep"
    /// Event markers (user marks, stimuli, annotations).
    public static let markers: Self = "Markers"
    /// Device status changes.
    public static let status: Self = "Status"
    /// Processed EEG results (spectra, dominant frequencies, indicators).
    public static let eegFeatures: Self = "EEGFeatures"
}

/// How a device represents one value natively. Samples travel as `Double` inside Axon; the format tells file
/// writers what precision the source really had.
public enum SampleFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// 32-bit IEEE float.
    case float32
    /// 64-bit IEEE float.
    case float64
    /// Signed 16-bit integer.
    case int16
    /// Signed 24-bit integer (BDF, many EEG ADCs).
    case int24
    /// Signed 32-bit integer.
    case int32
    /// Signed 64-bit integer.
    case int64
    /// Text (markers).
    case string
    /// A structured event payload.
    case event
}
