import AxonRecording
import StreamTestSupport

extension CollectingSink.Contents {
    /// The largest |value − recording| over every frame and the first `channels` channels, matching frames to the
    /// recording's rows by the device counter (12 samples per packet index, the recording looped).
    func worstDifference(from recording: Recording, channels: Int) -> Double {
        var worst = 0.0
        for (frame, counter) in counters.enumerated() {
            let row = Int(counter) % recording.frameCount
            for channel in 0..<channels {
                worst = max(worst, abs(values[frame][channel] - recording.value(frame: row, channel: channel)))
            }
        }
        return worst
    }
}
