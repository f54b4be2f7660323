import Foundation
import AxonStreams

/// Writes a whole in-memory ``Recording`` as EDF+ or BDF+: its samples on ranges chosen from the data
/// (``EDFChannelPlan``), its start time, and its markers as annotations (marker text, or `marker <value>` for a
/// marker without text).
///
/// - **Ranges.** Each channel's physical range comes from ``EDFChannelPlan/plan(_:format:range:)`` (a first pass
///   over the data) unless the caller passes plans of its own; ``Result/plans`` says per channel the step, the RMS and
///   what was clipped.
/// - **Start.** The recording's first timestamp when it is a date EDF can hold (1985…2084); otherwise (no
///   timestamps, or times counted from a device's power-on) the file says EDF+'s unknown start date (`Startdate X`),
///   never the conversion's time nor 1970.
/// - **Annotations.** Only the recording's markers, and its gaps: a conversion adds no "Recording starts" of its own,
///   so a file converted again and again keeps one.
/// - **Identification.** An EDF/BDF source's patient and recording subfields (code, sex, birthdate, name, admin
///   code, technician, equipment, as EDFlib reads them into `metadata["edf.*"]`) are written again; with an
///   ``Anonymization`` none are, the start date moves by its days and markers are dropped unless kept.
/// - **Prefiltering.** Each stream's `metadata["edf.prefilter"]` (a source's, when all its signals share one, with
///   any filter the caller applied appended: `HP:1Hz LP:50Hz N:60Hz`) is its signals' prefiltering field.
/// - **Gaps.** Each of ``Recording/gaps`` is written as ``EDFSink`` writes a live ``AxonStreams/GapRecord``: an
///   annotation `gap: N samples (cause)` at the first missing sample and N samples of each channel's last value (EDF+C
/// stays
///   continuous), so every later sample and marker keeps its time.
/// - **Records.** 1 s data records when the rate is a whole number of hertz, else the shortest of 2, 4, 5, 10, 0.5,
///   0.25, 0.2, 0.1 s that holds a whole number of samples. The last record is padded with each channel's last value
///   (``Result/padded``).
/// - **Several rates.** A recording with ``Recording/companions`` (an EDF's signals at other rates, an XDF's other
///   streams) is written whole: every stream's channels are signals of the file, each with its own samples per
///   record, after the main stream's (EDF allows it; pyedflib and EDFlib read each at its rate, MNE resamples them
///   to the highest). The record duration is the source EDF's when it holds a whole number of samples of every rate,
///   else the first of the durations above that does; a stream shorter than the others is padded with its last
///   values to the same number of records. EDF's signals share one start and have no gaps of their own, so a
///   recording whose streams have gaps or start at different times is refused (``companionProblem(_:)``).
///
/// Threading: a pure function of its arguments; runs on the caller's thread.
public enum EDFConversion {
    /// What a conversion wrote.
    public struct Result: Sendable, Hashable {
        /// Data records written.
        public var records: Int
        /// Seconds per data record.
        public var recordDuration: Double
        /// Annotations written.
        public var annotations: Int
        /// Annotation texts cut to fit a record.
        public var truncatedAnnotations: Int
        /// Samples clipped to the physical range (or NaN), per channel, as written.
        public var clipped: [Int]
        /// Samples per channel added to complete the last record (each channel's last value).
        public var padded: Int
        /// Whether the header states the start (else EDF+'s unknown start date).
        public var startIsKnown: Bool
        /// The channels' ranges, steps and RMS.
        public var plans: [EDFChannelPlan]
    }

    /// The record duration for `rate`: 1 s when the rate is a whole number of hertz, else the first of
    /// 2, 4, 5, 10, 0.5, 0.25, 0.2, 0.1 s that holds a whole number of samples; `nil` when none does.
    public static func recordDuration(rate: Double) -> Double? {
        for duration in [1, 2, 4, 5, 10, 0.5, 0.25, 0.2, 0.1] {
            let samples = rate * duration
            if samples >= 1, abs(samples - samples.rounded()) < 1e-6 { return duration }
        }
        return nil
    }

    /// Why the streams of `recording` cannot be signals of one EDF file, or `nil` when they can (or there is one):
    /// a gap in any stream (fill would shift the others), an irregular stream (`metadata["irregular"]`: Mind
    /// Monitor's band powers), or a stream that starts more than half a sample (of the main stream) away from the
    /// main one (EDF signals share the header's start).
    public static func companionProblem(_ recording: Recording) -> String? {
        guard !recording.companions.isEmpty else { return nil }
        if recording.streams.contains(where: { !$0.gaps.isEmpty }) {
            return "its streams at several rates have gaps, which EDF could only fill in one of them"
        }
        if let irregular = recording.companions.first(where: { $0.descriptor.metadata["irregular"] != nil }) {
            return "the stream \(irregular.descriptor.name) is irregular (one sample per update), and EDF signals "
                + "have a fixed rate"
        }
        let start = recording.startTime
        for companion in recording.companions {
            if let start, let theirs = companion.startTime, abs(theirs - start) > 0.5 / recording.sampleRate {
                return "the stream at \(companion.sampleRate) Hz starts \(theirs - start) s after the main one, "
                    + "and EDF signals share one start"
            }
        }
        return nil
    }

    /// The record duration for every stream of `recording` (``Recording/streams``): for one stream
    /// ``recordDuration(rate:)``; for several, the source EDF's record duration (`metadata["edf.recordDuration"]`)
    /// when it holds a whole number of samples of each rate, else the first of 1, 2, 4, 5, 10, 0.5, 0.25, 0.2, 0.1 s
    /// that does; `nil` when none does.
    public static func recordDuration(for recording: Recording) -> Double? {
        guard !recording.companions.isEmpty else { return recordDuration(rate: recording.sampleRate) }
        let rates = recording.streams.map(\.sampleRate)
        func fits(_ duration: Double) -> Bool {
            rates.allSatisfy { rate in
                let samples = rate * duration
                return samples >= 1 && abs(samples - samples.rounded()) < 1e-6
            }
        }
        if let source = recording.descriptor.metadata["edf.recordDuration"].flatMap(Double.init), source > 0,
            fits(source)
        {
            return source
        }
        return [1, 2, 4, 5, 10, 0.5, 0.25, 0.2, 0.1].first(where: fits)
    }

    /// The recording's start as EDF can state it: its first timestamp when that is a date in 1985…2084, else `nil`
    /// (unknown).
    public static func start(of recording: Recording) -> Double? {
        guard let start = recording.startTime,
            start > EDFHeaderBuilder.earliestStart, start < EDFHeaderBuilder.latestStart
        else { return nil }
        return start
    }

    /// Writes `recording` to `path`.
    ///
    /// - Parameters:
    ///   - format: EDF+ (16-bit) or BDF+ (24-bit).
    ///   - range: one physical range for every channel; `nil` chooses each channel's from the data
    ///     (``EDFChannelPlan``). Samples outside are clipped and counted.
    ///   - plans: ranges already planned (``EDFChannelPlan/plan(_:format:range:)``), one per channel of every stream
    ///     (``Recording/streams``, in order); overrides `range`.
    /// - Throws: ``EDFWriterError`` if a rate has no whole number of samples per record, a range does not fit the
    ///   header, or the file cannot be created or written.
    /// - Complexity: O(frames × channels): one pass to plan (unless given), one to write.
    public static func write(
        _ recording: Recording, to path: String, format: EDFWriter.Format, range: ClosedRange<Double>? = nil,
        plans planned: [EDFChannelPlan]? = nil, anonymization: Anonymization? = nil
    ) throws(EDFWriterError) -> Result {
        if let problem = companionProblem(recording) { throw .unsupportedStream(reason: problem) }
        let plans: [EDFChannelPlan]
        if let planned {
            plans = planned
        } else {
            var all: [EDFChannelPlan] = []
            for stream in recording.streams { all += try EDFChannelPlan.plan(stream, format: format, range: range) }
            plans = all
        }
        let streams = recording.streams
        precondition(plans.count == streams.reduce(0) { $0 + $1.channelCount }, "one plan per channel")
        guard let duration = recordDuration(for: recording) else {
            let rate = streams.map(\.sampleRate).first { recordDuration(rate: $0) == nil } ?? recording.sampleRate
            throw .nonIntegerSamplesPerRecord(rate: rate, recordDuration: 1)
        }
        // One header update and one sync at close: a conversion is rewritten whole if interrupted.
        var options = EDFWriter.Options(
            format: format, recordDuration: duration, flushInterval: 1 << 20, synchronizes: false,
            ranges: plans.map(\.range), startAnnotation: nil)
        let start = Self.start(of: recording)
        options.startDateIsKnown = start != nil
        Self.identify(&options, from: recording.descriptor.metadata)
        options.anonymization = anonymization
        var descriptor = recording.descriptor
        if streams.count > 1 {
            descriptor.channels = streams.flatMap(\.descriptor.channels)
            options.channelRates = streams.flatMap { Array(repeating: $0.sampleRate, count: $0.channelCount) }
            // Each stream's own prefiltering: a filter applied to one stream only is said for its signals only.
            let prefilters = streams.map { $0.descriptor.metadata["edf.prefilter"] ?? "" }
            if Set(prefilters).count > 1 {
                options.channelPrefiltering = zip(streams, prefilters).flatMap {
                    Array(repeating: $1, count: $0.channelCount)
                }
            }
        }
        let writer = try EDFWriter(
            path: path, descriptor: descriptor, startUnixTime: start ?? EDFHeaderBuilder.earliestStart,
            options: options)
        for marker in recording.markers {
            let text = marker.text ?? "marker \(Self.shortest(marker.value))"
            let sample = marker.frame + recording.missingSamples(before: marker.frame)
            writer.annotate(onset: Double(sample) / recording.sampleRate, text: text)
        }
        if streams.count > 1 {
            let padded = try writeRecords(of: streams, to: writer, duration: duration)
            try writer.close()
            return Result(
                records: writer.recordCount, recordDuration: duration, annotations: writer.annotationsWritten,
                truncatedAnnotations: writer.truncatedAnnotationCount, clipped: writer.clippedSamples,
                padded: padded, startIsKnown: writer.startIsKnown, plans: plans)
        }
        let stride = recording.channelCount
        try recording.values.withUnsafeBufferPointer { (rows) throws(EDFWriterError) in
            // Each gap as the EDF sink writes one: an annotation at the first missing sample and that many samples
            // of fill, so everything after it stays at its time.
            var frame = 0
            var missing = 0
            let end = RecordingGap(
                beforeFrame: recording.frameCount,
                gap: .init(cause: .deviceCounter, missingCount: 0, start: 0, end: 0))
            for gap in recording.gaps + [end] {
                let rowsBefore = UnsafeBufferPointer(rebasing: rows[(frame * stride)..<(gap.beforeFrame * stride)])
                try writer.append(
                    rows: rowsBefore, stride: stride, valueOffset: 0, frameCount: gap.beforeFrame - frame)
                frame = gap.beforeFrame
                guard gap.gap.missingCount > 0 else { continue }
                writer.annotateGenerated(
                    onset: Double(frame + missing) / recording.sampleRate,
                    text: "gap: \(gap.gap.missingCount) samples (\(gap.gap.cause.rawValue))")
                try writer.appendFill(count: gap.gap.missingCount)
                missing += gap.gap.missingCount
            }
        }
        try writer.close()
        return Result(
            records: writer.recordCount, recordDuration: duration, annotations: writer.annotationsWritten,
            truncatedAnnotations: writer.truncatedAnnotationCount, clipped: writer.clippedSamples,
            padded: writer.paddedSamples, startIsKnown: writer.startIsKnown, plans: plans)
    }

    /// Streams at several rates, record by record: each record holds `duration` seconds of every stream; a stream
    /// that ends early is padded with its channels' last values. Returns the main stream's padded samples.
    private static func writeRecords(
        of streams: [Recording], to writer: EDFWriter, duration: Double
    ) throws(EDFWriterError) -> Int {
        let perRecord = streams.map { Int(($0.sampleRate * duration).rounded()) }
        let records = zip(streams, perRecord).map { ($0.frameCount + $1 - 1) / $1 }.max() ?? 0
        var samples = streams.indices.flatMap { index in
            Array(repeating: [Double](repeating: 0, count: perRecord[index]), count: streams[index].channelCount)
        }
        for record in 0..<records {
            var slot = 0
            for (index, stream) in streams.enumerated() {
                for channel in 0..<stream.channelCount {
                    for sample in 0..<perRecord[index] {
                        let frame = min(record * perRecord[index] + sample, stream.frameCount - 1)
                        samples[slot][sample] = stream.value(frame: frame, channel: channel)
                    }
                    slot += 1
                }
            }
            try writer.appendRecord(samples)
        }
        return records * perRecord[0] - streams[0].frameCount
    }

    /// The patient and recording subfields of an EDF/BDF source (`metadata["edf.*"]` as ``EDFFileReader`` keeps
    /// EDFlib's reading: `Male`, `02 aug 1951`, names with spaces) in EDF+'s spelling (`M`, `02-AUG-1951`,
    /// `Jane_Doe`); fields the source lacks stay unknown (`X`). `edf.prefilter` becomes every signal's prefiltering.
    static func identify(_ options: inout EDFWriter.Options, from metadata: [String: String]) {
        func field(_ key: String) -> String? { metadata["edf." + key].flatMap { $0.isEmpty ? nil : $0 } }
        if let code = field("patientCode") { options.patient.code = code }
        if let sex = field("sex")?.first.map(String.init)?.uppercased(), sex == "M" || sex == "F" {
            options.patient.sex = sex
        }
        if let birthdate = field("birthdate") {
            options.patient.birthdate = birthdate.uppercased().replacingOccurrences(of: " ", with: "-")
        }
        if let name = field("patientName") { options.patient.name = name }
        if let admin = field("admincode") { options.adminCode = admin }
        if let technician = field("technician") { options.technician = technician }
        if let equipment = field("equipment") { options.equipment = equipment }
        if let prefilter = field("prefilter") { options.prefiltering = prefilter }
    }

    /// `1`, `2.5`: a marker value without a needless `.0`.
    static func shortest(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
