import AxonRecording
import CAxonABI
import Foundation
import Testing

/// The recording calls of axon.h, made from Swift as a C program makes them: what they give equals what
/// RecordingReader reads, and every misuse gets its status and a message saying what went wrong.
@Suite("axon.h recordings: open, info, read, markers, texts, and their errors")
struct RecordingCallTests {
    static let edf = BuiltLibrary.file("datasets/physionet-eegmmidb/S001R01.edf")
    static let openBCI = BuiltLibrary.file(
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt")

    @Test("info and every sample, channel-major, equal RecordingReader's", arguments: [edf, openBCI])
    func infoAndSamples(_ path: String) throws {
        let expected = try RecordingReader.read(path: path)
        var (status, recording) = C.open(path)
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { #expect(axon_recording_close(&recording) == AXON_OK) }
        var info = axon_recording_info()
        #expect(axon_recording_get_info(recording, &info) == AXON_OK)
        #expect(info.channel_count == expected.channelCount && info.frame_count == Int64(expected.frameCount))
        #expect(info.sample_rate == expected.sampleRate && info.duration == expected.duration)
        #expect(info.has_timestamps == 1 && info.start_time == expected.startTime)
        #expect(info.marker_count == expected.markers.count && info.gap_count == 0)
        #expect(info.warning_count == expected.warnings.count)

        // The whole file in chunks of 1000 frames, the last one short.
        let channels = expected.channelCount
        var samples = [Double](repeating: .nan, count: channels * 1000)
        var times = [Double](repeating: .nan, count: 1000)
        var from = 0
        while from < expected.frameCount {
            var read = 0
            status = axon_recording_read(recording, Int64(from), 1000, &samples, samples.count, &times, &read)
            try #require(status == AXON_OK, "\(C.lastError)")
            #expect(read == min(1000, expected.frameCount - from))
            for frame in 0..<read {
                #expect(times[frame] == expected.time(ofFrame: from + frame))
                for channel in 0..<channels
                where samples[channel * 1000 + frame] != expected.value(frame: from + frame, channel: channel) {
                    Issue.record("frame \(from + frame), channel \(channel) differs")
                    return
                }
            }
            from += read
        }
        var read = -1
        #expect(axon_recording_read(recording, Int64(from), 10, &samples, samples.count, nil, &read) == AXON_OK)
        #expect(read == 0)
        for channel in 0..<channels {
            let label = C.text { axon_recording_channel_label(recording, channel, $0, $1, $2) }
            #expect(label.status == AXON_OK && label.text == expected.channelLabels[channel])
            let unit = C.text { axon_recording_channel_unit(recording, channel, $0, $1, $2) }
            #expect(unit.status == AXON_OK && unit.text == expected.descriptor.channels[channel].unit)
        }
        let format = C.text { axon_recording_format(recording, $0, $1, $2) }
        #expect(format.text == expected.descriptor.metadata["format"] && !format.text.isEmpty)
    }

    @Test("the EDF+ annotation T0 at frame 0, its text, and paging past the end")
    func markers() throws {
        var (status, recording) = C.open(Self.edf)
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { _ = axon_recording_close(&recording) }
        var markers = [axon_marker](repeating: axon_marker(), count: 4)
        var count = -1
        #expect(axon_recording_markers(recording, 0, &markers, 4, &count) == AXON_OK)
        #expect(count == 1 && markers[0].frame == 0 && markers[0].has_text == 1)
        let text = C.text { axon_recording_marker_text(recording, 0, $0, $1, $2) }
        #expect(text.text == "T0")
        #expect(axon_recording_markers(recording, 1, &markers, 4, &count) == AXON_OK && count == 0)
        status = axon_recording_markers(recording, 2, &markers, 4, &count)
        #expect(status == AXON_ERR_INVALID_ARGUMENT && C.lastError.contains("first = 2"), "\(C.lastError)")
        var gaps = [axon_gap](repeating: axon_gap(), count: 1)
        #expect(axon_recording_gaps(recording, 0, &gaps, 1, &count) == AXON_OK && count == 0)
    }

    @Test("a missing file, a folder and a file that is no recording: not found, I/O, format")
    func openErrors() {
        let missing = C.open("/nonexistent/axon-c-test.edf")
        #expect(missing.status == AXON_ERR_NOT_FOUND && missing.recording == nil)
        #expect(C.lastError.contains("/nonexistent/axon-c-test.edf"), "\(C.lastError)")
        #expect(String(cString: axon_status_name(missing.status)) == "AXON_ERR_NOT_FOUND")

        let folder = C.open(BuiltLibrary.file("datasets"))
        #expect(folder.status == AXON_ERR_IO, "\(C.lastError)")

        let notARecording = C.open(BuiltLibrary.file("Package.swift"))
        #expect(notARecording.status == AXON_ERR_FORMAT)
        #expect(C.lastError.contains("unsupported recording format"), "\(C.lastError)")

        var recording: OpaquePointer?
        #expect(axon_recording_open(nil, &recording) == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError == "axon_recording_open: path is NULL")
        #expect(axon_recording_open(Self.edf, nil) == AXON_ERR_INVALID_ARGUMENT)
    }

    @Test("too small buffers: the status, the length needed, and nothing written")
    func smallBuffers() throws {
        var (status, recording) = C.open(Self.edf)
        try #require(status == AXON_OK)
        defer { _ = axon_recording_close(&recording) }
        var samples = [Double](repeating: 7, count: 64 * 10 - 1)
        var read = -1
        status = axon_recording_read(recording, 0, 10, &samples, samples.count, nil, &read)
        #expect(status == AXON_ERR_BUFFER_TOO_SMALL && read == -1)
        #expect(C.lastError.contains("need 640 doubles; the buffer holds 639"), "\(C.lastError)")
        #expect(samples.allSatisfy { $0 == 7 })

        // "Fc5." is 4 bytes: a buffer of 4 is one short of its NUL; capacity 0 asks for the length.
        var label = [CChar](repeating: 65, count: 4)
        var length = 0
        status = axon_recording_channel_label(recording, 0, &label, 4, &length)
        #expect(status == AXON_ERR_BUFFER_TOO_SMALL && length == 4 && label.allSatisfy { $0 == 65 })
        #expect(axon_recording_channel_label(recording, 0, nil, 0, &length) == AXON_ERR_BUFFER_TOO_SMALL)
        #expect(length == 4)
        label = [CChar](repeating: 65, count: 5)
        #expect(axon_recording_channel_label(recording, 0, &label, 5, &length) == AXON_OK)
        #expect(C.string(label) == "Fc5.")

        status = axon_recording_channel_label(recording, 64, &label, 5, &length)
        #expect(status == AXON_ERR_INVALID_ARGUMENT && C.lastError.contains("no channel 64"), "\(C.lastError)")
        status = axon_recording_read(recording, 9761, 1, &samples, samples.count, nil, &read)
        #expect(status == AXON_ERR_INVALID_ARGUMENT && C.lastError.contains("from = 9761"), "\(C.lastError)")
    }

    @Test("NULL and closed handles: invalid argument and closed handle, never a crash; close sets NULL")
    func handles() throws {
        var info = axon_recording_info()
        #expect(axon_recording_get_info(nil, &info) == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError == "axon_recording_get_info: recording is NULL")

        var (status, recording) = C.open(Self.edf)
        try #require(status == AXON_OK)
        let copy = recording
        #expect(axon_recording_close(&recording) == AXON_OK && recording == nil)
        #expect(axon_recording_close(&recording) == AXON_OK)  // closing NULL is no error
        #expect(axon_recording_get_info(copy, &info) == AXON_ERR_CLOSED_HANDLE)
        #expect(C.lastError == "axon_recording_get_info: the recording handle is closed")
        var stale = copy
        #expect(axon_recording_close(&stale) == AXON_ERR_CLOSED_HANDLE && stale == nil)

        // A pointer the library never gave out, and an engine given as a recording.
        let forged = OpaquePointer(bitPattern: UInt.max - 1)
        #expect(axon_recording_get_info(forged, &info) == AXON_ERR_CLOSED_HANDLE)
        #expect(C.lastError.contains("not a handle this library made"), "\(C.lastError)")
        var (_, engine) = C.engine(C.defaultConfig())
        defer { _ = axon_engine_destroy(&engine) }
        #expect(axon_recording_get_info(engine, &info) == AXON_ERR_CLOSED_HANDLE)
        #expect(C.lastError.contains("is not a recording"), "\(C.lastError)")
    }

    /// What another thread saw, handed back after a semaphore (which orders the accesses).
    final class Seen: @unchecked Sendable {
        var before = "unset"
        var after = "unset"
    }

    @Test("the last error belongs to the thread that failed")
    func lastErrorIsPerThread() {
        _ = C.open("/nonexistent/on-this-thread.edf")
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        Thread {
            seen.before = C.lastError
            _ = C.open("/nonexistent/on-a-new-thread.edf")
            seen.after = C.lastError
            done.signal()
        }.start()
        done.wait()
        #expect(seen.before == "")
        #expect(seen.after.contains("on-a-new-thread"), "\(seen.after)")
        #expect(C.lastError.contains("on-this-thread"), "\(C.lastError)")
        // A success leaves the message alone.
        #expect(String(cString: axon_version()).isEmpty == false)
        var config = axon_engine_config()
        #expect(axon_engine_config_default(&config) == AXON_OK)
        #expect(C.lastError.contains("on-this-thread"))
    }
}
