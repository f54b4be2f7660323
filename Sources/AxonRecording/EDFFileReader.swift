import AxonMemory
import AxonStreams
import CEDFlib
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads EDF, EDF+ (continuous), BDF and BDF+ (continuous) files with EDFlib, the format's reference C library.
///
/// What the reader keeps:
///
/// | in the file | in the ``Recording`` |
/// |---|---|
/// | signal label (`Fc5.`) | the channel's label, trimmed of spaces only (`"Fc5."`); the 16-byte field as written goes to `metadata["sourceColumn.Fc5."]`; duplicates made unique as MNE-Python does (`EEG-0`, `EEG-1`; `UniqueChannelLabels`), the label as written in ``AxonStreams/ChannelInfo/writtenLabel`` |
/// | physical dimension (`uV`) | ``AxonStreams/ChannelInfo/unit``, as written |
/// | physical minimum/maximum | ``AxonStreams/ChannelInfo/range`` |
/// | digital samples | values in the physical unit: `(digital − dmin) × (pmax − pmin) ÷ (dmax − dmin) + pmin` (EDFlib's formula), samples outside the digital range included (never clipped) |
/// | start date and time (+ EDF+ sub-second start) | ``Recording/timestamps``: start + frame ÷ rate, Unix seconds; the header's local time is taken as UTC (EDF stores no zone); none when the EDF+ recording identification says `Startdate X` (start unknown) |
/// | EDF+/BDF+ annotations | ``Recording/markers``: frame = onset × rate rounded, `value` 0, `text` the annotation |
/// | a BDF signal labelled `Status` (BioSemi's trigger and status word) | decoded by ``BioSemiStatus``, not scaled: triggers (`trigger 12`, `value` the code) and device status events (`CMS out of range`, `battery low`, …) join ``Recording/markers`` in frame order; `metadata["edf.status"]` counts them; a warning when CMS left its range or the battery ran low; the channel is left out, or kept as the raw 24-bit word (unit `""`) with ``keepsStatusChannel``; not decoded again when the annotations already carry its markers (Axon's conversion of a kept channel) |
/// | patient, recording, equipment, transducer, prefiltering, … | `metadata["edf.*"]` |
///
/// Signals at different rates: every signal is kept, one stream per rate, never resampled. The rate most signals
/// have (ties: the first signal's) is the ``Recording`` itself, with the annotations and warnings; each other rate is
/// one of its ``Recording/companions`` (its `sourceID` ends in `/12.8 Hz`), and `metadata["edf.streams"]` lists them
/// all. MNE-Python instead resamples every signal to the highest rate; pyedflib reads each at its own, as Axon does.
///
/// Damage: before EDFlib opens the file, `EDFHeader` parses the header and checks the record count and sizes
/// against the file's length, so a lying header gives ``RecordingError/edf(path:problem:)`` naming the field and
/// its byte offset — nothing is allocated beyond what the file holds. A truncated file (or a record count of `-1`
/// or too high) is read up to its last complete record with a warning (``keepsCompleteRecords``; off, it throws
/// ``EDFProblem/truncated(claimedRecords:completeRecords:expectedBytes:actualBytes:)`` naming the cut record).
/// EDFlib's own refusals map one-to-one onto ``EDFLibraryError``. Deviations real writers produce and MNE-Python
/// reads are read and named in a warning (`EDFHeader.DeviantField`): numbers padded with leading spaces, text
/// outside printable ASCII (labels and units decoded as Latin-1) and
/// non-blank fields of an annotation signal (EDFlib gets a temporary copy with them normalised).
/// Samples are read from the data records by Axon (`EDFDigitalSamples`), since EDFlib clips samples beyond the
/// header's digital range to its limits: such samples are kept and scaled like the others, as MNE-Python reads
/// them, and a warning per signal counts them; another counts the samples at the limits (saturated).
/// EDF+D/BDF+D (discontinuous) files are refused by EDFlib (``EDFLibraryError/fileIsDiscontinuous``).
///
///     let eeg = try EDFFileReader().read(path: "datasets/physionet-eegmmidb/S001R01.edf")
///     eeg.channelCount, eeg.sampleRate, eeg.frameCount   // 64, 160, 9760
///     eeg.markers.first?.text                            // "T0"
///
/// Threading: an immutable value; `read` may be called from any thread, concurrently. EDFlib keeps its open
/// files in an unlocked process-wide table, so every EDFlib call in this module runs under one process-wide
/// lock (`EDFLibrary`); concurrent reads of EDF files therefore run one at a time.
public struct EDFFileReader: Sendable {
    /// Creates a reader.
    /// Whether a file cut short (or with a record count of `-1` or one that claims more records than the file
    /// holds) is read up to its last complete data record, with a warning saying how much was dropped — as the text
    /// readers keep the rows before a cut. `false`: such a file throws
    /// ``EDFProblem/truncated(claimedRecords:completeRecords:expectedBytes:actualBytes:)`` or
    /// ``EDFProblem/recordCountUnknown``. A file without one complete record always throws.
    public var keepsCompleteRecords: Bool
    /// Whether a BDF's BioSemi `Status` channel, decoded into markers either way (``BioSemiStatus``), is also kept
    /// as a channel holding the raw 24-bit Status word (unit `""`). `false`: the channel is left out.
    public var keepsStatusChannel: Bool

    /// Creates a reader; see ``keepsCompleteRecords`` and ``keepsStatusChannel``.
    public init(keepsCompleteRecords: Bool = true, keepsStatusChannel: Bool = false) {
        self.keepsCompleteRecords = keepsCompleteRecords
        self.keepsStatusChannel = keepsStatusChannel
    }

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError``: `.cannotOpen`/`.readFailed` (with errno), `.unsupportedFormat` when the file
    ///   does not start like EDF or BDF, `.edf(path:problem:)` for everything else.
    /// - Complexity: O(file size); allocates the samples once.
    public func read(path: String) throws(RecordingError) -> Recording {
        let (prefix, _) = try RecordingFile.readPrefix(path: path, count: 256)
        guard EDFHeader.isSignature(prefix) else {
            throw .unsupportedFormat(firstLine: prefix.withUnsafeBufferPointer { LineCursor.firstLine(of: $0) })
        }
        let count = try EDFHeader.signalCount(prefix, path: path)
        let (bytes, fileSize) = try RecordingFile.readPrefix(path: path, count: 256 * (count + 1))
        var notes: [String] = []
        var cut: (recordField: [UInt8], keptBytes: Int)?
        let header: EDFHeader
        do {
            header = try EDFHeader(bytes: bytes, fileSize: fileSize, path: path)
        } catch {
            guard keepsCompleteRecords, case .edf(_, let problem) = error else { throw error }
            var claimedText = EDFHeader.field(bytes, 236, 8)
            var patched = bytes
            var failure = problem
            if case .recordCountUnknown = problem {
                // Count what is there: claim the most records possible and let the size check say how many fit.
                patched.replaceSubrange(236..<244, with: Array("99999999".utf8))
                do {
                    _ = try EDFHeader(bytes: patched, fileSize: fileSize, path: path)
                } catch .edf(_, let second) {
                    failure = second
                }
                claimedText = "-1 (never closed)"
            }
            guard case .truncated(let claimed, let complete, let expected, let actual) = failure, complete >= 1 else {
                throw error
            }
            let headerBytes = 256 * (count + 1)
            let recordBytes = (expected - headerBytes) / claimed
            let kept = headerBytes + complete * recordBytes
            let field = Array(String(complete).utf8)
            patched.replaceSubrange(236..<244, with: field + Array(repeating: 0x20, count: 8 - field.count))
            header = try EDFHeader(bytes: patched, fileSize: kept, path: path)
            cut = (Array(patched[236..<244]), kept)
            notes.append(
                "file truncated: the header's record count is \(claimedText) but only \(complete) data records are "
                    + "complete; read those, dropped \(actual - kept) bytes after byte \(kept)")
        }
        // The samples are taken from these bytes (EDFlib would clip them: ``EDFDigitalSamples`).
        var whole = try RecordingFile.readAll(path: path)
        guard
            cut != nil || !header.nonBlankAnnotationFields.isEmpty || !header.paddedNumericFields.isEmpty
                || !header.nonASCIITextFields.isEmpty
        else {
            return try EDFLibrary.withLock { () throws(RecordingError) -> Recording in
                try readLocked(path: path, libraryPath: path, bytes: whole, header: header, notes: [])
            }
        }
        // EDFlib reads only whole, exactly sized files and refuses an EDF+ file whose annotation signal has a
        // non-blank transducer or prefiltering field, numbers written with leading spaces and text outside
        // printable ASCII. Cut, blank, left-align and replace in a temporary copy, and say so.
        if let cut {
            whole.removeSubrange(min(whole.count, cut.keptBytes)...)
            whole.replaceSubrange(236..<244, with: cut.recordField)
        }
        for field in header.nonBlankAnnotationFields {
            whole.replaceSubrange(
                field.byteOffset..<(field.byteOffset + field.width), with: repeatElement(0x20, count: field.width))
            notes.append(
                "signal \(field.signal + 1) (annotations): its \(field.field) field (byte \(field.byteOffset)) is "
                    + "\"\(field.value)\", not blank as EDF+ requires; EDFlib refuses that, so the file was read "
                    + "from a copy with the field blanked (no samples or annotations change)")
        }
        for field in header.paddedNumericFields + header.nonASCIITextFields {
            whole.replaceSubrange(field.byteOffset..<(field.byteOffset + field.width), with: field.replacement)
        }
        if let note = Self.paddingNote(header.paddedNumericFields) { notes.append(note) }
        if let note = Self.textNote(header.nonASCIITextFields) { notes.append(note) }
        let copy = try RecordingFile.writeTemporary(whole, suffix: ".edf")
        defer { _ = unlink(copy) }
        return try EDFLibrary.withLock { () throws(RecordingError) -> Recording in
            try readLocked(path: path, libraryPath: copy, bytes: whole, header: header, notes: notes)
        }
    }

    /// One sentence for the numeric fields written with leading spaces, grouped by field: the first one's byte and
    /// text, and how many signals share the deviation.
    private static func paddingNote(_ fields: [EDFHeader.DeviantField]) -> String? {
        guard let first = fields.first else { return nil }
        var names: [String] = []
        var byName: [String: [EDFHeader.DeviantField]] = [:]
        for field in fields {
            if byName[field.field] == nil { names.append(field.field) }
            byName[field.field, default: []].append(field)
        }
        let parts = names.map { name -> String in
            let group = byName[name]!
            let signals = group.first!.signal == nil ? "" : " of \(group.count) signal\(group.count == 1 ? "" : "s")"
            return "\(name)\(signals) (byte \(group[0].byteOffset): \"\(group[0].written)\")"
        }
        return "header numbers written with leading spaces, which the EDF specification does not allow and EDFlib "
            + "refuses: " + parts.joined(separator: "; ") + "; read from a copy with the numbers left-aligned "
            + "(\"\(first.written)\" as \"\(String(decoding: first.replacement, as: UTF8.self))\"), as MNE-Python "
            + "reads them"
    }

    /// One sentence for the text fields holding bytes outside printable ASCII: each field, its byte and its text.
    private static func textNote(_ fields: [EDFHeader.DeviantField]) -> String? {
        guard !fields.isEmpty else { return nil }
        let parts = fields.map { field in
            let signal = field.signal.map { " of signal \($0 + 1)" } ?? ""
            // Control bytes shown as \xNN, so the warning never carries them to a terminal.
            let shown = trimmed(field.written).unicodeScalars.map { scalar -> String in
                if (32...126).contains(scalar.value) || scalar.value >= 160 { return String(scalar) }
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "\\x" + (hex.count < 2 ? "0" + hex : hex)
            }.joined()
            return "\(field.field)\(signal) (byte \(field.byteOffset): \"\(shown)\")"
        }
        return "header text with bytes outside printable ASCII, which the EDF specification does not allow and "
            + "EDFlib refuses: " + parts.joined(separator: "; ") + "; read from a copy with those bytes as \"?\"; "
            + "labels and units are decoded as Latin-1, as MNE-Python decodes them, other fields keep the \"?\""
    }

    /// Reads a file's contents (through a temporary file: EDFlib only opens paths); `sourceName` names the data.
    public func read(bytes: [UInt8], sourceName: String = "edf") throws(RecordingError) -> Recording {
        let path = try RecordingFile.writeTemporary(bytes, suffix: ".edf")
        defer { _ = unlink(path) }
        let recording: Recording
        do {
            recording = try read(path: path)
        } catch .edf(_, let problem) {
            throw .edf(path: sourceName, problem: problem)  // name the data, not the temporary copy
        }
        let named = recording.streams.map { stream in
            var descriptor = stream.descriptor
            descriptor.sourceID = descriptor.sourceID.replacingOccurrences(
                of: "file:\(RecordingFile.fileName(of: path))", with: "file:\(sourceName)")
            descriptor.metadata["file"] = sourceName
            return Recording(
                descriptor: descriptor, values: stream.values, timestamps: stream.timestamps,
                markers: stream.markers, warnings: stream.warnings)
        }
        return named[0].withCompanions(Array(named.dropFirst()))
    }

    /// Reads `libraryPath` with EDFlib (the caller holds the EDFlib lock) and the samples from `bytes`, the
    /// same file's contents; errors and metadata name `path`.
    private func readLocked(
        path: String, libraryPath: String, bytes: [UInt8], header: EDFHeader, notes: [String]
    ) throws(RecordingError) -> Recording {
        // EDFlib's header struct is large (a record per possible signal): it lives on the heap for this read.
        let library = OwnedBuffer(repeating: edf_hdr_struct(), count: 1)
        return try library.withUnsafeMutableBufferPointer { (info) throws(RecordingError) in
            try readLocked(
                path: path, libraryPath: libraryPath, bytes: bytes, header: header, notes: notes, info: info.baseAddress!)
        }
    }

    /// ``readLocked(path:libraryPath:bytes:header:notes:)`` with EDFlib's header struct at `info`.
    private func readLocked(
        path: String, libraryPath: String, bytes: [UInt8], header: EDFHeader, notes: [String],
        info: UnsafeMutablePointer<edf_hdr_struct>
    ) throws(RecordingError) -> Recording {
        let opened = edfopen_file_readonly(libraryPath, info, EDFLIB_READ_ALL_ANNOTATIONS)
        guard opened == 0 else {
            throw .edf(path: path, problem: .library(EDFLibraryError(code: info.pointee.filetype)))
        }
        let handle = info.pointee.handle
        defer {
            // Closing a read-only handle frees EDFlib's memory; it cannot lose data, so its result is not needed.
            _ = edfclose_file(handle)
        }
        let signalCount = Int(info.pointee.edfsignals)
        guard signalCount >= 1 else { throw .edf(path: path, problem: .noSignals) }
        let parameters = EDFLibrary.signalParameters(info, count: signalCount)
        // EDFlib numbers the signals without the annotation signals; the header numbers them all.
        let ordinary = header.signals.indices.filter { !header.signals[$0].isAnnotation }
        guard ordinary.count == signalCount else {
            throw .edf(
                path: path,
                problem: .headerField(
                    field: "number of signals", signal: nil, byteOffset: 252, value: String(header.signals.count),
                    reason: "EDFlib reads \(signalCount) signals besides annotations, Axon's parse \(ordinary.count)"))
        }
        let recordSeconds = Double(info.pointee.datarecord_duration) / Double(EDFLIB_TIME_DIMENSION)
        guard recordSeconds > 0 else {
            throw .edf(
                path: path,
                problem: .headerField(
                    field: "duration of a data record", signal: nil, byteOffset: 244,
                    value: String(header.recordDuration), reason: "EDFlib reads it as 0 s"))
        }

        // One stream per rate, in the order of each rate's first signal; the rate with the most signals (ties: the
        // first) is the main stream, the others its companions.
        let perRecord = parameters.map { Int($0.smp_in_datarecord) }
        // A BDF's BioSemi Status signal becomes markers (``BioSemiStatus``); its channel is left out unless kept.
        let status = BioSemiStatusSignal(header: header, ordinary: ordinary)
        let keepsStatus = keepsStatusChannel || signalCount == 1
        let listed = perRecord.indices.filter { keepsStatus || $0 != status?.signal }
        var rates: [Int] = []
        for samples in listed.map({ perRecord[$0] }) where !rates.contains(samples) { rates.append(samples) }
        let sizes = rates.map { samples in listed.filter { perRecord[$0] == samples }.count }
        let mainRate = rates[sizes.firstIndex(of: sizes.max()!)!]
        rates.removeAll { $0 == mainRate }
        rates.insert(mainRate, at: 0)
        var warnings = notes

        // Samples: digital values per signal as written (never clipped), scaled as EDFlib does, frame-major.
        let records = Int(info.pointee.datarecords_in_file)
        guard bytes.count >= header.headerBytes + records * header.recordBytes else {  // changed since the check
            throw .edf(
                path: path,
                problem: .truncated(
                    claimedRecords: records, completeRecords: (bytes.count - header.headerBytes) / header.recordBytes,
                    expectedBytes: header.headerBytes + records * header.recordBytes, actualBytes: bytes.count))
        }
        let file = EDFDigitalSamples(bytes: bytes, header: header, records: records)
        // Labels and units EDFlib saw with "?" for bytes outside ASCII: as written, decoded as Latin-1.
        var latin1: [String: String] = [:]
        for field in header.nonASCIITextFields {
            if let signal = field.signal { latin1["\(field.field) \(signal)"] = trimmed(field.written) }
        }
        var columns: [[Double]] = []
        var channels: [ChannelInfo] = []
        var transducers: [String] = []
        var prefilters: [String] = []
        for signal in 0..<signalCount {
            let parameter = parameters[signal]
            let label = latin1["label \(ordinary[signal])"] ?? trimmed(EDFLibrary.text(parameter.label))
            let frames = Int(parameter.smp_in_file)
            let digital = file.samples(ofSignal: ordinary[signal])
            guard digital.count == frames else {
                throw .edf(
                    path: path,
                    problem: .readFailed(signal: signal, label: label, requested: frames, got: digital.count))
            }
            let dmin = Int32(parameter.dig_min)
            let dmax = Int32(parameter.dig_max)
            let bitValue = (parameter.phys_max - parameter.phys_min) / Double(dmax - dmin)
            let offset = parameter.phys_max / bitValue - Double(dmax)
            var atLimits = 0
            var beyond = 0
            var column = [Double](repeating: 0, count: frames)
            for frame in 0..<frames {
                let sample = digital[frame]
                if sample == dmin || sample == dmax { atLimits += 1 }
                if sample < dmin || sample > dmax { beyond += 1 }
                column[frame] = bitValue * (offset + Double(sample))
            }
            columns.append(column)
            if atLimits > 0 {
                warnings.append(
                    "signal \(signal + 1) (\"\(label)\"): \(atLimits) samples at the digital limits \(dmin)…\(dmax) "
                        + "(saturated)")
            }
            if beyond > 0 {
                warnings.append(
                    "signal \(signal + 1) (\"\(label)\"): \(beyond) samples outside the declared digital range "
                        + "\(dmin)…\(dmax), read as written (not clipped) and scaled beyond the physical range")
            }
            let low = min(parameter.phys_min, parameter.phys_max)
            let high = max(parameter.phys_min, parameter.phys_max)
            channels.append(
                ChannelInfo(
                    label: label,
                    unit: latin1["physical dimension \(ordinary[signal])"]
                        ?? trimmed(EDFLibrary.text(parameter.physdimension)),
                    range: low...high))
            transducers.append(trimmed(EDFLibrary.text(parameter.transducer)))
            prefilters.append(trimmed(EDFLibrary.text(parameter.prefilter)))
        }
        if let status, keepsStatus {
            status.keepRaw(
                file: file, ordinary: ordinary, column: &columns[status.signal], channel: &channels[status.signal])
        }
        // Duplicate labels made unique (as MNE does) across every signal, before they key the metadata.
        let unique = UniqueChannelLabels.apply(to: channels)
        channels = unique.channels
        if let warning = unique.warning { warnings.append(warning) }

        // Start time (the header's clock, taken as UTC) → per-frame Unix seconds.
        // An EDF+ file whose recording identification says `Startdate X` does not know its start (its header date
        // is a placeholder, 01.01.85 by convention): no timestamps, so nobody takes the placeholder for the date.
        let startUnknown = header.isPlus && trimmed(header.recordingField).hasPrefix("Startdate X")
        let start = EDFLibrary.startTime(info.pointee)
        var metadata: [String: String] = [:]
        if startUnknown { metadata["edf.startUnknown"] = "Startdate X: the file does not know its start date" }
        let rate = Double(mainRate) / recordSeconds
        let frames = columns[perRecord.firstIndex(of: mainRate)!].count

        // Annotations → markers.
        var markers: [RecordingMarker] = []
        let annotationCount = Int(info.pointee.annotations_in_file)
        if annotationCount > 0 {
            var annotation = edf_annotation_struct()
            for index in 0..<annotationCount {
                guard edf_get_annotation(handle, Int32(index), &annotation) == 0 else {
                    throw .edf(path: path, problem: .annotationFailed(index: index))
                }
                let onset = Double(annotation.onset) / Double(EDFLIB_TIME_DIMENSION)
                let text = EDFLibrary.text(annotation.annotation)
                let frame = Int((onset * rate).rounded())
                guard frame >= 0, frame < frames else {
                    warnings.append(
                        "annotation \(index + 1) (\"\(text)\") at \(onset) s is outside the signals: skipped")
                    continue
                }
                markers.append(RecordingMarker(frame: frame, value: 0, text: text))
            }
            markers.sort { $0.frame < $1.frame }
        }
        status?.apply(
            file: file, ordinary: ordinary, perRecord: perRecord, mainRate: mainRate, frames: frames,
            markers: &markers, metadata: &metadata, warnings: &warnings, kept: keepsStatus)

        let type = EDFLibrary.fileTypeName(info.pointee.filetype)
        metadata["file"] = RecordingFile.fileName(of: path)
        metadata["format"] = type
        metadata["edf.records"] = String(info.pointee.datarecords_in_file)
        metadata["edf.recordDuration"] = String(recordSeconds)
        metadata["edf.startDate"] = header.startDate
        metadata["edf.startTime"] = header.startTime
        metadata["edf.reserved"] = header.reserved
        let textFields: [(String, String)] = [
            ("patient", EDFLibrary.text(info.pointee.patient)),
            ("recording", EDFLibrary.text(info.pointee.recording)),
            ("patientCode", EDFLibrary.text(info.pointee.patientcode)),
            ("sex", EDFLibrary.text(info.pointee.gender)),
            ("birthdate", EDFLibrary.text(info.pointee.birthdate)),
            ("patientName", EDFLibrary.text(info.pointee.patient_name)),
            ("patientAdditional", EDFLibrary.text(info.pointee.patient_additional)),
            ("admincode", EDFLibrary.text(info.pointee.admincode)),
            ("technician", EDFLibrary.text(info.pointee.technician)),
            ("equipment", EDFLibrary.text(info.pointee.equipment)),
            ("recordingAdditional", EDFLibrary.text(info.pointee.recording_additional)),
        ]
        for (key, value) in textFields where !trimmed(value).isEmpty { metadata["edf." + key] = trimmed(value) }
        if rates.count > 1 {
            metadata["edf.streams"] =
                rates.map { samples in
                    "\(listed.filter { perRecord[$0] == samples }.count) at "
                        + "\(Self.decimal(Double(samples) / recordSeconds)) Hz"
                }.joined(separator: ", ") + " (one stream per rate, never resampled)"
        }
        let streams = rates.map { samples -> Recording in
            let signals = listed.filter { perRecord[$0] == samples }
            let streamRate = Double(samples) / recordSeconds
            let streamFrames = columns[signals[0]].count
            let width = signals.count
            var values = [Double](repeating: 0, count: streamFrames * width)
            for (slot, signal) in signals.enumerated() {
                for frame in 0..<streamFrames { values[frame * width + slot] = columns[signal][frame] }
            }
            let streamChannels = signals.map { channels[$0] }
            var streamMetadata = metadata
            for signal in signals {
                streamMetadata[Recording.sourceColumnKeyPrefix + channels[signal].label] =
                    header.signals[ordinary[signal]].rawLabel
            }
            // Transducer and prefiltering: one `edf.transducer` / `edf.prefilter` entry when every signal of the
            // stream has the same, else one per channel (`edf.prefilter.<label>`).
            for (key, texts) in [("edf.transducer", signals.map { transducers[$0] }),
                ("edf.prefilter", signals.map { prefilters[$0] })]
            {
                if Set(texts).count == 1 {
                    if !texts[0].isEmpty { streamMetadata[key] = texts[0] }
                } else {
                    for (channel, text) in zip(streamChannels, texts) where !text.isEmpty {
                        streamMetadata["\(key).\(channel.label)"] = text
                    }
                }
            }
            let isEEG = streamChannels.contains { ["uV", "µV", "mV"].contains($0.unit) }
            let descriptor = StreamDescriptor(
                name: isEEG ? "\(type) EEG" : type, contentType: isEEG ? .eeg : StreamContentType(type),
                channels: streamChannels, nominalRate: streamRate, format: header.isBDF ? .int24 : .int16,
                sourceID: "file:\(RecordingFile.fileName(of: path))"
                    + (samples == mainRate ? "" : "/\(Self.decimal(streamRate)) Hz"),
                metadata: streamMetadata)
            let isMain = samples == mainRate
            return Recording(
                descriptor: descriptor, values: values,
                timestamps: startUnknown ? nil : (0..<streamFrames).map { start + Double($0) / streamRate },
                markers: isMain ? markers : [], warnings: isMain ? warnings : [])
        }
        return streams[0].withCompanions(Array(streams.dropFirst()))
    }

    /// `12.8`, `100`: a rate without a needless `.0`.
    private static func decimal(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
