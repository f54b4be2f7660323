import AxonStreams

extension FIFParse {
    /// Names of FIF channel kinds (MNE-Python's channel types).
    static let kindNames: [Int32: String] = [
        1: "meg", 2: "eeg", 3: "stim", 102: "bio", 202: "eog", 301: "ref_meg", 302: "emg", 402: "ecg", 502: "misc",
        602: "resp", 802: "seeg", 803: "dbs", 900: "syst", 902: "ecog", 910: "ias", 1100: "fnirs",
        1200: "temperature", 1300: "gsr", 1400: "eyetrack",
    ]

    /// Unit codes as text (SI; volts are given in µV by the reader).
    static let unitNames: [Int32: String] = [
        -1: "", 0: "", 1: "m", 2: "kg", 3: "s", 4: "A", 5: "K", 6: "mol", 7: "rad", 101: "Hz", 102: "N", 103: "Pa",
        104: "J", 105: "W", 106: "C", 107: "V", 108: "F", 109: "Ω", 110: "S", 111: "Wb", 112: "T", 113: "H",
        114: "°C", 201: "T/m", 202: "Am", 210: "px",
    ]

    /// Whether a channel is given in µV: a channel in volts, except a stimulus channel, whose "volts" are trigger
    /// codes (MNE-Python gives stimulus channels the unit V); those keep their numbers and have no unit.
    static func isMicrovolts(_ channel: Channel) -> Bool { channel.unit == 107 && channel.kind != 3 }

    /// The recording the walk found.
    ///
    /// - Throws: ``FIFProblem/missing(_:)``, ``FIFProblem/channelCount(declared:described:)``,
    ///   ``FIFProblem/noData``.
    func recording(sourceName: String) throws(FIFProblem) -> Recording {
        guard sawMeasurementInfo else { throw .missing("measurement info (FIFFB_MEAS_INFO)") }
        guard let count = channelCount else { throw .missing("channel count (FIFF_NCHAN)") }
        guard let rate else { throw .missing("sampling rate (FIFF_SFREQ)") }
        guard channels.count == count else { throw .channelCount(declared: count, described: channels.count) }
        guard sawRawData else { throw .missing("raw data block (FIFFB_RAW_DATA or FIFFB_CONTINUOUS_DATA)") }
        let frames = buffers.reduce(0) { $0 + $1.frames }
        guard frames > 0 else { throw .noData }
        var warnings = self.warnings

        // Values: stored × range × cal (MNE-Python's calibration), volts as µV.
        let scales = channels.map { channel -> Double in
            Double(channel.range) * Double(channel.cal) * (Self.isMicrovolts(channel) ? 1e6 : 1)
        }
        var values = [Double](repeating: 0, count: frames * count)
        var frame = 0
        values.withUnsafeMutableBufferPointer { out in
            for buffer in buffers {
                for index in 0..<(buffer.frames * count) {
                    let stored: Double
                    switch buffer.type {
                    case FIFTag.DataType.int16, FIFTag.DataType.packedInt16:
                        stored = Double(bytes.int16(buffer.offset + 2 * index))
                    case FIFTag.DataType.int32: stored = Double(bytes.int32(buffer.offset + 4 * index))
                    case FIFTag.DataType.float32: stored = Double(bytes.float32(buffer.offset + 4 * index))
                    default: stored = bytes.float64(buffer.offset + 8 * index)
                    }
                    out[frame * count + index] = stored * scales[index % count]
                }
                frame += buffer.frames
            }
        }

        // Channels: the full name where MNE-Python kept one, units, kinds.
        let names = channels.enumerated().map { index, channel in
            (index < longNames.count ? longNames[index] : nil) ?? channel.name
        }
        let infos = zip(names, channels).enumerated().map { index, pair in
            ChannelInfo(
                label: pair.0.isEmpty ? "Ch\(index + 1)" : pair.0,
                unit: Self.isMicrovolts(pair.1)
                    ? "µV" : pair.1.kind == 3 ? "" : Self.unitNames[pair.1.unit] ?? "unit \(pair.1.unit)")
        }
        let unique = UniqueChannelLabels.apply(to: infos)
        if let warning = unique.warning { warnings.append(warning) }
        let kinds = channels.map { Self.kindNames[$0.kind] ?? "kind \($0.kind)" }
        var metadata: [String: String] = [
            "file": sourceName, "format": "FIF", "fif.firstSample": String(firstSample),
            "fif.buffers": String(buffers.count),
        ]
        metadata.merge(identification) { first, _ in first }
        if Set(kinds).count == 1 {
            metadata["fif.kind"] = kinds[0]
        } else {
            for (channel, kind) in zip(unique.channels, kinds) { metadata["fif.kind.\(channel.label)"] = kind }
        }

        // Gaps and times: a skip is samples missing between two buffers.
        let period = 1 / rate
        let start = measurementDate.map { $0 + Double(firstSample) * period }
        var missingSoFar = 0
        let recordingGaps = gaps.map { gap -> RecordingGap in
            let first = (start ?? 0) + Double(gap.beforeFrame + missingSoFar) * period
            missingSoFar += gap.missing
            return RecordingGap(
                beforeFrame: gap.beforeFrame,
                gap: GapRecord(
                    cause: .deviceCounter, missingCount: gap.missing, start: first,
                    end: first + Double(gap.missing - 1) * period))
        }
        for gap in recordingGaps {
            warnings.append(
                "\(gap.gap.missingCount) samples skipped (FIFF_DATA_SKIP) before frame \(gap.beforeFrame): a gap "
                    + "(MNE-Python reads them as zeros)")
        }
        var timestamps: [Double]?
        if let start {
            var stamps = [Double](repeating: 0, count: frames)
            var missing = 0
            var next = 0
            for frame in 0..<frames {
                while next < gaps.count, gaps[next].beforeFrame <= frame {
                    missing += gaps[next].missing
                    next += 1
                }
                stamps[frame] = start + Double(frame + missing) * period
            }
            timestamps = stamps
        }

        // Annotations: onsets in seconds from their origin (the measurement date, or the time of sample 0).
        var markers: [RecordingMarker] = []
        if !(annotationOnsets.count == annotationTexts.count && annotationEnds.count == annotationOnsets.count) {
            if !annotationOnsets.isEmpty || !annotationTexts.isEmpty {
                warnings.append(
                    "the annotations block has \(annotationOnsets.count) onsets, \(annotationEnds.count) ends and "
                        + "\(annotationTexts.count) descriptions: not read")
            }
        } else {
            var outside = 0
            var lasting = 0
            let shift =
                (annotationOrigin ?? measurementDate).flatMap { origin in
                    measurementDate.map { origin - $0 }
                } ?? 0
            for (index, onset) in annotationOnsets.enumerated() {
                // A sample of MNE-Python's timeline (skipped samples counted), then Axon's frame.
                guard let timeline = Int(roundingFinite: (onset + shift) * rate) else {
                    outside += 1
                    continue
                }
                let sample = timeline - firstSample
                var missing = 0
                for gap in gaps {
                    if sample >= gap.beforeFrame + missing + gap.missing { missing += gap.missing }
                }
                let frame = sample - missing
                guard frame >= 0, frame < frames else {
                    outside += 1
                    continue
                }
                if annotationEnds[index] - onset > period / 2 { lasting += 1 }
                markers.append(RecordingMarker(frame: frame, value: 0, text: annotationTexts[index]))
            }
            if outside > 0 { warnings.append("\(outside) annotations lie outside the data: skipped") }
            if lasting > 0 {
                warnings.append("\(lasting) annotations have a duration; each is kept at its onset only")
            }
            markers.sort { $0.frame < $1.frame }
        }

        let isEEG = channels.contains { $0.kind == 2 }
        let format: SampleFormat =
            switch buffers[0].type {
            case FIFTag.DataType.int16, FIFTag.DataType.packedInt16: .int16
            case FIFTag.DataType.int32: .int32
            case FIFTag.DataType.float32: .float32
            default: .float64
            }
        let descriptor = StreamDescriptor(
            name: isEEG ? "FIF EEG" : "FIF", contentType: isEEG ? .eeg : "FIF", channels: unique.channels,
            nominalRate: rate, format: format, sourceID: "file:\(sourceName)", metadata: metadata)
        return Recording(
            descriptor: descriptor, values: values, timestamps: timestamps, markers: markers, gaps: recordingGaps,
            warnings: warnings)
    }
}
