// AxonC — a recording's markers and gaps, paged into the caller's arrays.

import AxonRecording
import CAxonABI

/// Copies `items[first...]`, at most `capacity` of them, into `output` converted by `convert`; returns how many.
private func copyPage<Item, Row>(
    _ items: [Item], first: Int, into output: UnsafeMutablePointer<Row>?, capacity: Int, what: String,
    in function: String, _ convert: (Item) -> Row
) throws(CallFailure) -> Int {
    guard (0...items.count).contains(first) else {
        throw .invalidArgument("\(function): first = \(first) is outside 0…\(items.count), the \(what) there are")
    }
    guard capacity >= 0 else { throw .invalidArgument("\(function): capacity is negative") }
    let count = min(capacity, items.count - first)
    guard count > 0 else { return 0 }
    guard let output else { throw .null(what, in: function) }
    for index in 0..<count { output[index] = convert(items[first + index]) }
    return count
}

/// Copies a page of the recording's markers (`axon.h`).
@c @implementation
public func axon_recording_markers(
    _ recording: OpaquePointer?, _ first: Int, _ markers: UnsafeMutablePointer<axon_marker>?, _ capacity: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_recording_markers"
        let recording = try RecordingHandle.from(recording, in: function).recording
        guard let count else { throw .null("count", in: function) }
        count.pointee = try copyPage(
            recording.markers, first: first, into: markers, capacity: capacity, what: "markers", in: function
        ) { marker in
            axon_marker(
                frame: Int64(marker.frame), time: recording.time(ofFrame: marker.frame), value: marker.value,
                has_text: marker.text == nil ? 0 : 1)
        }
    }
}

/// Copies a page of the recording's gaps (`axon.h`).
@c @implementation
public func axon_recording_gaps(
    _ recording: OpaquePointer?, _ first: Int, _ gaps: UnsafeMutablePointer<axon_gap>?, _ capacity: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_recording_gaps"
        let recording = try RecordingHandle.from(recording, in: function).recording
        guard let count else { throw .null("count", in: function) }
        count.pointee = try copyPage(
            recording.gaps, first: first, into: gaps, capacity: capacity, what: "gaps", in: function
        ) { gap in
            axon_gap(
                before_frame: Int64(gap.beforeFrame), missing_count: Int64(gap.gap.missingCount),
                start_time: gap.gap.start, end_time: gap.gap.end)
        }
    }
}
