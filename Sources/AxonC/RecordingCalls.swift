// AxonC — opening, describing, reading and closing a recording through axon.h.

import AxonRecording
import CAxonABI

/// Opens and reads the recording at `path` into a new handle (`axon.h`). Any thread.
@c @implementation
public func axon_recording_open(
    _ path: UnsafePointer<CChar>?, _ recording: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_recording_open"
        guard let path else { throw .null("path", in: function) }
        guard let recording else { throw .null("recording", in: function) }
        let read: Recording
        do throws(RecordingError) { read = try RecordingReader.read(path: String(cString: path)) } catch {
            throw CallFailure(error, in: function)
        }
        recording.pointee = HandleRegistry.shared.open(RecordingHandle(read))
    }
}

/// Closes a recording and sets the caller's pointer to NULL (`axon.h`).
@c @implementation
public func axon_recording_close(_ recording: UnsafeMutablePointer<OpaquePointer?>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        try HandleRegistry.shared.close(
            recording, as: RecordingHandle.self, kind: RecordingHandle.kind, in: "axon_recording_close")
    }
}

/// Describes a recording: channels, frames, rate, start, gaps, markers, warnings (`axon.h`).
@c @implementation
public func axon_recording_get_info(
    _ recording: OpaquePointer?, _ info: UnsafeMutablePointer<axon_recording_info>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_recording_get_info"
        let handle = try RecordingHandle.from(recording, in: function)
        guard let info else { throw .null("info", in: function) }
        let recording = handle.recording
        var result = axon_recording_info()
        result.channel_count = recording.channelCount
        result.frame_count = Int64(recording.frameCount)
        result.sample_rate = recording.sampleRate
        result.duration = recording.duration
        result.has_timestamps = recording.timestamps == nil ? 0 : 1
        result.start_time = recording.startTime ?? .nan
        result.gap_count = recording.gaps.count
        result.marker_count = recording.markers.count
        result.warning_count = recording.warnings.count
        info.pointee = result
    }
}

/// Reads frames `[from, from + count)` channel-major into the caller's buffer, and optionally their times
/// (`axon.h`). Allocates nothing: O(channels × count).
@c @implementation
public func axon_recording_read(
    _ recording: OpaquePointer?, _ from: Int64, _ count: Int, _ samples: UnsafeMutablePointer<Double>?,
    _ capacity: Int, _ times: UnsafeMutablePointer<Double>?, _ framesRead: UnsafeMutablePointer<Int>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_recording_read"
        let handle = try RecordingHandle.from(recording, in: function)
        let recording = handle.recording
        guard let framesRead else { throw .null("frames_read", in: function) }
        guard (0...Int64(recording.frameCount)).contains(from) else {
            throw .invalidArgument(
                "\(function): from = \(from) is outside 0…\(recording.frameCount), the recording's frames")
        }
        let channels = recording.channelCount
        let (needed, overflow) = channels.multipliedReportingOverflow(by: count)
        guard !overflow else { throw .invalidArgument("\(function): count = \(count) frames is too many to address") }
        guard capacity >= needed else {
            throw .bufferTooSmall(
                "\(function): \(count) frames of \(channels) channels need \(needed) doubles; the buffer holds \(capacity)"
            )
        }
        let start = Int(from)
        let frames = min(count, recording.frameCount - start)
        if frames > 0 {
            guard let samples else { throw .null("samples", in: function) }
            recording.values.withUnsafeBufferPointer { values in
                // Frame-major in memory, channel-major out: one strided gather per channel.
                for channel in 0..<channels {
                    let row = samples + channel * count
                    var source = (start * channels) + channel
                    for frame in 0..<frames {
                        row[frame] = values[source]
                        source += channels
                    }
                }
            }
            if let times {
                for frame in 0..<frames { times[frame] = recording.time(ofFrame: start + frame) }
            }
        }
        framesRead.pointee = frames
    }
}
