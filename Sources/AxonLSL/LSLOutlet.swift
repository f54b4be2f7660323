import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// One LSL outlet: a stream that every LSL tool on the reachable network (this machine with the project's
/// configuration) can resolve and pull.
///
/// The stream info carries the descriptor's name, type, rate, format and a stable `source_id` (consumers that
/// lose the outlet recover when Axon publishes it again), and the channel metadata in the XDF/LSL meta-data
/// conventions (`desc/channels/channel/{label,unit,type}`, plus `desc/acquisition/manufacturer`).
///
///     let outlet = try LSLOutlet(descriptor: eeg)
///     try outlet.push(values, timestamp: frameTime)   // LSL time = Axon's monotonic host time
///
/// Threading contract: one thread pushes at a time (liblsl's outlets are not meant for concurrent pushes of one
/// stream); ``hasConsumers`` and ``waitForConsumers(timeout:)`` from any thread.
public final class LSLOutlet: @unchecked Sendable {
    // Sendable invariant: the outlet handle is immutable; pushes are serialised by the caller (contract above).

    /// The stream published.
    public let descriptor: StreamDescriptor
    /// The LSL channel format used.
    public let format: LSLChannelFormat
    private let library: LSLLibrary
    private let outlet: UnsafeMutableRawPointer
    /// Samples pushed so far.
    public private(set) var pushedCount = 0

    /// Creates the outlet (it is visible to resolvers at once).
    ///
    /// - Parameters:
    ///   - descriptor: the stream; a rate of 0 makes an irregular stream, format `.string`/`.event` a text stream.
    ///   - channelType: the `type` written for every channel (`EEG`, `Frequency`, …); the content type when nil.
    ///   - maxBuffered: seconds (regular streams) or samples ×100 (irregular) liblsl keeps for a slow consumer.
    /// - Throws: ``LSLError`` when liblsl is missing or refuses the stream.
    public init(
        descriptor: StreamDescriptor, channelType: String? = nil, maxBuffered: Int32 = 360, library: LSLLibrary? = nil
    ) throws(LSLError) {
        let lsl = try LSLLibrary.given(library)
        let format = LSLChannelFormat(descriptor.format)
        guard
            let info = lsl.api.createStreamInfo(
                descriptor.name, descriptor.contentType.rawValue, Int32(descriptor.channelCount),
                descriptor.nominalRate,
                format.rawValue, descriptor.sourceID)
        else { throw .nullResult(function: "lsl_create_streaminfo", message: lsl.lastError()) }
        defer { lsl.api.destroyStreamInfo(info) }
        let desc = lsl.api.description(info)
        let channels = lsl.api.appendChild(desc, "channels")
        for channel in descriptor.channels {
            let node = lsl.api.appendChild(channels, "channel")
            _ = lsl.api.appendChildValue(node, "label", channel.label)
            _ = lsl.api.appendChildValue(node, "unit", channel.unit)
            _ = lsl.api.appendChildValue(node, "type", channelType ?? descriptor.contentType.rawValue)
        }
        let acquisition = lsl.api.appendChild(desc, "acquisition")
        _ = lsl.api.appendChildValue(acquisition, "manufacturer", "Axon")
        for (key, value) in descriptor.metadata.sorted(by: { $0.key < $1.key }) where Self.isXMLName(key) {
            _ = lsl.api.appendChildValue(acquisition, key, value)
        }
        guard let outlet = lsl.api.createOutlet(info, 0, maxBuffered) else {
            throw .nullResult(function: "lsl_create_outlet", message: lsl.lastError())
        }
        self.library = lsl
        self.outlet = outlet
        self.descriptor = descriptor
        self.format = format
    }

    deinit { library.api.destroyOutlet(outlet) }

    /// Pushes one numeric sample with its time (LSL clock seconds; Axon's host time is the same clock).
    ///
    /// - Throws: ``LSLError/call(function:code:message:)`` with liblsl's error code.
    public func push(_ values: UnsafeBufferPointer<Double>, timestamp: Double) throws(LSLError) {
        precondition(values.count == descriptor.channelCount, "a sample needs one value per channel")
        try library.check(
            library.api.pushSampleDouble(outlet, values.baseAddress!, timestamp, 1), "lsl_push_sample_dtp")
        pushedCount += 1
    }

    /// Pushes one numeric sample from an array.
    public func push(_ values: [Double], timestamp: Double) throws(LSLError) {
        try values.withUnsafeBufferPointer { (buffer) throws(LSLError) in try push(buffer, timestamp: timestamp) }
    }

    /// Pushes one text sample (one string per channel).
    ///
    /// - Throws: ``LSLError/call(function:code:message:)`` with liblsl's error code.
    public func push(strings: [String], timestamp: Double) throws(LSLError) {
        precondition(strings.count == descriptor.channelCount, "a sample needs one string per channel")
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        let code = pointers.withUnsafeBufferPointer {
            library.api.pushSampleString(outlet, $0.baseAddress!, timestamp, 1)
        }
        try library.check(code, "lsl_push_sample_strtp")
        pushedCount += 1
    }

    /// Whether at least one inlet is connected.
    public var hasConsumers: Bool { library.api.haveConsumers(outlet) > 0 }

    /// Waits up to `timeout` seconds for an inlet to connect; returns whether one did.
    public func waitForConsumers(timeout: Double) -> Bool { library.api.waitForConsumers(outlet, timeout) > 0 }

    /// Gives liblsl's sending threads up to `seconds` to deliver the last samples before the outlet goes away: liblsl
    /// drops what it has not sent when an outlet is destroyed, and has no flush. Returns at once when no inlet is
    /// connected. Call it once, when a command ends, never on a per-sample path.
    public func finishSending(within seconds: Double = 0.5) {
        guard hasConsumers else { return }
        HostClock.sleep(until: HostClock.now() + seconds)
    }

    /// liblsl's clock now (the timestamp to give a sample made now).
    public var now: Double { library.localClock() }

    private static func isXMLName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
    }
}
