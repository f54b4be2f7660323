import AxonDevices
import AxonEEG
import AxonStreams

/// The Brainiac SDK's `CBManager`, in Swift: start a headset (or its test sequence), start the baseline, and read
/// raw samples, spectra, indicators and status as async sequences.
///
///     let headset = EEGHeadset()
///     try headset.startTestSequence(dominantFrequency: 10)     // startTestSequenceWithDominantFrequence:
///     headset.startBaseline()                                   // startProcessAverageValues
///     Task { for await frame in headset.spectra { print(frame.channels[1].bands[1].dominantFrequency) } }
///     Task { for await indicator in headset.indicators { print(indicator.activity.zone) } }
///     Task { for await event in headset.status { print(event) } }
///
/// Every start runs a fresh ``AxonEEG/EEGSession`` (source thread → ring → engine → delivery thread). ``samples``,
/// ``spectra`` and ``indicators`` are that run's sequences: read them after `start…`; they finish when the run
/// stops. ``notifications`` is the run's notifications as the headset sent them (the SDK's `rawdata` and
/// `rawvalues`, with each sample's hardware order number). ``status`` lasts as long as the headset and carries battery levels, the SDK's status messages and
/// rejected notifications of every run.
///
/// Threading: `start…`, `stop`, `startBaseline` and `waitUntilFinished` from one controlling thread; the state
/// properties and the sequences from any thread.
public final class EEGHeadset: Sendable {
    /// The engine's parameters (Brainiac defaults).
    public let configuration: EEGEngine.Configuration
    /// Battery levels, status messages and rejected notifications, for the headset's lifetime (the SDK's
    /// `CB_changedStatus:message:`).
    public let status: AsyncStream<BrainiacHeadsetEvent>

    private let statusContinuation: AsyncStream<BrainiacHeadsetEvent>.Continuation
    private let current = ThreadLocked<Run?>(nil)
    private let battery = ThreadLocked<Int?>(nil)
    private let baselineRequestedBeforeStart = ThreadLocked(false)
    private let options: EEGSession.Options

    private struct Run: Sendable {
        let session: EEGSession
        let simulator: SimulatedBrainiacHeadset?
        let notifications: AsyncStream<BrainiacRawNotification>?
    }

    /// Notifications a reader that falls behind may leave waiting (40 s of EEG at 25 notifications a second); the
    /// oldest go first.
    public static let notificationBuffer = 1000

    /// Creates a headset manager (the SDK's `init`); nothing runs until a `start…` call.
    ///
    /// - Parameters:
    ///   - configuration: the engine's parameters; the channel labels must be the headset's four.
    ///   - options: delivery options; the time base is the headset's own clock (its packets carry ms since 1970).
    public init(configuration: EEGEngine.Configuration = .init(), options: EEGSession.Options = .init(timeBase: .device)) {
        self.configuration = configuration
        var options = options
        options.pipeline.timeline = BrainiacHeadset.timelineConfiguration
        self.options = options
        (status, statusContinuation) = AsyncStream.makeStream(of: BrainiacHeadsetEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    deinit { statusContinuation.finish() }

    /// Starts streaming from a headset's frame source (the SDK's `start`): for hardware, the Bluetooth
    /// transport's source; any `SampleSource` with the headset's four channels works.
    ///
    /// - Throws: ``EEGHeadsetError/alreadyStarted`` while a run is active, ``AxonEEG/EEGError`` for a bad
    ///   configuration, or a pipeline error if its threads cannot start.
    public func start(source: any SampleSource) throws {
        try begin(source: source, simulator: nil, notifications: nil)
    }

    /// Starts streaming from a headset reached through a device transport (BlueZ for hardware): connects,
    /// turns notifications on and keeps them flowing through link losses. Battery levels, the SDK's status
    /// messages (scanning, connecting, connected, data transfer started/aborted, disconnected…) and rejected
    /// notifications go to ``status``.
    ///
    /// - Throws: ``EEGHeadsetError/alreadyStarted``, ``AxonEEG/EEGError``, or a pipeline error; a transport that cannot
    ///   connect ends the run (its reason is in the run's statistics' failures).
    public func start(transport: any DeviceTransport, profile: BrainiacGATTProfile = .init()) throws {
        let continuation = statusContinuation
        let (notifications, raw) = Self.makeNotifications()
        let source = BrainiacTransportSource(
            transport: transport, profile: profile,
            eventHandler: { [weak self] event in
                if case .battery(let level) = event { self?.battery.withLock { $0 = level } }
                continuation.yield(event)
            },
            notificationHandler: { raw.yield($0) })
        try begin(source: EndingSource(source) { raw.finish() }, simulator: nil, notifications: notifications)
    }

    /// Starts the SDK's test sequence (`startTestSequenceWithDominantFrequence:`): a simulated headset sends a
    /// pure sine at `dominantFrequency` on every channel, at 250 Hz in real time, as real notifications through
    /// the real decoder, ring and engine.
    ///
    /// - Parameters:
    ///   - dominantFrequency: the sine's frequency in Hz.
    ///   - amplitude: its amplitude in µV.
    ///   - noise: standard deviation of added Gaussian noise in µV (0 = a pure sine).
    ///   - duration: seconds to run, `nil` until ``stop()``.
    ///   - realTime: pace notifications in real time (`false` sends them as fast as the pipeline takes them, for
    ///     tests and analysis).
    ///   - faults: damaged notifications to send, by notification index (see ``BrainiacFault``).
    public func startTestSequence(
        dominantFrequency: Double, amplitude: Double = 50, noise: Double = 0, duration: Double? = nil,
        realTime: Bool = true, faults: [Int: BrainiacFault] = [:]
    ) throws {
        let continuation = statusContinuation
        let (notifications, raw) = Self.makeNotifications()
        let simulator = SimulatedBrainiacHeadset(
            configuration: .init(
                dominantFrequency: dominantFrequency, amplitude: amplitude, noise: noise, duration: duration,
                realTime: realTime, faults: faults),
            eventHandler: { [weak self] event in
                if case .battery(let level) = event { self?.battery.withLock { $0 = level } }
                continuation.yield(event)
            },
            notificationHandler: { raw.yield($0) })
        try begin(
            source: EndingSource(simulator) { raw.finish() }, simulator: simulator, notifications: notifications)
    }

    private static func makeNotifications() -> (
        AsyncStream<BrainiacRawNotification>, AsyncStream<BrainiacRawNotification>.Continuation
    ) {
        AsyncStream.makeStream(of: BrainiacRawNotification.self, bufferingPolicy: .bufferingNewest(notificationBuffer))
    }

    private func begin(
        source: any SampleSource, simulator: SimulatedBrainiacHeadset?,
        notifications: AsyncStream<BrainiacRawNotification>?
    ) throws {
        let previous = current.withLock { $0 }
        if previous?.session.state.hasStarted ?? false { throw EEGHeadsetError.alreadyStarted }
        // A run that ended on its own still has threads to join (they have finished: this returns at once).
        previous?.session.waitUntilFinished()
        let session = try EEGSession(source: source, configuration: configuration, options: options)
        current.withLock { $0 = Run(session: session, simulator: simulator, notifications: notifications) }
        // A baseline asked for before the start begins with the first sample.
        if baselineRequestedBeforeStart.withLock({ requested in defer { requested = false }; return requested }) {
            session.startBaseline()
        }
        try session.start()
    }

    /// Stops the run (the SDK's `stop`): delivers what is buffered and finishes the run's sequences.
    public func stop() {
        current.withLock { $0 }?.session.stop()
    }

    /// Waits until a run with a duration has ended and everything has been delivered.
    public func waitUntilFinished() {
        current.withLock { $0 }?.session.waitUntilFinished()
    }

    /// Starts (or restarts) the baseline with the next sample (the SDK's `startProcessAverageValues`); the first
    /// indicator follows when it completes, then one every indicator period.
    ///
    /// Called before a `start…`, the baseline begins with the run's first sample, which makes its timing exact
    /// for runs that are not paced in real time.
    public func startBaseline() {
        if let run = current.withLock({ $0 }), run.session.state.hasStarted {
            run.session.startBaseline()
        } else {
            baselineRequestedBeforeStart.withLock { $0 = true }
        }
    }

    private var sessionState: EEGSession.State { current.withLock { $0 }?.session.state ?? .init() }

    /// Connected and streaming (the SDK's `hasStarted`).
    public var hasStarted: Bool { sessionState.hasStarted }
    /// The baseline is collecting (the SDK's `hasStartedProcessBasicValues`).
    public var isBaselineRunning: Bool { sessionState.baselineState == .collecting }
    /// Indicators are being produced (the SDK's `hasStartedIndicators`).
    public var hasStartedIndicators: Bool { sessionState.hasStartedIndicators }
    /// The latest battery level, 0–100 (the SDK's `batteryLevel`), `nil` before the first report.
    public var batteryLevel: Int? { battery.withLock { $0 } }
    /// The simulated headset's decoder state (statistics, rejected notifications), when the test sequence runs.
    public var decoderState: BrainiacHeadsetState? { current.withLock { $0 }?.simulator?.state() }
    /// The current run's pipeline statistics.
    public var statistics: PipelineStatistics? { current.withLock { $0 }?.session.statistics() }

    private static let finished: (AsyncStream<EEGSample>, AsyncStream<SpectrumFrame>, AsyncStream<ActivityIndicators>) = {
        let samples = AsyncStream<EEGSample> { $0.finish() }
        let spectra = AsyncStream<SpectrumFrame> { $0.finish() }
        let indicators = AsyncStream<ActivityIndicators> { $0.finish() }
        return (samples, spectra, indicators)
    }()

    /// The current run's raw samples (`CB_dataUpdatedWithDictionary`); finished and empty before a start.
    public var samples: AsyncStream<EEGSample> { current.withLock { $0 }?.session.samples ?? Self.finished.0 }
    /// The current run's spectrum frames (`CB_fftDataUpdatedWithDictionary`).
    public var spectra: AsyncStream<SpectrumFrame> { current.withLock { $0 }?.session.spectra ?? Self.finished.1 }
    /// The current run's indicators (`CB_indicatorsStateWithDictionary`).
    public var indicators: AsyncStream<ActivityIndicators> {
        current.withLock { $0 }?.session.indicators ?? Self.finished.2
    }

    private static let noNotifications = AsyncStream<BrainiacRawNotification> { $0.finish() }

    /// The current run's notifications as the headset sent them, accepted or rejected: the SDK's `rawdata` (the
    /// bytes) and `rawvalues` (each EEG sample with its notification's hardware order number, time and counter);
    /// the newest ``notificationBuffer`` wait for a slow reader. Finishes when the headset's source ends; finished
    /// and empty before a start and for ``start(source:)``, whose source is not the headset's own.
    public var notifications: AsyncStream<BrainiacRawNotification> {
        current.withLock { $0 }?.notifications ?? Self.noNotifications
    }
}

/// A source that calls `onEnd` once its wrapped source's `run` has returned (the end of a headset's notifications).
private struct EndingSource: SampleSource {
    let base: any SampleSource
    let onEnd: @Sendable () -> Void

    init(_ base: any SampleSource, onEnd: @escaping @Sendable () -> Void) {
        self.base = base
        self.onEnd = onEnd
    }

    var descriptor: StreamDescriptor { base.descriptor }

    func run(into writer: FrameWriter) throws {
        defer { onEnd() }
        try base.run(into: writer)
    }
}

/// Errors of ``EEGHeadset``'s control calls.
public enum EEGHeadsetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A run is active; stop it first.
    case alreadyStarted

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .alreadyStarted: "the headset is already streaming; call stop() before starting again"
        }
    }
}
