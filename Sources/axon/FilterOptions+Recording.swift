import AxonDSP
import AxonRecording
import AxonStreams

extension FilterOptions {
    /// Why a recording could not be filtered, with the channel it concerns.
    enum RecordingFilterError: Error, CustomStringConvertible {
        /// A channel holds NaN or infinite values, which a forward-backward pass would spread over the whole channel.
        case nonFinite(channel: String, count: Int)
        /// A stretch between gaps is too short for the design's reflection padding.
        case tooShort(channel: String, frames: Int, minimum: Int)

        var description: String {
            switch self {
            case .nonFinite(let channel, let count):
                "cannot filter \(channel): it holds \(count) NaN or infinite values"
            case .tooShort(let channel, let frames, let minimum):
                "cannot filter \(channel): a stretch between gaps has \(frames) samples, fewer than the "
                    + "\(minimum) a zero-phase pass needs"
            }
        }
    }

    /// `recording`'s main stream (the EEG the commands analyse) filtered forward and backward (zero-phase) channel by
    /// channel, or `recording` unchanged when no filter was asked for; its other streams (``Recording/companions``:
    /// a Mind Monitor file's band powers, an XDF's accelerometer) are left as they are. Each stretch between gaps
    /// is filtered on its own, so nothing is smeared across missing samples. The descriptor's metadata records what
    /// ran (`filters`, and `edf.prefilter` for EDF's prefiltering field, after any the source declared); declared
    /// ranges are dropped when a high- or band-pass removes the offset they describe.
    ///
    /// - Throws: `ValidationError` when the main stream's rate is too low for an edge, ``RecordingFilterError`` for
    ///   non-finite values or a stretch too short to pad.
    /// - Complexity: O(frames × channels × sections); one copy of the values.
    func filtered(_ recording: Recording) throws -> Recording {
        guard isActive else { return recording }
        return try filteredStream(recording.withCompanions([])).withCompanions(recording.companions)
    }

    private func filteredStream(_ stream: Recording) throws -> Recording {
        guard let design = try design(sampleRate: stream.sampleRate) else { return stream }
        let width = stream.channelCount
        let frames = stream.frameCount
        var values = stream.values
        var channel = [Double](repeating: 0, count: frames)
        for index in 0..<width {
            let label = stream.channelLabels[index]
            for frame in 0..<frames { channel[frame] = values[frame * width + index] }
            let nonFinite = channel.count(where: { !$0.isFinite })
            guard nonFinite == 0 else { throw RecordingFilterError.nonFinite(channel: label, count: nonFinite) }
            for span in stream.stretchesBetweenGaps {
                let stretch = Array(channel[span])
                guard stretch.count > design.defaultPadLength else {
                    throw RecordingFilterError.tooShort(
                        channel: label, frames: stretch.count, minimum: design.defaultPadLength + 1)
                }
                let output = try design.zeroPhaseFiltered(stretch)
                for (offset, value) in output.enumerated() {
                    values[(span.lowerBound + offset) * width + index] = value
                }
            }
        }
        var descriptor = stream.descriptor
        if highpass != nil || bandpass != nil {
            descriptor.channels = descriptor.channels.map { ChannelInfo(label: $0.label, unit: $0.unit) }
        }
        descriptor.metadata["filters"] = summary(.zeroPhase, sampleRate: stream.sampleRate)
        if let prefiltering = edfPrefiltering {
            let before = descriptor.metadata["edf.prefilter"].flatMap { $0.isEmpty ? nil : $0 }
            descriptor.metadata["edf.prefilter"] = [before, prefiltering].compactMap { $0 }.joined(separator: " ")
        }
        return stream.withValues(values, descriptor: descriptor)
    }
}
