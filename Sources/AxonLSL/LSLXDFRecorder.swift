import AxonMemory
import AxonRecording
import AxonStreams

#if canImport(Glibc)
    import Glibc
#endif

/// Records any set of LSL streams into one XDF file, as LabRecorder does: each stream as it comes from its outlet,
/// with its own StreamHeader, Samples chunks, ClockOffset chunks and StreamFooter.
///
/// - Streams: named by selectors (the first stream matching each; every selector must match one within
///   ``Options/resolveTimeout``) or every stream that answers (``Selection/all``). Any channel format liblsl offers:
///   float32, double64, int8/16/32/64 (pulled as double, exact up to 2⁵³) and string, regular or irregular rate.
/// - StreamHeader: the outlet's full info as liblsl gives it (`lsl_get_xml`): name, type, channel count, nominal
///   rate, format, source id, host, uid, and the whole `desc` (channel labels, units, anything else the outlet put
///   there), as LabRecorder writes it.
/// - Samples: from ``start()`` on (what the inlets received while the streams were being opened is dropped), each
///   with the timestamp liblsl delivered, on the outlet's clock (no time correction applied, no dejittering), one
///   chunk per pull.
/// - Clock offsets: each inlet's `lsl_time_correction` at the start and then every ``Options/clockOffsetInterval``
///   seconds (LabRecorder: 5 s), written as a ClockOffset chunk with LabRecorder's collection time (the recorder's
///   clock at the measurement minus the offset) and the offset, whether or not the stream sends samples.
/// - ``stop()`` pulls what liblsl already holds (for at most a second), then writes every stream's footer (first
///   and last timestamp, sample count, clock offsets) and closes the file.
///
/// Every stream is resolved and its inlet opened before the file is created, so a stream that does not answer
/// leaves no file behind.
///
///     let recorder = try LSLXDFRecorder(.streams([.init(parsing: "EEG"), .init(parsing: "type=Markers")]),
///                                       path: "session.xdf")
///     try recorder.start()
///     …
///     let summary = try recorder.stop()
///
/// Threading contract: `init`, ``start()`` and ``stop()`` from one controlling thread, in that order. Each stream is
/// pulled on a thread of its own (named `axon-lsl-rec`), which also measures its clock offset; chunks go to the
/// shared ``AxonRecording/XDFWriter`` under its lock. ``progress`` and ``failures`` may be read from any thread at
/// any time.
public final class LSLXDFRecorder: @unchecked Sendable {
    // Sendable invariant: `threads` is touched only by the controlling thread (start/stop); each `Inlet` is used by
    // its own pulling thread between start and stop's join; counts and failures live behind `ThreadLocked`.

    /// Which streams to record.
    public enum Selection: Sendable, Hashable {
        /// The first stream matching each selector, in the given order (a stream an earlier selector took is not
        /// taken twice: the next match is, or none).
        case streams([LSLStreamSelector])
        /// Every stream that answers within the resolve timeout and whose inlet opens, sorted by name then source id.
        case all
    }

    /// How the recorder resolves and measures.
    public struct Options: Sendable, Hashable {
        /// Seconds to wait for each selector's stream, or for answers with ``Selection/all``.
        public var resolveTimeout: Double
        /// Seconds between clock-offset measurements (LabRecorder: 5).
        public var clockOffsetInterval: Double
        /// Seconds of each stream liblsl keeps while the recorder falls behind (samples × 100 for irregular ones).
        public var maxBuffered: Int32

        /// Creates options.
        public init(resolveTimeout: Double = 5, clockOffsetInterval: Double = 5, maxBuffered: Int32 = 360) {
            self.resolveTimeout = resolveTimeout
            self.clockOffsetInterval = clockOffsetInterval
            self.maxBuffered = maxBuffered
        }
    }

    /// One stream's figures so far.
    public struct StreamProgress: Sendable, Hashable {
        /// The stream, from its outlet's full info.
        public var info: LSLStreamInfo
        /// Its XDF stream id (1, 2, …, in the order of ``streams``).
        public var streamID: UInt32
        /// Samples written.
        public var samples: Int
        /// The clock offsets written (seconds to add to the stream's timestamps for this machine's clock).
        public var clockOffsets: [Double]
        /// Time-correction queries that failed (timed out) and wrote no offset.
        public var failedClockOffsets: Int
    }

    /// The file.
    public let path: String
    /// The settings.
    public let options: Options
    /// The recorded streams, in the file's order.
    public let streams: [LSLStreamInfo]
    /// Streams left out: with ``Selection/all``, those that answered but whose inlet did not open (an outlet that went
    /// away in between: ``LSLXDFRecorderError/stream(_:cause:)``); with selectors, a selector whose only match an
    /// earlier one took (``LSLXDFRecorderError/alreadyRecorded(stream:selector:)``).
    public let skipped: [LSLXDFRecorderError]

    private let library: LSLLibrary
    private let writer: XDFWriter
    private let inlets: [Inlet]
    private let stopRequested = ThreadLocked(false)
    private let figures: ThreadLocked<[StreamProgress]>
    private let problems = ThreadLocked<[LSLXDFRecorderError]>([])
    private var threads: [WorkerThread] = []

    /// Resolves the streams, opens an inlet on each (reading its full info), then creates the XDF file at `path`
    /// and writes the FileHeader and one StreamHeader per stream.
    ///
    /// - Throws: ``LSLXDFRecorderError``: a selector without a stream (``LSLXDFRecorderError/lsl(_:)`` with
    ///   ``LSLError/streamNotFound(selector:timeout:)``), no stream at all with ``Selection/all`` (streams there that
    ///   cannot be opened are left out: ``skipped``), a failing liblsl call, or a file that cannot be created (then
    ///   nothing is left at `path`).
    public init(
        _ selection: Selection, path: String, options: Options = .init(), library: LSLLibrary? = nil
    ) throws(LSLXDFRecorderError) {
        let lsl: LSLLibrary
        do { lsl = try LSLLibrary.given(library) } catch { throw .lsl(error) }
        var opened: [Inlet] = []
        var skipped: [LSLXDFRecorderError] = []
        do throws(LSLError) {
            switch selection {
            case .streams(let selectors):
                var uids = Set<String>()
                for selector in selectors {
                    let handles = try LSLResolver.resolve(selector, timeout: options.resolveTimeout, library: lsl)
                    defer { for handle in handles { lsl.api.destroyStreamInfo(handle) } }
                    // The first match not recorded yet: a stream two selectors name is recorded once.
                    func uid(_ handle: UnsafeMutableRawPointer) -> String {
                        lsl.api.uid(handle).map { String(cString: $0) } ?? ""
                    }
                    guard let handle = handles.first(where: { !uids.contains(uid($0)) }) else {
                        let name = lsl.api.name(handles[0]).map { String(cString: $0) } ?? "?"
                        skipped.append(.alreadyRecorded(stream: name, selector: "\(selector)"))
                        continue
                    }
                    uids.insert(uid(handle))
                    opened.append(try Inlet(handle: handle, options: options, library: lsl))
                }
            case .all:
                let handles = try LSLResolver.resolveAll(timeout: options.resolveTimeout, library: lsl)
                defer { for handle in handles { lsl.api.destroyStreamInfo(handle) } }
                for handle in handles {
                    // An outlet that answered the resolve may be gone by now: it is left out, and said so.
                    do { opened.append(try Inlet(handle: handle, options: options, library: lsl)) } catch {
                        let name = lsl.api.name(handle).map { String(cString: $0) } ?? "?"
                        skipped.append(.stream(name, cause: error))
                    }
                }
                opened.sort { ($0.info.name, $0.info.sourceID) < ($1.info.name, $1.info.sourceID) }
            }
        } catch {
            throw .lsl(error)
        }
        guard !opened.isEmpty else { throw .noStreams(waited: options.resolveTimeout) }
        let writer: XDFWriter
        var ids: [UInt32] = []
        do {
            writer = try XDFWriter(path: path)
            do {
                for inlet in opened {
                    ids.append(
                        try writer.addStream(inlet.info.descriptor, format: inlet.storedFormat, headerXML: inlet.xml))
                }
            } catch {
                unlink(path)
                throw error
            }
        } catch {
            throw .file(error)
        }
        for (inlet, id) in zip(opened, ids) { inlet.streamID = id }
        self.path = path
        self.options = options
        self.library = lsl
        self.writer = writer
        self.inlets = opened
        self.streams = opened.map(\.info)
        self.skipped = skipped
        self.figures = ThreadLocked(
            zip(opened, ids).map {
                StreamProgress(info: $0.info, streamID: $1, samples: 0, clockOffsets: [], failedClockOffsets: 0)
            })
    }

    /// Starts one pulling thread per stream. What the inlets received before (while the other streams were being
    /// resolved and opened) is dropped, so every stream of the file starts now.
    ///
    /// - Throws: ``LSLXDFRecorderError/thread(_:)`` when a thread cannot start (those started are stopped again).
    public func start() throws(LSLXDFRecorderError) {
        precondition(threads.isEmpty, "start once")
        for inlet in inlets { _ = library.api.flushInlet(inlet.handle) }
        for (index, inlet) in inlets.enumerated() {
            do {
                threads.append(try WorkerThread(name: "axon-lsl-rec") { [self] in pull(inlet, index: index) })
            } catch {
                stopRequested.withLock { $0 = true }
                for thread in threads { thread.join() }
                throw .thread(error)
            }
        }
    }

    /// Each stream's figures so far (any thread).
    public var progress: [StreamProgress] { figures.withLock { $0 } }

    /// What went wrong while recording, each once (a failing pull or write, as ``LSLXDFRecorderError/stream(_:cause:)``
    /// with the error as thrown; the stream stops there).
    public var failures: [LSLXDFRecorderError] { problems.withLock { $0 } }

    /// Stops pulling (after taking what liblsl already received), writes the footers and closes the file; returns
    /// each stream's figures.
    ///
    /// - Throws: ``LSLXDFRecorderError/file(_:)`` when the footers or the close fail.
    @discardableResult
    public func stop() throws(LSLXDFRecorderError) -> [StreamProgress] {
        stopRequested.withLock { $0 = true }
        for thread in threads { thread.join() }
        threads = []
        do { try writer.close() } catch { throw .file(error) }
        return progress
    }

    // MARK: - Pulling

    /// The loop of one stream's thread.
    private func pull(_ inlet: Inlet, index: Int) {
        var nextOffset = -Double.infinity
        var draining = false
        var drainDeadline = Double.infinity
        while true {
            let now = library.localClock()
            if !draining, stopRequested.withLock({ $0 }) {
                draining = true
                drainDeadline = now + 1
            }
            if !draining, now >= nextOffset {
                measureOffset(inlet, index: index)
                nextOffset = (nextOffset.isFinite ? nextOffset : now) + options.clockOffsetInterval
            }
            let written: Int
            do {
                written =
                    try inlet.format == .string
                    ? pullStrings(inlet, timeout: draining ? 0 : 0.1)
                    : pullNumbers(inlet, timeout: draining ? 0 : 0.1)
            } catch {
                fail(.stream(inlet.info.name, cause: error))
                return
            }
            if written > 0 { figures.withLock { $0[index].samples += written } }
            // Once stopped, pull what liblsl holds until it has no more (for at most a second of a fast stream).
            if draining, written == 0 || library.localClock() > drainDeadline { return }
        }
    }

    /// One time-correction query; its offset becomes a ClockOffset chunk.
    private func measureOffset(_ inlet: Inlet, index: Int) {
        var code: Int32 = 0
        let offset = library.api.timeCorrection(inlet.handle, 2.5, &code)
        guard code == 0 else {
            figures.withLock { $0[index].failedClockOffsets += 1 }
            return
        }
        let now = library.localClock()
        do {
            try writer.appendClockOffset(stream: inlet.streamID, collectionTime: now - offset, offset: offset)
            figures.withLock { $0[index].clockOffsets.append(offset) }
        } catch {
            fail(.stream(inlet.info.name, cause: error))
        }
    }

    /// Pulls one chunk of a numeric stream (waiting up to `timeout` for it) and writes it; returns its samples.
    private func pullNumbers(_ inlet: Inlet, timeout: Double) throws -> Int {
        let channels = inlet.info.channelCount
        var code: Int32 = 0
        let elements = inlet.data.withUnsafeMutableBufferPointer { data in
            inlet.stamps.withUnsafeMutableBufferPointer { stamps in
                library.api.pullChunkDouble(
                    inlet.handle, data.baseAddress!, stamps.baseAddress!, UInt(data.count), UInt(stamps.count), timeout,
                    &code)
            }
        }
        if code < 0, code != -1 {
            throw LSLError.call(function: "lsl_pull_chunk_d", code: code, message: library.lastError())
        }
        let frames = Int(elements) / channels
        guard frames > 0 else { return 0 }
        try inlet.stamps.withUnsafeBufferPointer { stamps in
            try inlet.data.withUnsafeBufferPointer { data in
                try writer.appendSamples(
                    stream: inlet.streamID, timestamps: UnsafeBufferPointer(start: stamps.baseAddress, count: frames),
                    values: UnsafeBufferPointer(start: data.baseAddress, count: frames * channels),
                    scratch: &inlet.scratch, clockOffset: nil)
            }
        }
        return frames
    }

    /// Pulls the samples of a string stream that are there (waiting up to `timeout` for the first) and writes them
    /// as one chunk; returns their count.
    private func pullStrings(_ inlet: Inlet, timeout: Double) throws -> Int {
        let channels = inlet.info.channelCount
        var stamps: [Double] = []
        var strings: [String] = []
        var pointers = [UnsafeMutablePointer<CChar>?](repeating: nil, count: channels)
        var wait = timeout
        while stamps.count < inlet.stamps.count {
            var code: Int32 = 0
            let stamp = pointers.withUnsafeMutableBufferPointer {
                library.api.pullSampleString(inlet.handle, $0.baseAddress!, Int32(channels), wait, &code)
            }
            if code < 0, code != -1 {
                throw LSLError.call(function: "lsl_pull_sample_str", code: code, message: library.lastError())
            }
            guard code == 0, stamp != 0 else { break }
            for channel in 0..<channels {
                strings.append(pointers[channel].map { String(cString: $0) } ?? "")
                library.api.destroyString(pointers[channel])
                pointers[channel] = nil
            }
            stamps.append(stamp)
            wait = 0
        }
        try writer.appendStrings(stream: inlet.streamID, timestamps: stamps, strings: strings, clockOffset: nil)
        return stamps.count
    }

    /// Notes a failure once (failures compare by their sentence).
    private func fail(_ failure: LSLXDFRecorderError) {
        problems.withLock { if !$0.contains(failure) { $0.append(failure) } }
    }

    /// One stream's inlet, its full info and its pull buffers.
    final class Inlet: @unchecked Sendable {
        // Sendable invariant: after init, the handle, buffers and scratch are used by the stream's pulling thread only.
        let handle: UnsafeMutableRawPointer
        let info: LSLStreamInfo
        let format: LSLChannelFormat
        /// The full info as XML, the StreamHeader.
        let xml: String
        var streamID: UInt32 = 0
        let data: OwnedBuffer<Double>
        let stamps: OwnedBuffer<Double>
        var scratch: [UInt8] = []
        private let library: LSLLibrary

        /// Opens an inlet on `handle` (not consumed) with recovery on, reads its full info and opens the stream.
        init(handle: UnsafeMutableRawPointer, options: Options, library lsl: LSLLibrary) throws(LSLError) {
            guard let inlet = lsl.api.createInlet(handle, options.maxBuffered, 0, 1) else {
                throw .nullResult(function: "lsl_create_inlet", message: lsl.lastError())
            }
            do throws(LSLError) {
                var code: Int32 = 0
                guard let full = lsl.api.fullInfo(inlet, options.resolveTimeout, &code) else {
                    throw .call(function: "lsl_get_fullinfo", code: code < 0 ? code : -4, message: lsl.lastError())
                }
                defer { lsl.api.destroyStreamInfo(full) }
                try lsl.check(code, "lsl_get_fullinfo")
                info = try LSLStreamInfo(handle: full, library: lsl)
                guard info.channelCount >= 1 else { throw .unsupportedStream("\(info.name) has no channels") }
                guard let format = info.format else {
                    throw .unsupportedStream("\(info.name) has the unknown channel format \(info.channelFormat)")
                }
                self.format = format
                guard let text = lsl.api.xml(full) else {
                    throw .nullResult(function: "lsl_get_xml", message: lsl.lastError())
                }
                xml = String(cString: text)
                lsl.api.destroyString(text)
                lsl.api.openStream(inlet, options.resolveTimeout, &code)
                try lsl.check(code, "lsl_open_stream")
            } catch {
                lsl.api.destroyInlet(inlet)
                throw error
            }
            self.handle = inlet
            self.library = lsl
            // A chunk: 50 ms of a regular stream, at least 16 samples (and at most 64 text samples per chunk).
            let frames = max(16, Int((info.nominalRate * 0.05).rounded(.up)))
            data = OwnedBuffer(repeating: 0, count: frames * info.channelCount)
            stamps = OwnedBuffer(repeating: 0, count: format == .string ? 64 : frames)
            scratch.reserveCapacity(64 + frames * (9 + 8 * info.channelCount))
        }

        /// How the values are stored in the file: the outlet's own format.
        var storedFormat: XDFChannelFormat {
            switch format {
            case .float32: return .float32
            case .double64: return .double64
            case .string: return .string
            case .int32: return .int32
            case .int16: return .int16
            case .int8: return .int8
            case .int64: return .int64
            }
        }

        deinit {
            library.api.destroyInlet(handle)
        }
    }
}

/// What stopped an ``LSLXDFRecorder``. Every case reads as one sentence for people (``description``); equality and
/// hashing compare that sentence, since ``file(_:)`` keeps the writer's error as it was thrown.
///
/// Threading: a value type; share freely.
public enum LSLXDFRecorderError: Error, Sendable, EquatableByDescription {
    /// liblsl failed: missing, a selector without a stream, an inlet that would not open.
    case lsl(LSLError)
    /// ``LSLXDFRecorder/Selection/all`` found no stream within the wait.
    case noStreams(waited: Double)
    /// The XDF file could not be created or written: the writer's error.
    case file(any Error)
    /// A pulling thread could not start: the error that said why.
    case thread(PipelineError)
    /// One stream failed (`cause`: liblsl's or the writer's error): an inlet that would not open is skipped, a
    /// failing pull or write stops that stream.
    case stream(String, cause: any Error)
    /// A stream that `selector` names was skipped: another selector has already taken it.
    case alreadyRecorded(stream: String, selector: String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .lsl(let error): return "\(error)"
        case .noStreams(let waited):
            return "no LSL stream answered within \(waited) s (see `axon lsl list` and docs/lsl.md); nothing recorded"
        case .file(let error): return "\(error)"
        case .thread(let error): return "cannot start a recording thread: \(error)"
        case .stream(let name, let cause): return "\(name): \(cause)"
        case .alreadyRecorded(let name, let selector): return "\(name): \(selector) names a stream already recorded"
        }
    }
}
