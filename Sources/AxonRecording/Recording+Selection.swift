import AxonStreams

extension Recording {
    /// The index of the channel labelled `label`: an exact match first, else the first case-insensitive one
    /// (`"exg6"` finds `"EXG6"`, `"tp9"` finds `"TP9"`).
    ///
    /// - Throws: ``RecordingError/unknownChannel(label:available:)`` listing the labels the recording has.
    /// - Complexity: O(channels).
    ///
    /// A label written twice in the file was made unique (`EEG` → `EEG-0`, `EEG-1`, as MNE-Python does): the label
    /// as written finds its channel when only one has it, and is ambiguous otherwise.
    ///
    /// - Throws: ``RecordingError/unknownChannel(label:available:)`` listing the labels the recording has,
    ///   ``RecordingError/ambiguousChannel(label:matches:)`` for a written label several channels share.
    /// - Complexity: O(channels).
    public func channelIndex(of label: String) throws(RecordingError) -> Int {
        let labels = channelLabels
        if let exact = labels.firstIndex(of: label) { return exact }
        let folded = label.lowercased()
        if let loose = labels.firstIndex(where: { $0.lowercased() == folded }) { return loose }
        let written = descriptor.channels.indices.filter {
            descriptor.channels[$0].writtenLabel.map { $0.lowercased() == folded } ?? false
        }
        if written.count == 1 { return written[0] }
        if written.count > 1 { throw .ambiguousChannel(label: label, matches: written.map { labels[$0] }) }
        throw .unknownChannel(label: label, available: labels)
    }

    /// One channel's samples, gathered into a contiguous array. O(frames).
    public func channel(at index: Int) -> [Double] {
        precondition((0..<channelCount).contains(index), "channel index out of range")
        let stride = channelCount
        return [Double](unsafeUninitializedCapacity: frameCount) { buffer, count in
            values.withUnsafeBufferPointer { source in
                for frame in 0..<frameCount { buffer[frame] = source[frame * stride + index] }
            }
            count = frameCount
        }
    }

    /// One channel's samples by label (matched as ``channelIndex(of:)`` does). O(frames).
    ///
    /// - Throws: ``RecordingError/unknownChannel(label:available:)``.
    public func channel(_ label: String) throws(RecordingError) -> [Double] {
        channel(at: try channelIndex(of: label))
    }

    /// A recording with only the named channels, in the order given (labels matched as ``channelIndex(of:)``
    /// does). Times, counters and markers are kept; `metadata` entries `sourceColumn.<label>` of dropped channels
    /// are removed.
    ///
    ///     let occipital = try recording.selecting(channels: ["EXG6", "EXG7"])
    ///
    /// With ``companions`` (streams at other rates), each label is looked up in this stream, then in each companion
    /// in turn; a stream none of whose channels is named is left out. When this stream is left out, the first stream
    /// kept becomes the main one and takes the markers (moved to its nearest frame; the gaps, this stream's, go).
    ///
    /// - Throws: ``RecordingError/unknownChannel(label:available:)`` for the first label that matches nothing
    ///   (listing every stream's labels), ``RecordingError/ambiguousChannel(label:matches:)``.
    /// - Complexity: O(frames × selected channels).
    public func selecting(channels labels: [String]) throws(RecordingError) -> Recording {
        guard !companions.isEmpty else { return try selectingOwn(channels: labels) }
        let streams = self.streams
        var named = Array(repeating: [String](), count: streams.count)
        for label in labels {
            var found = false
            for (index, stream) in streams.enumerated() {
                do {
                    _ = try stream.channelIndex(of: label)
                } catch .unknownChannel {
                    continue
                }
                named[index].append(label)
                found = true
                break
            }
            if !found { throw .unknownChannel(label: label, available: streams.flatMap(\.channelLabels)) }
        }
        var kept: [Recording] = []
        for (index, stream) in streams.enumerated() where !named[index].isEmpty {
            kept.append(try stream.selectingOwn(channels: named[index]))
        }
        guard named[0].isEmpty else { return kept[0].withCompanions(Array(kept.dropFirst())) }
        // The main stream is left out: the first one kept takes its markers, at the same times.
        let main = kept[0]
        let markers = self.markers.map { marker in
            let seconds = Double(marker.frame) / sampleRate
            let frame = min(main.frameCount - 1, max(0, Int((seconds * main.sampleRate).rounded())))
            return RecordingMarker(frame: frame, value: marker.value, text: marker.text)
        }
        return Recording(
            descriptor: main.descriptor, values: main.values, timestamps: main.timestamps, counters: main.counters,
            counterModulus: main.counterModulus, markers: markers, warnings: main.warnings,
            truncation: main.truncation, companions: Array(kept.dropFirst()))
    }

    /// ``selecting(channels:)`` on this stream alone.
    private func selectingOwn(channels labels: [String]) throws(RecordingError) -> Recording {
        var indices: [Int] = []
        indices.reserveCapacity(labels.count)
        for label in labels { indices.append(try channelIndex(of: label)) }
        precondition(!indices.isEmpty, "select at least one channel")
        let stride = channelCount
        let width = indices.count
        let selected = [Double](unsafeUninitializedCapacity: frameCount * width) { buffer, count in
            values.withUnsafeBufferPointer { source in
                for frame in 0..<frameCount {
                    for (slot, channel) in indices.enumerated() {
                        buffer[frame * width + slot] = source[frame * stride + channel]
                    }
                }
            }
            count = frameCount * width
        }
        var descriptor = self.descriptor
        descriptor.channels = indices.map { self.descriptor.channels[$0] }
        let kept = Set(descriptor.channels.map(\.label))
        descriptor.metadata = descriptor.metadata.filter { key, _ in
            guard key.hasPrefix(Self.sourceColumnKeyPrefix) else { return true }
            return kept.contains(String(key.dropFirst(Self.sourceColumnKeyPrefix.count)))
        }
        return Recording(
            descriptor: descriptor, values: selected, timestamps: timestamps, counters: counters,
            counterModulus: counterModulus, markers: markers, gaps: gaps, warnings: warnings, truncation: truncation)
    }

    /// The frames between two times, in seconds from the first frame at the nominal rate: frames
    /// `round(from × rate) ..< round(to × rate)`. At 250 Hz, 34–76 s is frames 8,500 ..< 19,000 (10,500 frames).
    ///
    /// Timestamps, counters and markers of those frames are kept (marker frames are renumbered from the segment's
    /// start); the descriptor is unchanged.
    ///
    /// - Throws: ``RecordingError/invalidSegment(from:to:duration:)`` unless `0 ≤ from < to ≤ duration` (the end
    ///   may overshoot by half a sample) and the range holds at least one frame.
    /// - Complexity: O(frames in the segment × channels): one contiguous copy.
    public func segment(from start: Double, to end: Double) throws(RecordingError) -> Recording {
        let halfSample = 0.5 / sampleRate
        guard start.isFinite, end.isFinite, start >= 0, start < end, end <= duration + halfSample else {
            throw .invalidSegment(from: start, to: end, duration: duration)
        }
        let first = Int((start * sampleRate).rounded())
        let last = min(frameCount, Int((end * sampleRate).rounded()))
        guard first < last else { throw .invalidSegment(from: start, to: end, duration: duration) }
        return frames(first..<last)
    }

    /// The frames in `range` (frame indices), with their timestamps, counters, markers and the gaps between them
    /// (renumbered from the range's start). Each of ``companions`` keeps its frames in the same span of time (its
    /// start placed by the two streams' first timestamps when both have them, else at this stream's); a companion
    /// with no frame in it is left out. O(frames in range × channels).
    public func frames(_ range: Range<Int>) -> Recording {
        precondition(range.lowerBound >= 0 && range.upperBound <= frameCount, "frame range out of bounds")
        let slice = Array(values[(range.lowerBound * channelCount)..<(range.upperBound * channelCount)])
        let kept = markers.filter { range.contains($0.frame) }.map {
            RecordingMarker(frame: $0.frame - range.lowerBound, value: $0.value, text: $0.text)
        }
        let keptGaps = gaps.filter { $0.beforeFrame > range.lowerBound && $0.beforeFrame < range.upperBound }.map {
            RecordingGap(beforeFrame: $0.beforeFrame - range.lowerBound, gap: $0.gap)
        }
        let from = Double(range.lowerBound) / sampleRate
        let to = Double(range.upperBound) / sampleRate
        let keptCompanions = companions.compactMap { companion -> Recording? in
            var offset = 0.0
            if let own = startTime, let theirs = companion.startTime { offset = theirs - own }
            func frame(_ seconds: Double) -> Int {
                min(companion.frameCount, max(0, Int(((seconds - offset) * companion.sampleRate).rounded())))
            }
            let first = frame(from)
            let last = frame(to)
            return first < last ? companion.frames(first..<last) : nil
        }
        return Recording(
            descriptor: descriptor, values: slice, timestamps: timestamps.map { Array($0[range]) },
            counters: counters.map { Array($0[range]) }, counterModulus: counterModulus, markers: kept, gaps: keptGaps,
            warnings: warnings, truncation: truncation, companions: keptCompanions)
    }

    /// Prefix of the `metadata` keys that name the file column a channel came from (`sourceColumn.EXG0` =
    /// `EXG Channel 0`).
    public static let sourceColumnKeyPrefix = "sourceColumn."
}
