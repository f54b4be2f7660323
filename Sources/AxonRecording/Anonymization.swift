import AxonStreams

/// De-identification applied by Axon's writers: what a file must not carry when it leaves the lab.
///
/// Give it to ``EDFWriter/Options/anonymization`` (EDF+/BDF+, ``EDFSink``, ``EDFConversion``), ``XDFWriter``
/// (``XDFConversion``), ``AxonCSVWriter`` or ``CSVSink``. Each writer then
///
/// - writes no person: EDF+'s anonymous patient field `X X X X` and recording field `Startdate <date> X X X`; XDF
///   stream headers without `hostname`, with `source_id` `anonymous` and `session_id` `default`, and a `desc` that
///   holds only the channels; Axon CSV's descriptor without the source's header fields (``descriptor(_:)``);
/// - names no device or file: the stream's name becomes its content type (`EEG`), its source id `anonymous`, and only
///   technical metadata (formats, rates, column names, filters) is kept;
/// - moves every date by ``shiftDays`` whole days (0 keeps the date; the time of day is kept either way);
/// - drops annotations and markers unless ``keepsAnnotations``: their free text may name a person. Annotations Axon
///   generates itself with a fixed text (`gap: N samples (cause)`, EDF+'s `Recording starts`) are kept, since they say
///   which samples are fill.
///
/// Threading: a value type; share freely.
public struct Anonymization: Sendable, Hashable {
    /// Whole days added to every date written (negative moves it back).
    public var shiftDays: Int
    /// Whether annotations and markers are written (default: dropped).
    public var keepsAnnotations: Bool

    /// Creates a de-identification; by default the date is kept and annotations are dropped.
    public init(shiftDays: Int = 0, keepsAnnotations: Bool = false) {
        self.shiftDays = shiftDays
        self.keepsAnnotations = keepsAnnotations
    }

    /// ``shiftDays`` in seconds.
    public var shiftSeconds: Double { Double(shiftDays) * 86_400 }

    /// The source id written for every stream.
    public static let sourceID = "anonymous"

    /// Metadata keys kept by ``descriptor(_:)``: technical facts about the signal, nothing about a person, a device's
    /// identity, a file name or a date. Every other key (`file`, `edf.patient…`, `edf.recording…`, `edf.startDate`,
    /// `header.*` lines of a source's header, `lsl.hostname`, `xdf.stream.*`, …) is dropped.
    static let technicalKeys: Set<String> = [
        "format", "measuredRate", "board", "gain", "timeZone", "sampleIndex", "irregular", "channelCount", "highpass",
        "filters",
        "edf.records", "edf.recordDuration", "edf.startUnknown", "edf.reserved", "edf.transducer", "edf.prefilter",
        "lsl.channel_format", "axon.counterModulus", "xdf.markers.outside",
    ]
    /// Key prefixes kept by ``descriptor(_:)`` (per-channel technical entries).
    static let technicalPrefixes = [
        Recording.sourceColumnKeyPrefix, "edf.transducer.", "edf.prefilter.", "lsl.channel", "mindMonitor.",
    ]

    /// `descriptor` without what could identify a person or a device: the name becomes the content type (`EEG`;
    /// a stream Axon derives from another, `… Markers`, `… Spectra`, `… Zones`, keeps that word alone), the source
    /// id ``sourceID``, and the metadata keeps only technical keys.
    public func descriptor(_ descriptor: StreamDescriptor) -> StreamDescriptor {
        var result = descriptor
        let derived = ["Markers", "Spectra", "Zones"].first { descriptor.name.hasSuffix(" " + $0) }
        result.name = derived ?? descriptor.contentType.rawValue
        result.sourceID = Self.sourceID
        result.metadata = descriptor.metadata.filter { key, _ in Self.isTechnical(key) }
        return result
    }

    /// Whether a metadata key is technical (kept by ``descriptor(_:)``).
    static func isTechnical(_ key: String) -> Bool {
        technicalKeys.contains(key) || technicalPrefixes.contains { key.hasPrefix($0) }
    }

    /// `unixTime` moved by ``shiftDays``; times before 2001 (a device's seconds since power-on, not a date) are
    /// left alone.
    public func shifted(_ unixTime: Double) -> Double {
        unixTime >= Self.earliestDate ? unixTime + shiftSeconds : unixTime
    }

    /// 2001-01-01 UTC: earlier "Unix times" are a device's own count, not a date (as ``EDFSink`` decides).
    static let earliestDate = 978_307_200.0

    /// The markers a writer writes: all of them with ``keepsAnnotations``, else none.
    public func markers(_ markers: [RecordingMarker]) -> [RecordingMarker] { keepsAnnotations ? markers : [] }
}

extension Optional where Wrapped == Anonymization {
    /// `descriptor` as written: de-identified when anonymizing, else unchanged.
    func descriptor(_ descriptor: StreamDescriptor) -> StreamDescriptor { self?.descriptor(descriptor) ?? descriptor }
    /// A Unix time as written: shifted when anonymizing, else unchanged.
    func shifted(_ unixTime: Double) -> Double { self?.shifted(unixTime) ?? unixTime }
    /// The markers written: all without anonymization.
    func markers(_ markers: [RecordingMarker]) -> [RecordingMarker] { self?.markers(markers) ?? markers }
    /// Whether free-text annotations are written.
    var keepsAnnotations: Bool { self?.keepsAnnotations ?? true }
}
