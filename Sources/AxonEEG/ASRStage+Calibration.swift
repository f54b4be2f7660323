// AxonEEG — an ASR calibration from a clean stretch of a recording, high-passed as the stage does.

import AxonDSP

extension ASRStage {
    /// Calibrates on clean raw frames (frame-major, `frames[frame · channels + channel]`, in the stream's unit):
    /// high-passes them with the stage's filter (primed on the first frame, as the stage does) and learns the
    /// calibration a ``Calibration/given(_:)`` stage then uses. For recordings whose start is not clean (a stage
    /// calibrating on its first seconds would learn the blinks).
    ///
    /// - Throws: ``EEGError/dsp(_:)`` for too few frames or parameters ASR cannot use.
    /// - Complexity: O(frames · channels²); allocates (not for the real-time path).
    public func calibration(cleanFrames frames: [Double], channelCount: Int, sampleRate: Double) throws(EEGError)
        -> ASRCalibration
    {
        do throws(DSPError) {
            let filter = try HighPassFilter(channelCount: channelCount, cutoff: highPassCutoff, sampleRate: sampleRate)
            var filtered = frames
            filtered.withUnsafeMutableBufferPointer { buffer in
                var row = buffer.baseAddress!
                for _ in 0..<(buffer.count / channelCount) {
                    filter.filter(row)
                    row += channelCount
                }
            }
            return try ASRCalibration(
                frames: filtered, configuration: configuration(sampleRate: sampleRate, channelCount: channelCount))
        } catch {
            throw .dsp(error)
        }
    }
}
