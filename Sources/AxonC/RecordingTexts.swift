// AxonC — a recording's texts (labels, units, format, marker texts, warnings) into the caller's char buffers.

import AxonRecording
import CAxonABI

/// The text `pick` chooses from the recording behind `recording`, with `index` checked against `count` (`what`
/// names the list in messages), copied by ``copyText(_:into:capacity:length:in:)``.
private func recordingText(
    _ recording: OpaquePointer?, index: Int, count: (Recording) -> Int, what: String,
    buffer: UnsafeMutablePointer<CChar>?, capacity: Int, length: UnsafeMutablePointer<Int>?, in function: String,
    _ pick: (Recording, Int) -> String
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let recording = try RecordingHandle.from(recording, in: function).recording
        let available = count(recording)
        guard (0..<available).contains(index) else {
            throw .invalidArgument("\(function): there is no \(what) \(index); the recording has \(available) \(what)s")
        }
        try copyText(pick(recording, index), into: buffer, capacity: capacity, length: length, in: function)
    }
}

/// A channel's label (`axon.h`).
@c @implementation
public func axon_recording_channel_label(
    _ recording: OpaquePointer?, _ channel: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    recordingText(
        recording, index: channel, count: \.channelCount, what: "channel", buffer: buffer, capacity: capacity,
        length: length, in: "axon_recording_channel_label"
    ) { recording, channel in recording.channelLabels[channel] }
}

/// A channel's unit (`axon.h`).
@c @implementation
public func axon_recording_channel_unit(
    _ recording: OpaquePointer?, _ channel: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    recordingText(
        recording, index: channel, count: \.channelCount, what: "channel", buffer: buffer, capacity: capacity,
        length: length, in: "axon_recording_channel_unit"
    ) { recording, channel in recording.descriptor.channels[channel].unit }
}

/// The file's format as its reader names it (`axon.h`).
@c @implementation
public func axon_recording_format(
    _ recording: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    recordingText(
        recording, index: 0, count: { _ in 1 }, what: "format", buffer: buffer, capacity: capacity, length: length,
        in: "axon_recording_format"
    ) { recording, _ in recording.descriptor.metadata["format"] ?? "" }
}

/// A marker's text, "" for a marker without one (`axon.h`).
@c @implementation
public func axon_recording_marker_text(
    _ recording: OpaquePointer?, _ marker: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    recordingText(
        recording, index: marker, count: \.markers.count, what: "marker", buffer: buffer, capacity: capacity,
        length: length, in: "axon_recording_marker_text"
    ) { recording, marker in recording.markers[marker].text ?? "" }
}

/// One of the reader's warnings (`axon.h`).
@c @implementation
public func axon_recording_warning(
    _ recording: OpaquePointer?, _ warning: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    recordingText(
        recording, index: warning, count: \.warnings.count, what: "warning", buffer: buffer, capacity: capacity,
        length: length, in: "axon_recording_warning"
    ) { recording, warning in recording.warnings[warning] }
}
