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
/// - **Gaps.** Each of ``Recording/gaps`` is written as ``EDFSink`` writes a live ``GapRecord``: an annotation
///   `gap: N samples (cause)` at the first missing sample and N samples of each channel's last value (EDF+C stays
///   continuous), so every later sample and marker keeps its time.
/// - **Records.** 1 s data records when the rate is a whole number of hertz, else the shortest of 2, 4, 5, 10, 0.5,
///   0.25, 0.2, 0.1 s that holds a whole number of samples. The last record is padded with each channel's last value
///   (``Result/padded``).
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
    ///   - plans: ranges already planned (``EDFChannelPlan/plan(_:format:range:)``), one per channel; overrides
    ///     `range`.
    /// - Throws: ``EDFWriterError`` if a rate has no whole number of samples per record, a range does not fit the
    ///   header, or the file cannot be created or written.
    /// - Complexity: O(frames × channels): one pass to plan (unless given), one to write.
    public static func write(
        _ recording: Recording, to path: String, format: EDFWriter.Format, range: ClosedRange<Double>? = nil,
        plans planned: [EDFChannelPlan]? = nil, anonymization: Anonymization? = nil
    ) throws(EDFWriterError) -> Result {
        let plans: [EDFChannelPlan]
        if let planned {
            plans = planned
        } else {
            plans = try EDFChannelPlan.plan(recording, format: format, range: range)
        }
        precondition(plans.count == recording.channelCount, "one plan per channel")
        guard let duration = recordDuration(rate: recording.sampleRate) else {
            throw .nonIntegerSamplesPerRecord(rate: recording.sampleRate, recordDuration: 1)
        }
        // One header update and one sync at close: a conversion is rewritten whole if interrupted.
        var options = EDFWriter.Options(
            format: format, recordDuration: duration, flushInterval: 1 << 20, synchronizes: false,
            ranges: plans.map(\.range), startAnnotation: nil)
        let start = Self.start(of: recording)
        options.startDateIsKnown = start != nil
        Self.identify(&options, from: recording.descriptor.metadata)
        options.anonymization = anonymization
        let writer = try EDFWriter(
            path: path, descriptor: recording.descriptor, startUnixTime: start ?? EDFHeaderBuilder.earliestStart,
            options: options)
        for marker in recording.markers {
            let text = marker.text ?? "marker \(Self.shortest(marker.value))"
            let sample = marker.frame + recording.missingSamples(before: marker.frame)
            writer.annotate(onset: Double(sample) / recording.sampleRate, text: text)
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

    /// The patient and recording subfields of an EDF/BDF source (`metadata["edf.*"]` as ``EDFFileReader`` keeps
    /// EDFlib's reading: `Male`, `02 aug 1951`, names with spaces) in EDF+'s spelling (`M`, `02-AUG-1951`,
    /// `Jane_Doe`); fields the source lacks stay unknown (`X`).
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
    }

    /// `1`, `2.5`: a marker value without a needless `.0`.
    static func shortest(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
