import AxonStreams
import Foundation

/// Reads BrainVision recordings (Brain Products' "Data Exchange" format, what BrainVision Recorder, pybv and
/// MNE-Python's `export_raw(fmt="brainvision")` write): a `.vhdr` header naming a binary `.eeg` data file and a
/// `.vmrk` marker file beside it.
///
/// What the reader keeps (the sections of the Brain Products specification, Version 1.0):
///
/// | in the files | in the ``Recording`` |
/// |---|---|
/// | `[Common Infos]` `NumberOfChannels`, `SamplingInterval` (µs) | channels; rate = 10⁶ ÷ interval |
/// | `DataFormat=BINARY`, `DataOrientation=MULTIPLEXED` or `VECTORIZED` (with `DataPoints`, or the file's size) | the samples, frame-major |
/// | `[Binary Infos]` `BinaryFormat=INT_16`, `INT_32` or `IEEE_FLOAT_32`, `UseBigEndianOrder` | ``AxonStreams/StreamDescriptor/format`` (`int16`, `int32`, `float32`) |
/// | `[Channel Infos]` `Ch<n>=<name>,<reference>,<resolution>,<unit>` (`\1` for a comma in a name) | label; value = coded number × resolution, in the unit as written (empty = `µV`, as the specification says; `n/a` = no unit `""`); `metadata["brainvision.resolution"]` (or `.resolution.<label>` per channel when they differ) and `brainvision.reference.<label>` |
/// | `Codepage=UTF-8` or `ANSI` | text decoded as UTF-8 or Windows-1252 (Latin-1 when UTF-8 fails, as MNE-Python falls back) |
/// | `.vmrk` `Mk<n>=<type>,<description>,<position>,<size>,<channel>[,<date>]` | ``Recording/markers``: frame = position − 1; text `<type>/<description>` (MNE-Python's annotation text, `Stimulus/S  1`), or the description alone for `Comment`; value the number of an `S  1`/`R  1` description, else 0 |
/// | the first `New Segment`'s date `YYYYMMDDhhmmssuuuuuu` | ``Recording/timestamps``: start + (frame + samples missing before it) ÷ rate, the date taken as UTC; none without a date |
/// | a later `New Segment` (a discontinuity) | a ``RecordingGap`` before its frame: its length from its date (or from the `gap: N samples (cause)` comment Axon writes beside it); a discontinuity of unknown length is a gap of 0 samples, with a warning |
///
/// Damage: a data file that ends inside a frame is read up to its last complete frame, with a warning
/// (``keepsCompleteFrames``; off, it throws ``BrainVisionProblem/truncated(expectedBytes:actualBytes:completeFrames:)``).
/// A marker outside the data, with a length or tied to one channel is kept or skipped with a warning; nothing is
/// dropped without one. Every read of the files is bounds-checked: a lying header throws, never traps.
///
///     let eeg = try BrainVisionReader().read(path: "session.vhdr")
///     eeg.channelLabels, eeg.sampleRate            // ["Fp1", "Fp2", …], 500
///     eeg.markers.first?.text                      // "Stimulus/S  1"
///
/// Threading: an immutable value; `read` may be called from any thread, concurrently.
public struct BrainVisionReader: Sendable {
    /// Whether a data file cut inside a frame is read up to its last complete frame (with a warning), as the text
    /// readers keep the rows before a cut. `false`: such a file throws
    /// ``BrainVisionProblem/truncated(expectedBytes:actualBytes:completeFrames:)``.
    public var keepsCompleteFrames: Bool

    /// Creates a reader; see ``keepsCompleteFrames``.
    public init(keepsCompleteFrames: Bool = true) {
        self.keepsCompleteFrames = keepsCompleteFrames
    }

    /// Whether `bytes` start with a BrainVision header's version line.
    public static func isHeader(_ bytes: [UInt8]) -> Bool {
        let first = bytes.withUnsafeBufferPointer { LineCursor.firstLine(of: $0) }
        return BrainVisionText.isVersionLine(first, kind: "Header")
    }

    /// Reads the recording whose header is at `path`; its data and marker files are found relative to the header's
    /// folder.
    ///
    /// - Throws: ``RecordingError``: `.cannotOpen`/`.readFailed` (with errno, naming the file that failed: the
    ///   header or the data file), `.brainVision(path:problem:)` for everything else.
    /// - Complexity: O(size of the three files); the samples are allocated once.
    public func read(path: String) throws(RecordingError) -> Recording {
        let headerBytes = try RecordingFile.readAll(path: path)
        let header: Header
        do {
            header = try Header(BrainVisionText(bytes: headerBytes))
        } catch {
            throw .brainVision(path: path, problem: error)
        }
        let folder = (path as NSString).deletingLastPathComponent
        func beside(_ name: String) -> String {
            name.hasPrefix("/") || folder.isEmpty ? name : folder + "/" + name
        }
        var warnings: [String] = []
        let dataPath = beside(header.dataFile)
        let data = try RecordingFile.readAll(path: dataPath)
        let frames: Int
        do {
            frames = try header.frameCount(dataBytes: data.count, keepsCompleteFrames: keepsCompleteFrames) {
                warnings.append($0)
            }
        } catch {
            throw .brainVision(path: dataPath, problem: error)
        }
        let values = header.decode(data, frames: frames)

        var entries: [BrainVisionMarkerFile.Entry] = []
        var markerPath: String?
        if let named = header.markerFile {
            var candidate = beside(named)
            if !FileManager.default.fileExists(atPath: candidate) {
                let sibling = (path as NSString).deletingPathExtension + ".vmrk"
                let found = FileManager.default.fileExists(atPath: sibling)
                warnings.append(
                    "the marker file \(named) named by the header does not exist; "
                        + (found ? "read \(RecordingFile.fileName(of: sibling)) instead" : "no markers read"))
                candidate = found ? sibling : ""
            }
            if !candidate.isEmpty {
                let bytes = try RecordingFile.readAll(path: candidate)
                do {
                    entries = try BrainVisionMarkerFile(bytes: bytes).entries
                } catch {
                    throw .brainVision(path: candidate, problem: error)
                }
                markerPath = candidate
            }
        }
        let events = Self.events(entries, frames: frames, rate: header.rate, warnings: &warnings)

        let unique = UniqueChannelLabels.apply(to: header.channels.map(\.info))
        let channels = unique.channels
        if let warning = unique.warning { warnings.append(warning) }
        var metadata: [String: String] = [
            "file": RecordingFile.fileName(of: path),
            "format": "BrainVision",
            "brainvision.version": header.version,
            "brainvision.dataFile": header.dataFile,
            "brainvision.binaryFormat": header.binaryFormat.rawValue,
            "brainvision.orientation": header.isVectorized ? "VECTORIZED" : "MULTIPLEXED",
            "brainvision.samplingInterval": Self.decimal(header.samplingInterval) + " µs",
            "brainvision.codepage": header.codepage,
        ]
        if let markerPath { metadata["brainvision.markerFile"] = RecordingFile.fileName(of: markerPath) }
        let resolutions = header.channels.map(\.resolution)
        if Set(resolutions).count == 1 {
            metadata["brainvision.resolution"] = Self.decimal(resolutions[0])
        } else {
            for (channel, resolution) in zip(channels, resolutions) {
                metadata["brainvision.resolution.\(channel.label)"] = Self.decimal(resolution)
            }
        }
        for (channel, source) in zip(channels, header.channels) where !source.reference.isEmpty {
            metadata["brainvision.reference.\(channel.label)"] = source.reference
        }
        let isEEG = channels.contains { ["µV", "μV", "uV", "mV", "V", "nV"].contains($0.unit) }
        let format: SampleFormat =
            switch header.binaryFormat {
            case .int16: .int16
            case .int32: .int32
            case .float32: .float32
            }
        let descriptor = StreamDescriptor(
            name: isEEG ? "BrainVision EEG" : "BrainVision", contentType: isEEG ? .eeg : "BrainVision",
            channels: channels, nominalRate: header.rate, format: format,
            sourceID: "file:\(RecordingFile.fileName(of: path))", metadata: metadata)
        var timestamps: [Double]?
        if let start = events.start {
            var stamps = [Double](repeating: 0, count: frames)
            var missing = 0
            var next = 0
            for frame in 0..<frames {
                while next < events.gaps.count, events.gaps[next].beforeFrame <= frame {
                    missing += events.gaps[next].gap.missingCount
                    next += 1
                }
                stamps[frame] = start + Double(frame + missing) / header.rate
            }
            timestamps = stamps
        }
        let period = 1 / header.rate
        var missingBefore = 0
        let gaps = events.gaps.map { gap -> RecordingGap in
            let first = (events.start ?? 0) + Double(gap.beforeFrame + missingBefore) * period
            missingBefore += gap.gap.missingCount
            var timed = gap
            timed.gap.start = first
            timed.gap.end = first + Double(max(gap.gap.missingCount - 1, 0)) * period
            return timed
        }
        return Recording(
            descriptor: descriptor, values: values, timestamps: timestamps, markers: events.markers, gaps: gaps,
            warnings: warnings)
    }

    /// The markers, the start and the gaps of a marker file's entries.
    static func events(
        _ entries: [BrainVisionMarkerFile.Entry], frames: Int, rate: Double, warnings: inout [String]
    ) -> (markers: [RecordingMarker], start: Double?, gaps: [RecordingGap]) {
        var markers: [RecordingMarker] = []
        var gaps: [RecordingGap] = []
        var start: Double?
        var outside = 0
        var lasting = 0
        var perChannel = 0
        // Axon's `gap: N samples (cause)` comments, by position: the length of the New Segment there.
        var gapComments: [Int: (count: Int, cause: GapRecord.Cause)] = [:]
        for entry in entries where entry.type == "Comment" {
            if let parsed = Self.gapComment(entry.description) { gapComments[entry.position] = parsed }
        }
        var segmentSeen = false
        for entry in entries {
            if entry.type == "New Segment" {
                defer { segmentSeen = true }
                if !segmentSeen {
                    // The first segment dates its own sample: the start is that date less the samples before it.
                    start = entry.date.map { $0 - Double(max(entry.position - 1, 0)) / rate }
                    if entry.date == nil, !entry.dateText.isEmpty, entry.dateText.contains(where: { $0 != "0" }) {
                        warnings.append("line \(entry.line): the New Segment date \"\(entry.dateText)\" is not a date")
                    }
                    continue
                }
                guard entry.position > 1, entry.position <= frames else {
                    if entry.position > frames { outside += 1 }
                    continue
                }
                let frame = entry.position - 1
                var missing = 0
                var cause = GapRecord.Cause.deviceCounter
                if let comment = gapComments[entry.position] {
                    missing = comment.count
                    cause = comment.cause
                } else if let first = start, let date = entry.date {
                    if let samples = Int(roundingFinite: (date - first) * rate) {
                        let elapsed = samples - (entry.position - 1)
                        missing = max(0, elapsed - gaps.reduce(0) { $0 + $1.gap.missingCount })
                    } else {
                        warnings.append(
                            "line \(entry.line): the New Segment date is too far from the start to count samples; "
                                + "kept as a gap of 0 samples")
                    }
                } else {
                    warnings.append(
                        "a New Segment (a discontinuity) before frame \(frame) has no date: a gap of unknown length, "
                            + "kept as a gap of 0 samples")
                }
                gaps.append(
                    RecordingGap(
                        beforeFrame: frame, gap: GapRecord(cause: cause, missingCount: missing, start: 0, end: 0)))
                continue
            }
            if entry.type == "Comment", let comment = gapComments[entry.position],
                Self.gapComment(entry.description).map({ $0 == comment }) ?? false,
                entries.contains(where: { $0.type == "New Segment" && $0.position == entry.position })
            {
                continue  // said by the gap it belongs to
            }
            guard entry.position >= 1, entry.position <= frames else {
                outside += 1
                continue
            }
            if entry.size > 1 { lasting += 1 }
            if entry.channel != 0 { perChannel += 1 }
            let text = entry.type == "Comment" ? entry.description : "\(entry.type)/\(entry.description)"
            var value = 0.0
            if entry.type == "Stimulus" || entry.type == "Response" {
                let digits = entry.description.drop { !$0.isNumber && $0 != "-" }
                value = Double(digits.trimmingCharacters(in: .whitespaces)) ?? 0
            }
            markers.append(RecordingMarker(frame: entry.position - 1, value: value, text: text))
        }
        if outside > 0 { warnings.append("\(outside) markers lie outside the data's \(frames) samples: skipped") }
        if lasting > 0 {
            warnings.append("\(lasting) markers last more than one sample; each is kept at its first sample only")
        }
        if perChannel > 0 {
            warnings.append("\(perChannel) markers belong to one channel; they are kept as markers of every channel")
        }
        markers.sort { $0.frame < $1.frame }  // stable: markers at one frame keep their order
        return (markers, start, gaps)
    }

    /// `gap: 12 samples (deviceCounter)` → (12, .deviceCounter), as ``EDFConversion`` and ``BrainVisionWriter`` write.
    static func gapComment(_ text: String) -> (count: Int, cause: GapRecord.Cause)? {
        guard text.hasPrefix("gap: "), text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        let head = text[text.index(text.startIndex, offsetBy: 5)..<open].trimmingCharacters(in: .whitespaces)
        guard head.hasSuffix(" samples"), let count = Int(head.dropLast(8)), (0...2_147_483_647).contains(count),
            let cause = GapRecord.Cause(
                rawValue: String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
        else { return nil }
        return (count, cause)
    }

    /// `0.1`, `4000`: a number without a needless `.0`.
    static func decimal(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
