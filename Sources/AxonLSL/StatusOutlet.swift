import AxonStreams

/// A run's status as an LSL text stream next to its raw stream: device status messages, battery reports, rejected
/// packets, gap records and the run's start and end, one string sample each.
///
/// The stream is `<name> Status`, type `Markers`, one string channel `status`, irregular, with source id
/// `<sourceID>/status` (stable across runs so consumers recover). Gap records are published as
/// `gap: 37 samples (deviceCounter) from 12.345 s`, stamped with the time of the gap's first missing sample.
///
///     let status = try StatusOutlet(stream: eeg)
///     try status.publish("battery: 80%")
///
/// Threading contract: any thread; pushes are serialised by a lock (status is rare, never on a per-sample path).
public final class StatusOutlet: Sendable {
    /// The outlet.
    public let outlet: LSLOutlet
    private let pushing = ThreadLocked(())

    /// Creates the outlet for the status of `stream`.
    ///
    /// - Throws: ``LSLError`` when liblsl is missing or refuses the stream.
    public init(stream: StreamDescriptor, sourceID: String? = nil, library: LSLLibrary? = nil) throws(LSLError) {
        outlet = try LSLOutlet(
            descriptor: Self.descriptor(for: stream, sourceID: sourceID), channelType: "Status", library: library)
    }

    /// The status stream's descriptor for `stream`.
    public static func descriptor(for stream: StreamDescriptor, sourceID: String? = nil) -> StreamDescriptor {
        StreamDescriptor(
            name: "\(stream.name) Status", contentType: .markers, channels: [ChannelInfo(label: "status", unit: "")],
            nominalRate: 0, format: .string, sourceID: "\(sourceID ?? stream.sourceID)/status")
    }

    /// Publishes one status line, stamped `timestamp` (LSL clock) or now.
    public func publish(_ text: String, timestamp: Double? = nil) throws(LSLError) {
        try pushing.withLock { (_) throws(LSLError) in
            try outlet.push(strings: [text], timestamp: timestamp ?? outlet.now)
        }
    }

    /// Publishes a gap record, stamped with the time of its first missing sample.
    public func publish(_ gap: GapRecord, streamStart: Double) throws(LSLError) {
        try publish(Self.text(of: gap, streamStart: streamStart), timestamp: gap.start)
    }

    /// `gap: 37 samples (deviceCounter) from 12.345 s`, the offset counted from `streamStart`.
    public static func text(of gap: GapRecord, streamStart: Double) -> String {
        let offset = ((gap.start - streamStart) * 1000).rounded() / 1000
        return "gap: \(gap.missingCount) samples (\(gap.cause.rawValue)) from \(offset) s"
    }
}
