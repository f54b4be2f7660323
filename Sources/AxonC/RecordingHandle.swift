// AxonC — what an axon_recording handle holds: the recording read into memory, and its labels as C strings.

import AxonRecording

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open recording: the whole file as ``AxonRecording/Recording``, plus the channel labels as a C array for
/// `axon_engine_config_for_recording`, which lends it to the caller until the handle closes.
///
/// Threading: immutable after `init`; any number of threads may read it at once (`axon.h`).
final class RecordingHandle: @unchecked Sendable {
    // Sendable invariant: nothing changes after init; the label memory is freed only in deinit, when no call holds
    // the handle any more.
    let recording: Recording
    /// `channelCount` `strdup`ed labels.
    let labelArray: UnsafeMutablePointer<UnsafePointer<CChar>?>

    init(_ recording: Recording) {
        self.recording = recording
        labelArray = .allocate(capacity: recording.channelCount)
        for (index, label) in recording.channelLabels.enumerated() {
            // A failed strdup (out of memory) leaves NULL, which axon_engine_create refuses with a clear message.
            labelArray[index] = strdup(label).map { UnsafePointer($0) }
        }
    }

    deinit {
        for index in 0..<recording.channelCount { free(UnsafeMutablePointer(mutating: labelArray[index])) }
        labelArray.deallocate()
    }

    /// The registry's name for this kind of handle, in messages.
    static let kind = "recording"

    /// The recording behind `handle`.
    static func from(_ handle: OpaquePointer?, in function: String) throws(CallFailure) -> RecordingHandle {
        try HandleRegistry.shared.object(handle, as: RecordingHandle.self, kind: kind, in: function)
    }
}
