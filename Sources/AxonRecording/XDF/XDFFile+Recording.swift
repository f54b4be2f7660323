import AxonStreams
import Foundation

extension XDFFile {
    /// The file as a ``Recording`` (what `axon info`, `analyze`, `replay`, `convert` and `view` take): its first
    /// regular numeric stream (an EEG stream first) on the recording's one timeline (``XDFFile/Stream/timeline()``:
    /// clock offsets added, clock resets bridged), with
    /// - its pauses as ``Recording/gaps`` (``AxonStreams/GapRecord``s of cause `.deviceCounter`, counted at the nominal
    ///   rate, as a live LSL inlet reports a jump in its timestamps), each also a warning;
    /// - the text samples of its first string stream as markers on the frame stamped nearest to them (on the same
    ///   timeline; a marker in a gap on the first frame after it); a marker more than half a sample outside the data
    ///   is a warning (and counted in `xdf.markers.outside`), never put on the first or last frame;
    /// - every stream listed in the metadata (`xdf.stream.ID`: nominal and effective rate, samples, pauses) and each
    ///   clock reset (`xdf.stream.ID.reset.N`), the main stream's resets also as warnings.
    ///
    /// Its timestamps are Unix times: the timeline plus the FileHeader's `unix_time_offset` (Axon writes it), or the
    /// timeline itself when it holds Unix times, or the FileHeader's `datetime` for the first frame (LabRecorder's
    /// files; with a warning); none when the file gives no way to date it.
    ///
    /// - Throws: ``RecordingError/malformedHeader(line:reason:)`` when the file has no regular numeric stream with
    ///   samples.
    ///
    /// The file's other regular numeric streams with samples are the recording's ``Recording/companions``, each read
    /// the same way (its own rate, timeline and pauses) but without markers, in the file's order.
    public func recording(sourceName: String) throws(RecordingError) -> Recording {
        let regular = streams.filter { $0.format != .string && $0.nominalRate > 0 && $0.sampleCount > 0 }
        guard let mainIndex = regular.firstIndex(where: { $0.type == "EEG" }) ?? regular.indices.first else {
            throw .malformedHeader(line: 0, reason: "the XDF file has no regular numeric stream with samples")
        }
        // By position, not by id: a damaged file may give two streams one id.
        let companions = regular.indices.filter { $0 != mainIndex }.map {
            recording(of: regular[$0], sourceName: sourceName, placesMarkers: false)
        }
        return recording(of: regular[mainIndex], sourceName: sourceName, placesMarkers: true)
            .withCompanions(companions)
    }

    /// One regular numeric stream as a recording; `placesMarkers`: with the first string stream's markers.
    private func recording(of main: Stream, sourceName: String, placesMarkers: Bool) -> Recording {
        var metadata = ["format": "XDF", "xdf.streams": String(streams.count), "xdf.boundaries": String(boundaryCount)]
        var warnings: [String] = []
        var seen: Set<UInt32> = []
        for stream in streams {
            if !seen.insert(stream.id).inserted {
                warnings.append("two streams have the id \(stream.id) (a damaged file): the metadata lists the last")
            }
            let timeline = stream.timeline()
            var rate = "irregular"
            if stream.nominalRate > 0 {
                rate = "\(stream.nominalRate) Hz nominal"
                if let effective = timeline.effectiveRate { rate += ", \(Self.decimal(effective, 4)) Hz effective" }
            }
            metadata["xdf.stream.\(stream.id)"] =
                "\(stream.name) (\(stream.type)): \(stream.channelCount) channels, "
                + "\(rate), \(stream.format.rawValue), \(stream.sampleCount) samples, source_id \(stream.sourceID)"
                + (stream.footerSampleCount == nil ? ", no footer" : "")
                + (timeline.pauses.isEmpty ? "" : ", \(timeline.pauses.count) pauses")
            for (number, reset) in timeline.resets.enumerated() {
                metadata["xdf.stream.\(stream.id).reset.\(number + 1)"] =
                    "clock reset before sample \(reset.sample): stamps \(Self.decimal(reset.stampBefore, 3)) → "
                    + "\(Self.decimal(reset.stampAfter, 3)) s, "
                    + (reset.isBridged
                        ? "mapped to \(Self.decimal(reset.time, 3)) s on the recording's clock"
                        : "not mapped (no clock offset jumped with it)")
            }
        }
        if trailingBytes > 0 { warnings.append("cut short: \(trailingBytes) bytes after the last whole chunk") }
        let channels = (0..<main.channelCount).map { index in
            ChannelInfo(
                label: index < main.labels.count && !main.labels[index].isEmpty ? main.labels[index] : "Ch\(index + 1)",
                unit: index < main.units.count ? main.units[index] : "")
        }
        let descriptor = StreamDescriptor(
            name: main.name, contentType: StreamContentType(main.type), channels: channels,
            nominalRate: main.nominalRate, format: main.format == .double64 ? .float64 : .float32,
            sourceID: main.sourceID.isEmpty ? "file:\(sourceName)" : main.sourceID, metadata: metadata)
        // Both on the recording machine's clock, clock resets bridged (a stream from an LSL inlet is stored on its
        // outlet's clock).
        let mainTimeline = main.timeline()
        let frameTimes = mainTimeline.times
        var markers: [RecordingMarker] = []
        if placesMarkers, let text = streams.first(where: { $0.format == .string }) {
            let period = 1 / main.nominalRate
            let markerTimes = text.timeline().times
            var outside = 0
            for (index, time) in markerTimes.enumerated() {
                let strings = text.strings[(index * text.channelCount)..<((index + 1) * text.channelCount)]
                let label = strings.joined(separator: " ")
                // Outside the data (more than half a sample before the first frame or after the last): reported, not
                // put on the first or last frame.
                guard let first = frameTimes.first, let last = frameTimes.last,
                    time >= first - period / 2, time <= last + period / 2
                else {
                    outside += 1
                    warnings.append(
                        "marker \"\(label)\" at \(Self.decimal(time, 3)) s is outside the data "
                            + "(\(Self.decimal(frameTimes.first ?? 0, 3))…"
                            + "\(Self.decimal(frameTimes.last ?? 0, 3)) s): "
                            + "not placed")
                    continue
                }
                // The frame nearest to the marker's time (times increase), but never one before a gap the marker
                // follows: the first frame at or after it, or the one before when that is nearer.
                var low = 0
                var high = main.sampleCount - 1
                while low < high {
                    let middle = (low + high) / 2
                    if frameTimes[middle] < time { low = middle + 1 } else { high = middle }
                }
                var frame = low
                if frame > 0, time - frameTimes[frame - 1] < frameTimes[frame] - time,
                    !mainTimeline.pauses.contains(where: { $0.beforeSample == frame })
                {
                    frame -= 1
                }
                if let pause = mainTimeline.pauses.first(where: { $0.beforeSample == frame }),
                    time < frameTimes[frame] - period / 2
                {
                    warnings.append(
                        "marker \"\(label)\" at \(Self.decimal(time, 3)) s falls in the \(pause.missingCount)-sample "
                            + "gap: placed on the first frame after it")
                }
                markers.append(RecordingMarker(frame: frame, value: 1, text: label))
            }
            if outside > 0 { metadata["xdf.markers.outside"] = String(outside) }
        }
        for reset in mainTimeline.resets where !reset.isBridged {
            warnings.append(
                "the sender's clock was reset before frame \(reset.sample) "
                    + "(stamps \(Self.decimal(reset.stampBefore, 3)) → \(Self.decimal(reset.stampAfter, 3)) s) "
                    + "and no clock offset says where the part after it lies: its times are as stored, so markers and gaps "
                    + "across it are not placed reliably")
        }
        for reset in mainTimeline.resets where reset.isBridged {
            warnings.append(
                "the sender's clock was reset before frame \(reset.sample) "
                    + "(stamps \(Self.decimal(reset.stampBefore, 3)) → "
                    + "\(Self.decimal(reset.stampAfter, 3)) s); its clock offsets put both parts on one timeline")
        }
        // Unix times: the synchronised timestamps plus the FileHeader's unix_time_offset (Axon's files), or as
        // they are when they are Unix times already, or — LabRecorder's files, stamped on a clock counted from the
        // machine's boot — the FileHeader's datetime (when the file was created) for the first frame.
        let synchronized = frameTimes
        var timestamps: [Double]?
        if let offset = unixTimeOffset {
            timestamps = synchronized.map { $0 + offset }
        } else if let first = synchronized.first, first > 978_307_200 {
            timestamps = synchronized
        } else if let datetime, let created = Self.unixTime(iso8601: datetime), let first = synchronized.first {
            timestamps = synchronized.map { created + ($0 - first) }
            warnings.append(
                "start taken from the file header's datetime \(datetime) (when the file was created; to the second): "
                    + "the stream's timestamps are not Unix times")
        }
        if let stamps = timestamps, !(stamps.first.map { $0 > 978_307_200 } ?? false) { timestamps = nil }
        // The pauses as gap records, timed like the frames (Unix times when the recording has them).
        let shift = (timestamps?.first ?? frameTimes[0]) - frameTimes[0]
        let samplePeriod = 1 / main.nominalRate
        let gaps = mainTimeline.pauses.map { pause in
            RecordingGap(
                beforeFrame: pause.beforeSample,
                gap: GapRecord(
                    cause: .deviceCounter, missingCount: pause.missingCount, start: pause.from + shift + samplePeriod,
                    end: pause.from + shift + Double(pause.missingCount) * samplePeriod))
        }
        for gap in gaps {
            warnings.append(
                "gap of \(gap.gap.missingCount) samples "
                    + "(\(Self.decimal(Double(gap.gap.missingCount) * samplePeriod, 3)) s "
                    + "before frame \(gap.beforeFrame)) in the stream's timestamps")
        }
        var described = descriptor
        described.metadata = metadata
        return Recording(
            descriptor: described, values: main.values, timestamps: timestamps, markers: markers, gaps: gaps,
            warnings: warnings)
    }

    /// `value` with `digits` decimals.
    static func decimal(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

    /// An ISO 8601 date and time (`2019-05-15T12:00:00+0200`, `…Z`, `…+02:00`, with or without fractions) as Unix
    /// seconds, or nil.
    static func unixTime(iso8601 text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }
}
