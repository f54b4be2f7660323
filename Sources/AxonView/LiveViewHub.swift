// AxonView — the hub between a run and its viewers.

import AxonDSP
import AxonEEG
import AxonStreams
import Dispatch
import Foundation
import Synchronization

/// What the view knows about one run, and the fan-out to every connected viewer.
///
/// A run hands the hub what every EEG run already produces: raw frames and gap records through ``sink`` (added to
/// its pipeline), spectrum frames and indicators through ``publish(_:)-(SpectrumFrame)`` and
/// ``publish(_:)-(ActivityIndicators)``, device status through ``publishStatus(code:name:message:)`` and
/// ``publishBattery(_:)``, and its statistics through ``attachStatistics(_:)``. The hub's own thread drains the
/// sink's ring, filters a copy of the raw data for display (``Options/displayFilter``: the page switches between the
/// two), decimates both for display, keeps the last ``Options/historySeconds`` of them, and queues
/// JSON messages for each viewer (``ViewerQueue``, bounded). A viewer that connects gets a `hello` with the
/// descriptor, the engine's parameters, the baseline and zone state, the status log and the recent raw data.
///
///     let hub = LiveViewHub(descriptor: source.descriptor, configuration: configuration)
///     let session = try EEGSession(source: source, configuration: configuration, sinks: [hub.sink])
///     hub.attachStatistics { session.statistics() }
///     try hub.start()
///     for await frame in session.spectra { hub.publish(frame) }
///
/// Threading: every method from any thread. The sink belongs to the pipeline's consumer thread. The hub's state is
/// behind one `ThreadLocked` lock, held for queue pushes and short array work only and never by the real-time path.
public final class LiveViewHub: Sendable {
    /// How the hub decimates and buffers.
    ///
    /// Threading: a plain value, `Sendable`.
    public struct Options: Sendable, Hashable {
        /// Seconds of raw data a new viewer gets.
        public var historySeconds: Double
        /// The most raw points per second and channel sent to viewers (the stream is averaged down to this).
        public var displayRate: Double
        /// Messages each viewer's queue holds.
        public var queueCapacity: Int
        /// Frames the sink's ring holds for the hub's thread (at least one second is sensible).
        public var ringCapacity: Int
        /// Seconds between raw messages.
        public var flushInterval: Double
        /// Seconds between statistics messages.
        public var statisticsInterval: Double
        /// Added to stream time on the page (a replay that starts at second 30 of its file shows 30).
        public var timeOffset: Double
        /// Highest frequency of the spectra sent, Hz.
        public var spectrumMaximum: Double
        /// Says what the source is, shown in the page's header.
        public var sourceLabel: String
        /// Indicators the zone timeline keeps (one hour at the engine's 10 s); older ones scroll out into a summary
        /// (how many, from when to when, how many in each zone), so a view that runs for days holds the same memory.
        public var timelineEntries: Int
        /// The filter the traces are also shown through (`nil`: the raw traces only, as when the run's samples are
        /// filtered already). Display only: the engine and the spectra see the samples as they came.
        public var displayFilter: DisplayFilter?

        /// Creates options.
        public init(
            historySeconds: Double = 10, displayRate: Double = 125, queueCapacity: Int = 64, ringCapacity: Int = 16384,
            flushInterval: Double = 0.1, statisticsInterval: Double = 0.5, timeOffset: Double = 0,
            spectrumMaximum: Double = 40, sourceLabel: String = "", timelineEntries: Int = 360,
            displayFilter: DisplayFilter? = DisplayFilter()
        ) {
            self.historySeconds = historySeconds
            self.displayRate = displayRate
            self.queueCapacity = queueCapacity
            self.ringCapacity = ringCapacity
            self.flushInterval = flushInterval
            self.statisticsInterval = statisticsInterval
            self.timeOffset = timeOffset
            self.spectrumMaximum = spectrumMaximum
            self.sourceLabel = sourceLabel
            self.timelineEntries = max(1, timelineEntries)
            self.displayFilter = displayFilter
        }
    }

    /// The stream shown.
    public let descriptor: StreamDescriptor
    /// The engine's parameters (bands, baseline, indicator period).
    public let configuration: EEGEngine.Configuration
    /// The options.
    public let options: Options
    /// The sink to add to the run's pipeline.
    public let sink: LiveViewSink

    /// Raw samples averaged into one display point.
    public let decimation: Int
    /// The display filter in use: ``Options/displayFilter`` when its design fits the stream's rate, else `nil`.
    public let displayFilter: DisplayFilter?
    /// Doubles per display point: the time, each channel's raw value, then (with a display filter) each channel's
    /// filtered value.
    private let pointWidth: Int

    private let shared: ThreadLocked<Shared>
    private let statisticsProvider = ThreadLocked<(@Sendable () -> PipelineStatistics?)?>(nil)
    private let stopSignal = DispatchSemaphore(value: 0)
    private let thread = ThreadLocked<ThreadBox?>(nil)

    /// The hub's drain thread: created by `start`, joined by `stop`.
    private final class ThreadBox: @unchecked Sendable {
        let thread: WorkerThread
        init(_ thread: WorkerThread) { self.thread = thread }
    }

    private struct Shared {
        var viewers: [ObjectIdentifier: ViewerQueue] = [:]
        /// Display points, `pointWidth` doubles each: time, then values (NaN values: a break).
        var history: [Double] = []
        var gapsShown: [String] = []
        var spectrum: String?
        /// The newest spectrum not yet sent: the hub's thread encodes and sends it at its next flush, so a replay
        /// at any speed costs the viewers at most one spectrum per ``Options/flushInterval``.
        var pendingSpectrum: (frame: SpectrumFrame, baselineFrames: Int)?
        /// The zone timeline's newest ``Options/timelineEntries`` indicators, as sent.
        var indicators: [String] = []
        /// Each of those indicators' time and zone, for the summary when it scrolls out.
        var indicatorZones: [(time: Double, zone: String)] = []
        var scrolledOut = ScrolledOutIndicators()
        var status: [String] = []
        var battery: Int?
        /// The newest running individual alpha frequency, as sent.
        var alpha: String?
        /// The newest band powers, as sent, and the newest not yet sent (flushed like the spectrum).
        var bandPowers: String?
        var pendingBandPowers: BandPowers?
        var statistics: String?
        var baselineState = BaselineState.notStarted
        var baselineFrames = 0
        var ended: String?
        var connections = 0
        /// Measures the mains frequency from the spectra (a measured display notch), until ``mains`` is known.
        var mainsDetector: MainsLineDetector?
        var mains: Double?
    }

    /// What scrolled out of the zone timeline: counts per zone and the span of time.
    struct ScrolledOutIndicators {
        var count = 0
        var from = 0.0
        var to = 0.0
        /// Zones in the order first seen, with their counts.
        var zones: [(zone: String, count: Int)] = []

        mutating func add(time: Double, zone: String) {
            if count == 0 { from = time }
            to = time
            count += 1
            if let index = zones.firstIndex(where: { $0.zone == zone }) {
                zones[index].count += 1
            } else {
                zones.append((zone, 1))
            }
        }
    }

    /// Creates a hub for a stream and the engine run on it.
    public init(descriptor: StreamDescriptor, configuration: EEGEngine.Configuration, options: Options = .init()) {
        self.descriptor = descriptor
        self.configuration = configuration
        self.options = options
        sink = LiveViewSink(channelCount: descriptor.channelCount, capacity: options.ringCapacity)
        decimation = max(1, Int((descriptor.nominalRate / options.displayRate).rounded(.up)))
        let filter = options.displayFilter.flatMap { filter in
            (try? filter.design(sampleRate: descriptor.nominalRate, mains: nil)) != nil ? filter : nil
        }
        displayFilter = filter
        pointWidth = 1 + (filter == nil ? 1 : 2) * descriptor.channelCount
        var shared = Shared()
        if filter?.notch == .measured { shared.mainsDetector = try? MainsLineDetector() }
        self.shared = ThreadLocked(shared)
    }

    /// Sets where statistics come from (the run's pipeline); called every ``Options/statisticsInterval``.
    public func attachStatistics(_ provider: @escaping @Sendable () -> PipelineStatistics?) {
        statisticsProvider.withLock { $0 = provider }
    }

    /// Starts the hub's thread, which drains the sink and feeds the viewers until ``stop()``.
    ///
    /// - Throws: ``AxonStreams/PipelineError`` when the thread cannot be created.
    public func start() throws {
        let worker = try WorkerThread(name: "axon-view-hub") { [self] in drainLoop() }
        thread.withLock { $0 = ThreadBox(worker) }
    }

    /// Stops the hub's thread and closes every viewer's queue.
    public func stop() {
        stopSignal.signal()
        thread.withLock { box in
            box?.thread.join()
            box = nil
        }
        let viewers = shared.withLock { Array($0.viewers.values) }
        for viewer in viewers { viewer.close() }
    }

    // MARK: - Viewers

    /// Viewers connected now.
    public var viewerCount: Int { shared.withLock { $0.viewers.count } }

    /// Viewers that have connected since the start.
    public var connectionCount: Int { shared.withLock { $0.connections } }

    /// Each connected viewer's queue: messages waiting, the most that ever waited, messages skipped.
    public func viewerQueues() -> [(count: Int, peak: Int, skipped: Int)] {
        shared.withLock { Array($0.viewers.values) }.map { ($0.count, $0.peakCount, $0.skippedCount) }
    }

    /// A new viewer: its queue starts with the `hello` (descriptor, state, recent raw data).
    public func connect() -> ViewerQueue {
        let queue = ViewerQueue(capacity: options.queueCapacity)
        shared.withLock { state in
            state.connections += 1
            queue.push(ViewMessage(kind: .hello, text: hello(state)))
            state.viewers[ObjectIdentifier(queue)] = queue
        }
        return queue
    }

    /// Forgets a viewer and closes its queue.
    public func disconnect(_ queue: ViewerQueue) {
        _ = shared.withLock { $0.viewers.removeValue(forKey: ObjectIdentifier(queue)) }
        queue.close()
    }

    private func broadcast(_ message: ViewMessage, _ state: inout Shared) {
        for viewer in state.viewers.values { viewer.push(message) }
    }

    // MARK: - What a run publishes

    /// A spectrum frame from the engine. Any thread; not the real-time path (the session's delivery).
    ///
    /// Viewers get the newest spectrum once per ``Options/flushInterval`` (a display shows the latest one; a fast
    /// replay makes thousands a second): frames that a newer one replaces before the flush are not sent.
    public func publish(_ frame: SpectrumFrame) {
        shared.withLock { state in
            if frame.baselineState == .collecting {
                state.baselineFrames = state.baselineState == .collecting ? state.baselineFrames + 1 : 1
            }
            state.baselineState = frame.baselineState
            state.pendingSpectrum = (frame, state.baselineFrames)
            if state.mains == nil, var detector = state.mainsDetector {
                for channel in frame.channels { detector.add(channel.spectrum, binWidth: frame.binWidth) }
                detector.endSpectrum()
                state.mains = detector.mainsFrequency
                state.mainsDetector = detector
            }
        }
    }

    /// The mains frequency the run's spectra show, once a line stands out (with a measured display notch).
    public var measuredMains: Double? { shared.withLock { $0.mains } }

    /// Encodes and sends the newest spectrum if one is waiting (the hub's thread, and `finish`).
    private func flushSpectrum() {
        guard let pending = shared.withLock({ state in
            defer { state.pendingSpectrum = nil }
            return state.pendingSpectrum
        }) else { return }
        let text = spectrumJSON(pending.frame, baselineFrames: pending.baselineFrames)
        shared.withLock { state in
            state.spectrum = text
            broadcast(ViewMessage(kind: .spectrum, text: text), &state)
        }
    }

    /// One window's band powers (``AxonEEG/BandPowers``: absolute unit² and relative % per channel and band), for the
    /// page's band powers panel. Any thread; not the real-time path. Like spectra, viewers get the newest once per
    /// ``Options/flushInterval``.
    public func publish(_ powers: BandPowers) {
        shared.withLock { $0.pendingBandPowers = powers }
    }

    /// Encodes and sends the newest band powers if some are waiting (the hub's thread, and `finish`).
    private func flushBandPowers() {
        guard let powers = shared.withLock({ state in
            defer { state.pendingBandPowers = nil }
            return state.pendingBandPowers
        }) else { return }
        let text = bandPowersJSON(powers)
        shared.withLock { state in
            state.bandPowers = text
            broadcast(ViewMessage(kind: .bandPowers, text: text), &state)
        }
    }

    /// `{"type":"bandPowers","time","unit","bands":[{"name","low","high"}],"channels":[{"label","absolute":[…],
    /// "relative":[…]}]}`: absolute with four significant digits, relative in % with one decimal.
    private func bandPowersJSON(_ powers: BandPowers) -> String {
        var json = ViewJSON(capacity: 128 + 48 * powers.channelCount * powers.bandCount)
        json.raw("{\"type\":\"bandPowers\",\"time\":")
        json.number(options.timeOffset + Double(powers.sampleIndex + 1) / configuration.sampleRate, digits: 3)
        json.raw(",\"unit\":")
        json.string("\(configuration.unit)²")
        json.raw(",\"bands\":")
        json.array(powers.bands.bands) { json, band in
            json.raw("{\"name\":")
            json.string(band.name)
            json.raw(",\"low\":")
            json.significant(band.low, 6)
            json.raw(",\"high\":")
            json.significant(band.high, 6)
            json.raw("}")
        }
        json.raw(",\"channels\":")
        json.array(0..<powers.channelCount) { json, channel in
            json.raw("{\"label\":")
            json.string(powers.channelLabels[channel])
            json.raw(",\"absolute\":")
            json.array(0..<powers.bandCount) { json, band in
                json.significant(powers.absolute(channel: channel, band: band))
            }
            json.raw(",\"relative\":")
            json.array(0..<powers.bandCount) { json, band in
                json.number(powers.relative(channel: channel, band: band), digits: 1)
            }
            json.raw("}")
        }
        json.raw("}")
        return json.text
    }

    /// An indicator from the engine: a new entry of the zone timeline.
    ///
    /// The timeline keeps the newest ``Options/timelineEntries``; an older one leaves a count in the summary a new
    /// viewer's `hello` carries (`earlier`).
    public func publish(_ indicator: ActivityIndicators) {
        let text = indicatorJSON(indicator)
        let entry = (time: indicatorTime(indicator), zone: "\(indicator.activity.zone)")
        shared.withLock { state in
            state.indicators.append(text)
            state.indicatorZones.append(entry)
            if state.indicators.count > options.timelineEntries {
                let old = state.indicatorZones.removeFirst()
                state.indicators.removeFirst()
                state.scrolledOut.add(time: old.time, zone: old.zone)
            }
            broadcast(ViewMessage(kind: .indicator, text: text), &state)
        }
    }

    /// A running individual alpha frequency: the spectrum tab marks each channel's PAF and shows the pooled PAF
    /// and CoG. Any thread.
    public func publish(_ update: IndividualAlphaUpdate) {
        var json = ViewJSON()
        json.raw("{\"type\":\"alpha\",\"time\":")
        json.number(options.timeOffset + Double(update.sampleIndex + 1) / configuration.sampleRate, digits: 3)
        json.raw(",\"windows\":")
        json.int(update.windows)
        json.raw(",\"paf\":")
        json.optional(update.estimate.peak, digits: 3)
        json.raw(",\"cog\":")
        json.optional(update.estimate.centreOfGravity, digits: 3)
        json.raw(",\"channels\":[")
        for (index, channel) in update.estimate.channels.enumerated() {
            json.raw(index == 0 ? "{\"paf\":" : ",{\"paf\":")
            json.optional(channel.peak, digits: 3)
            json.raw(",\"cog\":")
            json.optional(channel.centreOfGravity, digits: 3)
            json.raw("}")
        }
        json.raw("]}")
        let text = json.text
        shared.withLock { state in
            state.alpha = text
            broadcast(ViewMessage(kind: .status, text: text), &state)
        }
    }

    /// How many indicators the timeline holds now, and how many scrolled out of it.
    public var timelineCounts: (kept: Int, scrolledOut: Int) {
        shared.withLock { ($0.indicators.count, $0.scrolledOut.count) }
    }

    /// An indicator's time on the page: stream seconds (plus ``Options/timeOffset``) at its last sample.
    private func indicatorTime(_ indicator: ActivityIndicators) -> Double {
        options.timeOffset + Double(indicator.sampleIndex + 1) / configuration.sampleRate
    }

    /// A device status message (`code` and `name` as the device's SDK gives them; `code` nil for a rejected
    /// notification or any other note).
    public func publishStatus(code: Int?, name: String, message: String) {
        var json = ViewJSON()
        json.raw("{\"type\":\"status\",\"time\":")
        json.number(Date().timeIntervalSince1970, digits: 3)
        json.raw(",\"code\":")
        if let code { json.int(code) } else { json.raw("null") }
        json.raw(",\"name\":")
        json.string(name)
        json.raw(",\"message\":")
        json.string(message)
        json.raw("}")
        let text = json.text
        shared.withLock { state in
            state.status.append(text)
            if state.status.count > 256 { state.status.removeFirst(state.status.count - 256) }
            broadcast(ViewMessage(kind: .status, text: text), &state)
        }
    }

    /// A battery level, 0–100.
    public func publishBattery(_ level: Int) {
        shared.withLock { state in
            state.battery = level
            broadcast(ViewMessage(kind: .status, text: "{\"type\":\"battery\",\"level\":\(level)}"), &state)
        }
    }

    /// The run has ended: viewers keep the last state and show `summary`.
    public func finish(summary: String) {
        flushSpectrum()
        flushBandPowers()
        let statistics = statisticsJSON()
        var json = ViewJSON()
        json.raw("{\"type\":\"end\",\"summary\":")
        json.string(summary)
        json.raw("}")
        shared.withLock { state in
            if let statistics {
                state.statistics = statistics
                broadcast(ViewMessage(kind: .stats, text: statistics), &state)
            }
            state.ended = json.text
            broadcast(ViewMessage(kind: .end, text: json.text), &state)
        }
    }

    // MARK: - The hub's thread

    private struct Decimator {
        var index = 0
        var groupStart = 0
        var count = 0
        /// Per point lane after the time: each channel's raw sum, then each channel's filtered sum.
        var sums: [Double]
        var points: [Double] = []
        var gaps: [String] = []
        var seenDrops = 0
    }

    /// The display filter on the hub's thread: the filter for the mains frequency known so far.
    private struct TraceFilter {
        let filter: SOSFilter
        let mains: Double?
    }

    /// A filter for the display filter's design with the notch at `mains`; `nil` without a display filter.
    private func makeTraceFilter(mains: Double?) -> TraceFilter? {
        guard let displayFilter else { return nil }
        let notch: Double? = switch displayFilter.notch {
        case .measured: mains
        case .at(let frequency): frequency
        case .off: nil
        }
        guard let design = try? displayFilter.design(sampleRate: descriptor.nominalRate, mains: notch),
            let filter = try? SOSFilter(design, channelCount: descriptor.channelCount)
        else { return nil }
        return TraceFilter(filter: filter, mains: mains)
    }

    private func drainLoop() {
        let width = 4 + descriptor.channelCount
        let channels = descriptor.channelCount
        var row = [Double](repeating: 0, count: width)
        var decimator = Decimator(sums: [Double](repeating: 0, count: pointWidth - 1))
        var traceFilter = makeTraceFilter(mains: nil)
        var filtered = [Double](repeating: 0, count: channels)
        var nextFlush = DispatchTime.now()
        var nextStatistics = DispatchTime.now()
        while true {
            let stopping = stopSignal.wait(timeout: nextFlush) == .success
            if let current = traceFilter, current.mains == nil, let mains = shared.withLock({ $0.mains }) {
                // The notch joins at the measured frequency; the new filter primes on the next frame.
                traceFilter = makeTraceFilter(mains: mains)
                let text = displayJSON(mains: mains)
                shared.withLock { state in broadcast(ViewMessage(kind: .status, text: text), &state) }
            }
            let ring = sink.ring
            let drops = ring.droppedCount
            if drops > decimator.seenDrops {
                addBreak(&decimator, missing: drops - decimator.seenDrops, cause: "view", seconds: nil)
                decimator.seenDrops = drops
            }
            while row.withUnsafeMutableBufferPointer({ ring.pop(into: $0) }) == 1 {
                if row[0] == LiveViewSink.gapKind {
                    let cause = GapRecord.Cause.allCases[Int(row[2])].rawValue
                    addBreak(&decimator, missing: Int(row[1]), cause: cause, seconds: row[3])
                    // After missing samples the filter starts again, as the pipeline's filter stage does.
                    if row[1] > 0 { traceFilter?.filter.reset() }
                } else {
                    if decimator.count == 0 { decimator.groupStart = decimator.index }
                    for channel in 0..<channels { decimator.sums[channel] += row[LiveViewSink.valueLane + channel] }
                    if let filter = traceFilter?.filter {
                        for channel in 0..<channels { filtered[channel] = row[LiveViewSink.valueLane + channel] }
                        filtered.withUnsafeMutableBufferPointer { filter.filter($0.baseAddress!) }
                        for channel in 0..<channels { decimator.sums[channels + channel] += filtered[channel] }
                    }
                    decimator.count += 1
                    decimator.index += 1
                    if decimator.count == decimation { emitPoint(&decimator) }
                }
            }
            flushRaw(&decimator)
            flushSpectrum()
            flushBandPowers()
            let now = DispatchTime.now()
            if now >= nextStatistics || stopping {
                if let text = statisticsJSON() {
                    shared.withLock { state in
                        state.statistics = text
                        broadcast(ViewMessage(kind: .stats, text: text), &state)
                    }
                }
                nextStatistics = now + options.statisticsInterval
            }
            if stopping { break }
            nextFlush = now + options.flushInterval
        }
    }

    private func emitPoint(_ decimator: inout Decimator) {
        let rate = descriptor.nominalRate
        decimator.points.append(options.timeOffset + Double(decimator.groupStart) / rate)
        for channel in 0..<decimator.sums.count {
            decimator.points.append(decimator.sums[channel] / Double(decimator.count))
            decimator.sums[channel] = 0
        }
        decimator.count = 0
    }

    private func addBreak(_ decimator: inout Decimator, missing: Int, cause: String, seconds: Double?) {
        if decimator.count > 0 { emitPoint(&decimator) }
        let rate = descriptor.nominalRate
        let time = options.timeOffset + Double(decimator.index) / rate
        decimator.points.append(time)
        for _ in 0..<decimator.sums.count { decimator.points.append(.nan) }
        decimator.index += max(0, missing)
        var json = ViewJSON()
        json.raw("{\"time\":")
        json.number(time, digits: 3)
        json.raw(",\"missing\":")
        json.int(missing)
        json.raw(",\"duration\":")
        json.number(Double(missing) / rate, digits: 3)
        json.raw(",\"cause\":")
        json.string(cause)
        json.raw("}")
        decimator.gaps.append(json.text)
    }

    private func flushRaw(_ decimator: inout Decimator) {
        guard !decimator.points.isEmpty || !decimator.gaps.isEmpty else { return }
        // A replay far faster than real time fills one flush with hours of points that no screen shows: keep the
        // newest history's worth, after a break (never a bridge) where the rest was.
        let kept = Int(options.historySeconds * descriptor.nominalRate) / decimation + 1
        if decimator.points.count > kept * pointWidth {
            let first = decimator.points.count - kept * pointWidth
            let start = decimator.points[first]
            decimator.points.replaceSubrange(0..<first, with: [start] + [Double](repeating: .nan, count: pointWidth - 1))
        }
        var json = ViewJSON(capacity: decimator.points.count * 8 + 64)
        json.raw("{\"type\":\"raw\",\"points\":")
        appendPoints(decimator.points[...], width: pointWidth, to: &json)
        json.raw(",\"gaps\":[")
        json.raw(decimator.gaps.joined(separator: ","))
        json.raw("]}")
        let message = ViewMessage(kind: .raw, text: json.text)
        let horizon = options.historySeconds
        shared.withLock { state in
            state.history.append(contentsOf: decimator.points)
            state.gapsShown.append(contentsOf: decimator.gaps)
            if let last = state.history.count >= pointWidth ? state.history[state.history.count - pointWidth] : nil {
                var drop = 0
                while drop < state.history.count, state.history[drop] < last - horizon { drop += pointWidth }
                if drop > 0 { state.history.removeFirst(drop) }
                let oldest = state.history.first ?? last
                state.gapsShown.removeAll { text in (Self.time(ofGap: text) ?? oldest) < oldest }
            }
            broadcast(message, &state)
        }
        decimator.points.removeAll(keepingCapacity: true)
        decimator.gaps.removeAll(keepingCapacity: true)
    }

    private static func time(ofGap text: String) -> Double? {
        guard let start = text.range(of: "\"time\":"), let end = text[start.upperBound...].firstIndex(of: ",") else {
            return nil
        }
        return Double(text[start.upperBound..<end])
    }

    private func appendPoints(_ points: ArraySlice<Double>, width: Int, to json: inout ViewJSON) {
        json.raw("[")
        var index = points.startIndex
        var first = true
        while index + width <= points.endIndex {
            if !first { json.raw(",") }
            first = false
            json.raw("[")
            json.number(points[index], digits: 3)
            for lane in 1..<width {
                json.raw(",")
                json.number(points[index + lane], digits: 2)
            }
            json.raw("]")
            index += width
        }
        json.raw("]")
    }

    // MARK: - Messages

    private func hello(_ state: Shared) -> String {
        var json = ViewJSON(capacity: state.history.count * 8 + 4096)
        json.raw("{\"type\":\"hello\",\"stream\":{\"name\":")
        json.string(descriptor.name)
        json.raw(",\"sourceID\":")
        json.string(descriptor.sourceID)
        json.raw(",\"source\":")
        json.string(options.sourceLabel)
        json.raw(",\"rate\":")
        json.number(descriptor.nominalRate, digits: 3)
        json.raw(",\"channels\":")
        json.array(descriptor.channels) { json, channel in
            json.raw("{\"label\":")
            json.string(channel.label)
            json.raw(",\"unit\":")
            json.string(channel.unit)
            json.raw("}")
        }
        json.raw("},\"engine\":{\"labels\":")
        json.array(configuration.channelLabels) { json, label in json.string(label) }
        json.raw(",\"window\":")
        json.int(configuration.windowSize)
        json.raw(",\"hop\":")
        json.int(configuration.hop)
        json.raw(",\"baselineSeconds\":")
        json.number(configuration.baselineDuration, digits: 3)
        json.raw(",\"indicatorSeconds\":")
        json.number(configuration.indicatorPeriod, digits: 3)
        json.raw(",\"bands\":")
        json.array(configuration.bands) { json, band in
            json.raw("[")
            json.number(band.lower, digits: 2)
            json.raw(",")
            json.number(band.upper, digits: 2)
            json.raw("]")
        }
        json.raw(",\"spectrumMaximum\":")
        json.number(options.spectrumMaximum, digits: 1)
        json.raw("},\"displayRate\":")
        json.number(descriptor.nominalRate / Double(decimation), digits: 3)
        json.raw(",\"historySeconds\":")
        json.number(options.historySeconds, digits: 1)
        json.raw(",\"display\":")
        json.raw(displayFilter == nil ? "null" : displayJSON(mains: state.mains))
        json.raw(",\"raw\":{\"type\":\"raw\",\"points\":")
        appendPoints(state.history[...], width: pointWidth, to: &json)
        json.raw(",\"gaps\":[")
        json.raw(state.gapsShown.joined(separator: ","))
        json.raw("]},\"spectrum\":")
        json.raw(state.spectrum ?? "null")
        json.raw(",\"timelineEntries\":")
        json.int(options.timelineEntries)
        json.raw(",\"indicators\":[")
        json.raw(state.indicators.joined(separator: ","))
        json.raw("],\"earlier\":")
        if state.scrolledOut.count == 0 {
            json.raw("null")
        } else {
            json.raw("{\"count\":")
            json.int(state.scrolledOut.count)
            json.raw(",\"from\":")
            json.number(state.scrolledOut.from, digits: 3)
            json.raw(",\"to\":")
            json.number(state.scrolledOut.to, digits: 3)
            json.raw(",\"zones\":")
            json.array(state.scrolledOut.zones) { json, zone in
                json.raw("{\"zone\":")
                json.string(zone.zone)
                json.raw(",\"count\":")
                json.int(zone.count)
                json.raw("}")
            }
            json.raw("}")
        }
        json.raw(",\"status\":[")
        json.raw(state.status.joined(separator: ","))
        json.raw("],\"alpha\":")
        json.raw(state.alpha ?? "null")
        json.raw(",\"bandPowers\":")
        json.raw(state.bandPowers ?? "null")
        json.raw(",\"battery\":")
        json.raw(state.battery.map(String.init) ?? "null")
        json.raw(",\"stats\":")
        json.raw(state.statistics ?? "null")
        json.raw(",\"end\":")
        json.raw(state.ended ?? "null")
        json.raw("}")
        return json.text
    }

    /// The display filter, for the page: `{"type":"display","filter":"1–50 Hz band-pass","notch":…,"mains":…}`,
    /// `notch` a sentence (`60 Hz, measured`, `measuring the mains frequency`, `off`), `mains` the measured frequency
    /// or null. Points carry the filtered values after the raw ones.
    private func displayJSON(mains: Double?) -> String {
        guard let displayFilter else { return "null" }
        var json = ViewJSON(capacity: 160)
        json.raw("{\"type\":\"display\",\"filter\":")
        json.string(displayFilter.passBandDescription(sampleRate: descriptor.nominalRate))
        json.raw(",\"notch\":")
        switch displayFilter.notch {
        case .measured:
            json.string(mains.map { "\(DisplayFilter.hertz($0)) Hz, measured" } ?? "measuring the mains frequency")
        case .at(let frequency): json.string("\(DisplayFilter.hertz(frequency)) Hz")
        case .off: json.string("off")
        }
        json.raw(",\"mains\":")
        json.optional(mains, digits: 1)
        json.raw("}")
        return json.text
    }

    private func spectrumJSON(_ frame: SpectrumFrame, baselineFrames: Int) -> String {
        let rate = configuration.sampleRate
        var json = ViewJSON(capacity: 4096)
        json.raw("{\"type\":\"spectrum\",\"time\":")
        json.number(options.timeOffset + Double(frame.sampleIndex + 1) / rate, digits: 3)
        json.raw(",\"baseline\":")
        json.string("\(frame.baselineState)")
        json.raw(",\"baselineProgress\":")
        let needed = max(1.0, configuration.baselineDuration * rate / Double(configuration.hop))
        switch frame.baselineState {
        case .notStarted: json.raw("0")
        case .collecting: json.number(min(1, Double(baselineFrames) / needed), digits: 3)
        case .complete: json.raw("1")
        }
        json.raw(",\"binWidth\":")
        json.number(frame.binWidth, digits: 6)
        json.raw(",\"artifacts\":")
        json.string(frame.artifacts.isEmpty ? "" : "\(frame.artifacts)")
        json.raw(",\"filled\":")
        json.int(frame.filledSamples)
        let bins = min(frame.channels.first?.spectrum.count ?? 0, Int(options.spectrumMaximum / frame.binWidth) + 2)
        json.raw(",\"channels\":")
        json.array(frame.channels) { json, channel in
            json.raw("{\"label\":")
            json.string(channel.label)
            json.raw(",\"usable\":")
            json.bool(channel.quality.usable)
            json.raw(",\"power\":")
            json.array(channel.spectrum.prefix(bins)) { json, power in json.significant(power) }
            json.raw(",\"bands\":")
            json.array(channel.bands) { json, band in
                json.raw("{\"low\":")
                json.number(band.band.lower, digits: 2)
                json.raw(",\"high\":")
                json.number(band.band.upper, digits: 2)
                json.raw(",\"peak\":")
                json.optional(band.dominantFrequency, digits: 3)
                json.raw(",\"power\":")
                json.significant(band.power)
                json.raw(",\"share\":")
                json.number(band.relativePower, digits: 4)
                json.raw("}")
            }
            json.raw("}")
        }
        json.raw("}")
        return json.text
    }

    private func indicatorJSON(_ indicator: ActivityIndicators) -> String {
        var json = ViewJSON(capacity: 512)
        json.raw("{\"type\":\"indicator\",\"time\":")
        json.number(indicatorTime(indicator), digits: 3)
        json.raw(",\"zone\":")
        json.string("\(indicator.activity.zone)")
        json.raw(",\"code\":")
        json.int(indicator.activity.zone.rawValue)
        json.raw(",\"percent\":")
        json.number(indicator.activity.percent, digits: 2)
        json.raw(",\"frames\":")
        json.int(indicator.frames)
        json.raw(",\"excluded\":")
        json.int(indicator.excludedFrames)
        json.raw(",\"z\":")
        json.array(indicator.zScores) { json, score in json.number(score, digits: 2) }
        json.raw(",\"colors\":")
        json.array(indicator.channels) { json, channel in
            json.raw("{\"label\":")
            json.string(channel.label)
            json.raw(",\"zone\":")
            if let level = channel.level { json.string("\(level.zone)") } else { json.raw("null") }
            json.raw(",\"percent\":")
            json.optional(channel.level?.percent, digits: 2)
            json.raw("}")
        }
        json.raw("}")
        return json.text
    }

    private func statisticsJSON() -> String? {
        guard let statistics = statisticsProvider.withLock({ $0 })?() else { return nil }
        var json = ViewJSON(capacity: 512)
        json.raw("{\"type\":\"stats\",\"elapsed\":")
        json.number(statistics.elapsed, digits: 2)
        for (name, value) in [
            ("received", statistics.received), ("delivered", statistics.delivered), ("dropped", statistics.dropped),
            ("gapRecords", statistics.gapRecords), ("missingFrames", statistics.missingFrames),
            ("occupancy", statistics.occupancy), ("peakOccupancy", statistics.peakOccupancy),
            ("capacity", statistics.capacity), ("viewRingDropped", sink.ring.droppedCount),
            ("viewers", viewerCount),
        ] {
            json.raw(",")
            json.key(name)
            json.int(value)
        }
        json.raw(",\"latencyP50\":")
        json.number(statistics.latency.p50 * 1e3, digits: 3)
        json.raw(",\"latencyP99\":")
        json.number(statistics.latency.p99 * 1e3, digits: 3)
        json.raw(",\"latencyMax\":")
        json.number(statistics.latency.max * 1e3, digits: 3)
        json.raw(",\"failures\":")
        json.array(statistics.failures) { json, failure in json.string(failure.description) }
        json.raw("}")
        return json.text
    }
}
