import AxonStreams

/// An LSL string stream (markers, event labels) as Axon events: each sample becomes an ``AxonStreams/EventSample``
/// whose payload is the sample's strings and whose device time is its LSL timestamp mapped onto this machine's clock
/// (`lsl_time_correction`).
///
///     let markers = try LSLMarkerInlet(selector: .init(parsing: "type=Markers"))
///     try markers.start { event in edf.annotate(onset: …, text: event.payload.joined(separator: " ")) }
///     …
///     markers.stop()
///
/// Threading contract: `start` and `stop` from one controlling thread; `handler` is called on the inlet's own
/// thread, in stream order. The inlet is created with liblsl's recovery on, so markers resume after the outlet
/// comes back.
public final class LSLMarkerInlet: @unchecked Sendable {
    // Sendable invariant: the inlet handle is used by the pulling thread only, between `start` and `stop`'s join;
    // `stopRequested` is written by the controller and read by that thread through `ThreadLocked`.

    /// The stream's header and channel metadata.
    public let info: LSLStreamInfo
    private let library: LSLLibrary
    private let inlet: UnsafeMutableRawPointer
    private let stopRequested = ThreadLocked(false)
    private var thread: WorkerThread?

    /// Resolves the first stream matching `selector` and opens an inlet on it.
    ///
    /// - Throws: ``LSLError``: liblsl missing, no such stream, a numeric stream, or a failing liblsl call.
    public init(selector: LSLStreamSelector, timeout: Double = 5, library: LSLLibrary? = nil) throws(LSLError) {
        let lsl = try LSLLibrary.given(library)
        let handles = try LSLResolver.resolve(selector, timeout: timeout, library: lsl)
        defer { for handle in handles { lsl.api.destroyStreamInfo(handle) } }
        let info = try LSLStreamInfo(handle: handles[0], library: lsl)
        guard info.format == .string else {
            throw .unsupportedStream("\(info.name) is a numeric stream; take it with --source lsl:… instead")
        }
        guard let inlet = lsl.api.createInlet(handles[0], 360, 0, 1) else {
            throw .nullResult(function: "lsl_create_inlet", message: lsl.lastError())
        }
        var code: Int32 = 0
        lsl.api.openStream(inlet, timeout, &code)
        guard code == 0 else {
            lsl.api.destroyInlet(inlet)
            throw .call(function: "lsl_open_stream", code: code, message: lsl.lastError())
        }
        self.library = lsl
        self.inlet = inlet
        self.info = info
    }

    deinit { library.api.destroyInlet(inlet) }

    /// Starts pulling on a thread of its own; `handler` receives every marker.
    ///
    /// - Throws: ``AxonStreams/PipelineError`` when the thread cannot start.
    public func start(_ handler: @escaping @Sendable (EventSample<[String]>) -> Void) throws {
        let channels = info.channelCount
        thread = try WorkerThread(name: "axon-lsl-markers") { [self] in
            let api = library.api
            var strings = [UnsafeMutablePointer<CChar>?](repeating: nil, count: channels)
            var code: Int32 = 0
            var correction = api.timeCorrection(inlet, 2, &code)
            if code != 0 { correction = 0 }
            var lastCorrection = HostClock.now()
            while !stopRequested.withLock({ $0 }) {
                code = 0
                let stamp = strings.withUnsafeMutableBufferPointer {
                    api.pullSampleString(inlet, $0.baseAddress!, Int32(channels), 0.1, &code)
                }
                guard code == 0, stamp != 0 else { continue }
                let now = HostClock.now()
                if now - lastCorrection >= 5 {
                    let fresh = api.timeCorrection(inlet, 0.5, &code)
                    if code == 0 { correction = fresh }
                    lastCorrection = now
                }
                var payload: [String] = []
                for index in 0..<channels {
                    payload.append(strings[index].map { String(cString: $0) } ?? "")
                    api.destroyString(strings[index])
                    strings[index] = nil
                }
                handler(EventSample(payload: payload, arrivalTime: now, deviceTime: stamp + correction))
            }
        }
    }

    /// Stops pulling and waits for the thread to end.
    public func stop() {
        stopRequested.withLock { $0 = true }
        thread?.join()
        thread = nil
    }
}
