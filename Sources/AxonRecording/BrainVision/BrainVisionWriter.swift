import AxonStreams
import Foundation

/// Writes a whole in-memory ``Recording`` as BrainVision: a `.vhdr` header, a `.eeg` data file and a `.vmrk` marker
/// file side by side, named after the header (`session.vhdr`, `session.eeg`, `session.vmrk`), as the Brain Products
/// specification (Version 1.0) describes them and MNE-Python's `read_raw_brainvision` reads them.
///
/// - **Samples** are coded as ``BrainVisionPlan`` chooses (32-bit floats when every value is one at a resolution of 1,
///   0.1 or 10⁶, else whole multiples of a resolution per channel in 16 or 32 bits), `MULTIPLEXED`, little-endian; each channel's unit as
///   the recording has it (`µV` for EEG; no unit is written `n/a`, since an empty unit means µV in BrainVision).
/// - **Start.** The recording's first timestamp, when it is a date (as ``EDFConversion/start(of:)`` decides), is the
///   date of the first marker, `New Segment` at sample 1 (`YYYYMMDDhhmmssuuuuuu`, UTC); without one the marker has no
///   date and the start stays unknown.
/// - **Markers.** A marker whose text is `<type>/<description>` with a BrainVision type (`Stimulus/S  1`, as
///   ``BrainVisionReader`` and MNE-Python name them) is written with that type; a marker without text and a whole
///   value 0…999 is `Stimulus,S  <value>`; any other text is a `Comment` with the text as its description (a comma
///   as `\1`).
/// - **Gaps.** BrainVision marks a discontinuity with a `New Segment` marker: each of ``Recording/gaps`` is one at
///   its first sample after the gap, with the date of that sample when the start is known, and beside it the
///   comment `gap: N samples (cause)` ``EDFConversion`` also writes; no fill is written, so the data file holds the
///   recording's samples only. ``BrainVisionReader`` reads them back as the same gaps.
/// - **Files.** Each file is written beside its path under a temporary name and renamed over it once all three
///   are complete (``OutputFile``): a failure leaves any old files whole. Existing files are refused unless
///   `replace`.
/// - **Anonymized** (``Anonymization``): the start date moves by its days; markers are left out unless kept (the
///   gap comments, Axon's own text, stay). The header names no person or device either way.
///
///     let plan = BrainVisionPlan(recording)            // .float32 for an EDF's whole µV
///     let result = try BrainVisionWriter.write(recording, to: "out/session.vhdr", plan: plan)
///     result.dataBytes                                  // frames × channels × 4
///
/// Threading: a pure function of its arguments; runs on the caller's thread.
public enum BrainVisionWriter {
    /// What a write produced.
    public struct Result: Sendable, Hashable {
        /// The three paths written.
        public var headerPath: String
        /// The data file's path.
        public var dataPath: String
        /// The marker file's path.
        public var markerPath: String
        /// Frames written.
        public var frames: Int
        /// Bytes of the data file.
        public var dataBytes: Int
        /// Markers written (besides the `New Segment` markers and their gap comments).
        public var markers: Int
        /// Gaps written as `New Segment` markers.
        public var gaps: Int
        /// Whether the first `New Segment` has a date.
        public var startIsKnown: Bool
        /// The rate a reader computes from the written `SamplingInterval` (10⁶ ÷ interval): the recording's, unless
        /// its interval in µs has no exact decimal.
        public var rateReadBack: Double
        /// The coding used.
        public var plan: BrainVisionPlan
    }

    /// The data and marker file paths of a header path: the same folder and name, extensions `.eeg` and `.vmrk`.
    public static func companionPaths(ofHeader path: String) -> (data: String, markers: String) {
        let base = (path as NSString).deletingPathExtension
        return (base + ".eeg", base + ".vmrk")
    }

    /// The BrainVision marker types a marker text `<type>/<description>` may name.
    static let markerTypes: Set<String> = [
        "Stimulus", "Response", "Comment", "Time 0", "Bad Interval", "DC Correction", "SyncStatus", "Voltage",
    ]

    /// Writes `recording` (its own stream; ``Recording/companions`` are not written) to `path` and the two files
    /// beside it.
    ///
    /// - Parameters:
    ///   - plan: the coding; `nil` chooses it (``BrainVisionPlan/init(_:)``). A lossy plan is written as given: the
    ///     caller decides whether its ``BrainVisionPlan/losses`` are acceptable.
    ///   - replace: whether existing files at the three paths are replaced.
    /// - Throws: ``OutputFileError/exists(path:)`` (before writing anything) for an existing file without `replace`;
    ///   Foundation's file errors when a file cannot be written (nothing is renamed then).
    /// - Complexity: O(frames × channels); the data file is written in blocks of about 1 MB.
    @discardableResult
    public static func write(
        _ recording: Recording, to path: String, plan chosen: BrainVisionPlan? = nil, replace: Bool = false,
        anonymization: Anonymization? = nil
    ) throws -> Result {
        let plan = chosen ?? BrainVisionPlan(recording)
        precondition(plan.resolutions.count == recording.channelCount, "one resolution per channel")
        let (dataPath, markerPath) = companionPaths(ofHeader: path)
        if !replace {
            for file in [path, dataPath, markerPath] where FileManager.default.fileExists(atPath: file) {
                throw OutputFileError.exists(path: file)
            }
        }
        let interval = 1e6 / recording.sampleRate
        let intervalText = BrainVisionReader.decimal(interval)
        let rateReadBack = Double(intervalText).map { 1e6 / $0 } ?? recording.sampleRate
        let start = EDFConversion.start(of: recording).map { anonymization.shifted($0) }
        let markerText = markerFile(
            recording, dataName: RecordingFile.fileName(of: dataPath), start: start, anonymization: anonymization)
        let headerText = header(
            recording, plan: plan, intervalText: intervalText, dataName: RecordingFile.fileName(of: dataPath),
            markerName: RecordingFile.fileName(of: markerPath))
        let dataBytes = try OutputFile.write(to: path, replace: replace) { headerTemporary in
            try OutputFile.write(to: markerPath, replace: replace) { markerTemporary in
                let bytes = try OutputFile.write(to: dataPath, replace: replace) { dataTemporary in
                    try writeData(recording, plan: plan, to: dataTemporary)
                }
                try Data(markerText.text.utf8).write(to: URL(fileURLWithPath: markerTemporary))
                try Data(headerText.utf8).write(to: URL(fileURLWithPath: headerTemporary))
                return bytes
            }
        }
        return Result(
            headerPath: path, dataPath: dataPath, markerPath: markerPath, frames: recording.frameCount,
            dataBytes: dataBytes, markers: markerText.markers, gaps: recording.gaps.count, startIsKnown: start != nil,
            rateReadBack: rateReadBack, plan: plan)
    }

    /// The `.vhdr` text.
    static func header(
        _ recording: Recording, plan: BrainVisionPlan, intervalText: String, dataName: String, markerName: String
    ) -> String {
        var lines = [
            "Brain Vision Data Exchange Header File Version 1.0",
            "; Written by Axon",
            "",
            "[Common Infos]",
            "Codepage=UTF-8",
            "DataFile=\(dataName)",
            "MarkerFile=\(markerName)",
            "DataFormat=BINARY",
            "; Data orientation: MULTIPLEXED=ch1,pt1, ch2,pt1 ...",
            "DataOrientation=MULTIPLEXED",
            "NumberOfChannels=\(recording.channelCount)",
            "DataPoints=\(recording.frameCount)",
            "; Sampling interval in microseconds",
            "SamplingInterval=\(intervalText)",
            "",
            "[Binary Infos]",
            "BinaryFormat=\(plan.binaryFormat.rawValue)",
            "",
            "[Channel Infos]",
            "; Each entry: Ch<Channel number>=<Name>,<Reference channel name>,",
            "; <Resolution in \"Unit\">,<Unit>, Future extensions..",
            "; Fields are delimited by commas, some fields might be omitted (empty).",
            "; Commas in channel names are coded as \"\\1\".",
        ]
        let metadata = recording.descriptor.metadata
        for (index, channel) in recording.descriptor.channels.enumerated() {
            let reference = metadata["brainvision.reference.\(channel.label)"] ?? ""
            let unit = channel.unit.isEmpty ? "n/a" : channel.unit
            lines.append(
                "Ch\(index + 1)=\(BrainVisionText.escaped(channel.label)),\(BrainVisionText.escaped(reference)),"
                    + "\(BrainVisionReader.decimal(plan.resolutions[index])),\(BrainVisionText.escaped(unit))")
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The `.vmrk` text and the number of (non-segment) markers in it.
    static func markerFile(
        _ recording: Recording, dataName: String, start: Double?, anonymization: Anonymization?
    ) -> (text: String, markers: Int) {
        var lines = [
            "Brain Vision Data Exchange Marker File, Version 1.0",
            "; Written by Axon",
            "",
            "[Common Infos]",
            "Codepage=UTF-8",
            "DataFile=\(dataName)",
            "",
            "[Marker Infos]",
            "; Each entry: Mk<Marker number>=<Type>,<Description>,<Position in data points>,",
            "; <Size in data points>, <Channel number (0 = marker is related to all channels)>",
            "; <Date (YYYYMMDDhhmmssuuuuuu)> for New Segment markers",
            "; Fields are delimited by commas, some fields might be omitted (empty).",
            "; Commas in type or description text are coded as \"\\1\".",
        ]
        // (position, order within a position, type, description, date)
        var entries: [(Int, Int, String, String, String)] = []
        entries.append((1, 0, "New Segment", "", start.map(BrainVisionDate.text) ?? ""))
        var missing = 0
        for gap in recording.gaps {
            let position = gap.beforeFrame + 1
            missing += gap.gap.missingCount
            let date = start.map { BrainVisionDate.text($0 + Double(gap.beforeFrame + missing) / recording.sampleRate) }
            entries.append((position, 0, "New Segment", "", date ?? ""))
            entries.append(
                (position, 1, "Comment", "gap: \(gap.gap.missingCount) samples (\(gap.gap.cause.rawValue))", ""))
        }
        let markers = anonymization.markers(recording.markers)
        for marker in markers {
            let (type, description) = typeAndDescription(marker)
            entries.append((marker.frame + 1, 2, type, description, ""))
        }
        // Stable by position: segments first at a position, markers in their order.
        let ordered = entries.enumerated().sorted { a, b in
            (a.element.0, a.element.1, a.offset) < (b.element.0, b.element.1, b.offset)
        }.map(\.element)
        for (number, entry) in ordered.enumerated() {
            let date = entry.4.isEmpty ? "" : ",\(entry.4)"
            lines.append(
                "Mk\(number + 1)=\(BrainVisionText.escaped(entry.2)),\(BrainVisionText.escaped(entry.3)),"
                    + "\(entry.0),1,0\(date)")
        }
        return (lines.joined(separator: "\r\n") + "\r\n", markers.count)
    }

    /// A marker's BrainVision type and description (see the type's documentation).
    static func typeAndDescription(_ marker: RecordingMarker) -> (String, String) {
        guard let text = marker.text else {
            if marker.value.rounded() == marker.value, (0...999).contains(marker.value) {
                let number = String(Int(marker.value))
                return ("Stimulus", "S" + String(repeating: " ", count: 3 - number.count) + number)
            }
            return ("Comment", "marker \(EDFConversion.shortest(marker.value))")
        }
        if let slash = text.firstIndex(of: "/"), markerTypes.contains(String(text[..<slash])) {
            return (String(text[..<slash]), String(text[text.index(after: slash)...]))
        }
        return ("Comment", text)
    }

    /// Writes the samples, frame-major little-endian, in blocks; returns the bytes written.
    static func writeData(_ recording: Recording, plan: BrainVisionPlan, to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let width = plan.binaryFormat.width
        let channels = recording.channelCount
        let framesPerBlock = max(1, (1 << 20) / (channels * width))
        var block = [UInt8](repeating: 0, count: framesPerBlock * channels * width)
        var frame = 0
        var total = 0
        try recording.values.withUnsafeBufferPointer { values in
            while frame < recording.frameCount {
                let count = min(framesPerBlock, recording.frameCount - frame)
                block.withUnsafeMutableBytes { out in
                    for index in 0..<(count * channels) {
                        let channel = index % channels
                        let value = values[frame * channels + index]
                        let offset = index * width
                        switch plan.binaryFormat {
                        case .float32:
                            let coded = Float(value / plan.resolutions[channel])
                            out.storeBytes(of: coded.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                        case .int16:
                            let coded = Int16(clamping: Self.coded(value, plan.resolutions[channel]))
                            out.storeBytes(
                                of: UInt16(bitPattern: coded).littleEndian, toByteOffset: offset, as: UInt16.self)
                        case .int32:
                            let coded = Int32(clamping: Self.coded(value, plan.resolutions[channel]))
                            out.storeBytes(
                                of: UInt32(bitPattern: coded).littleEndian, toByteOffset: offset, as: UInt32.self)
                        }
                    }
                }
                try handle.write(contentsOf: block[0..<(count * channels * width)])
                total += count * channels * width
                frame += count
            }
        }
        try handle.synchronize()
        return total
    }

    /// `value ÷ resolution` rounded, as a 64-bit integer (0 for NaN; the plan keeps NaN out of integer codings).
    private static func coded(_ value: Double, _ resolution: Double) -> Int64 {
        let quotient = (value / resolution).rounded()
        guard quotient.isFinite else { return quotient.isNaN ? 0 : (quotient > 0 ? .max : .min) }
        return Int64(max(-9.2e18, min(9.2e18, quotient)))
    }
}
