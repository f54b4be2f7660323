import ArgumentParser
import AxonBrainiac
import AxonConnect
import AxonDevices
import AxonEEG
import AxonMuse
import AxonPolar
import AxonOpenBCI
import AxonLSL
import AxonRecording
import AxonStreams
import Dispatch
import Foundation

extension Axon {
    /// Records a source (or, into XDF, several LSL streams) to an EDF+, BDF+, CSV or XDF file until its duration
    /// ends or SIGINT/SIGTERM.
    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Record a source to an EDF+ (.edf), BDF+ (.bdf), CSV (.csv) or XDF (.xdf) file; zones are annotated.",
            discussion: """
                SOURCE is `simulator` (a 4-channel 250 Hz simulated headset), `test-sequence:HZ` (the simulated \
                Brainiac headset's test sequence through the packet decoder), a recording's path (any format axon \
                reads), played in real time unless --speed or --fast, a device (cyton:PATH, muse:NAME, polar:NAME, \
                ganglion:NAME, ble:NAME), an LSL stream (lsl:NAME, lsl:type=T) or a sensor described by a file \
                (--sensor FILE.json, docs/sensors.md). Without --seconds it runs \
                until SIGINT or SIGTERM, which close the file cleanly. EDF/BDF files are crash-safe: the header's \
                record count is rewritten and the file fsynced after every data record. Annotated in EDF/BDF: the \
                start, each zone, gaps, the simulated headset's status, and every line typed on standard input \
                (a user marker). Several LSL streams at once: give each as --source lsl:… with --out FILE.xdf; \
                each becomes a stream of the file as its outlet sends it (any format, string streams included), \
                with its own header, clock offsets every 5 s and footer, as LabRecorder records them, and nothing \
                else runs (no engine, no zones). axon lsl record --all records every stream that answers. \
                polar:NAME records a Polar H10's ECG (µV, 130 Hz); its accelerometer goes to \
                OUT-STEM.accelerometer.edf and its RR intervals to OUT-STEM.rr.csv (unix_time,rr_ms,bpm), or with \
                .xdf to streams of the same file.
                """)

        @Argument(help: ArgumentHelp("What to record: \(SourceSpecifier.forms).", valueName: "source"))
        var source: String?

        @Option(
            name: .customLong("source"),
            help: ArgumentHelp(
                "An LSL stream to record (lsl:NAME, lsl:type=T, lsl:source_id=ID); repeat it to record several into "
                    + "one .xdf file, each as its own stream (docs/lsl.md).",
                valueName: "lsl:…"))
        var sourceOptions: [String] = []

        @Flag(help: "Publish the raw stream (and, with zones, spectra and zones) as LSL outlets (docs/lsl.md).")
        var lslOut = false

        @Option(help: "A liblsl configuration file for lsl: sources and --lsl-out (default: this machine only).")
        var lslConfig: String?

        @Option(help: "An LSL string stream whose samples become markers: lsl:NAME, lsl:type=T, lsl:source_id=ID.")
        var markers: String?

        @Option(help: ArgumentHelp("Deprecated: give the device as SOURCE.", visibility: .hidden))
        var device: String?

        @OptionGroup var sensor: SensorOption

        @Option(help: "D-Bus address of the bus bluetoothd is on, for a Bluetooth SOURCE (default: the system bus).")
        var bus: String?

        @Option(help: "The file to write; .edf (EDF+), .bdf (BDF+), .csv or .xdf (multi-stream session, docs/xdf.md).")
        var out: String

        @Option(help: ArgumentHelp(
            "Seconds of data to record (default: until SIGINT/SIGTERM): a device's first seconds × rate samples; a "
                + "device not found within them (at most 30 s) is an error."))
        var seconds: Double?

        @Option(name: .customLong("duration"), help: ArgumentHelp("Deprecated: --seconds.", visibility: .hidden))
        var durationOption: Double?

        /// `--seconds`, or the old `--duration`.
        var duration: Double? { seconds ?? durationOption }

        @Option(help: "Pacing multiplier for the simulator and recordings (1 = real time).")
        var speed: Double = 1

        @Flag(help: "Play a recording or the simulators as fast as possible.")
        var fast = false

        @Option(help: "Seconds of EEG baseline before zones are annotated (4-channel EEG sources; 0 = no zones).")
        var baseline: Double = 60

        @Option(help: "Seconds between zone annotations.")
        var indicator: Double = 10

        @Option(help: "Seconds between progress lines (wall clock).")
        var progress: Double = 1

        @Option(parsing: .unconditional, help: ArgumentHelp(
            "Physical range LOW,HIGH of every channel in EDF/BDF (default: a recording's from its data, as convert "
                + "chooses it; a live source's declared range, else ±3276.7 µV for EDF and ±838860 for BDF); values "
                + "outside are clipped, counted and warned about.",
            valueName: "LOW,HIGH"))
        var range: String?

        @Flag(help: "Replace --out if it exists (the old file is removed before the recording starts).")
        var force = false

        @OptionGroup var fileMode: FileModeOption
        @OptionGroup var anonymization: AnonymizeOptions
        @OptionGroup(title: "Band powers (the XDF file's and --lsl-out's band powers stream)")
        var powerBands: BandOptions
        @OptionGroup(title: "Filters (causal, before the file and the engine; .edf/.bdf, whose header records them)")
        var filters: FilterOptions

        func validate() throws {
            guard speed.isFinite, speed > 0, baseline >= 0, indicator > 0, progress > 0,
                duration.map({ $0 > 0 }) ?? true
            else { throw ValidationError("need speed, indicator, progress and duration > 0 and baseline ≥ 0") }
            guard seconds == nil || durationOption == nil else { throw ValidationError("give --seconds, not --duration too") }
            if try validateLSLSession() { return }
            guard try resolvedSource(announce: false) != nil else { throw ValidationError("give a SOURCE: \(SourceSpecifier.forms)") }
            guard ["edf", "bdf", "csv", "xdf"].contains(URL(fileURLWithPath: out).pathExtension.lowercased()) else {
                throw ValidationError("--out must end in .edf, .bdf, .csv or .xdf")
            }
            // A filtered recording must say so: EDF's prefiltering field does, Axon CSV and XDF have no place for it.
            if filters.isActive, !["edf", "bdf"].contains(URL(fileURLWithPath: out).pathExtension.lowercased()) {
                throw ValidationError(
                    "--bandpass, --highpass, --lowpass and --notch record to .edf or .bdf, whose header says which "
                        + "filters ran; record .csv or .xdf unfiltered and filter with axon convert")
            }
        }

        /// The SOURCE given, under its new spelling or an old one (`announce`: print a line for an old one). One
        /// `--source lsl:…` is an LSL source as documented; `--source` with another source is SOURCE's old spelling.
        func resolvedSource(announce: Bool) throws -> SourceSpecifier? {
            let lslOption = source == nil && sourceOptions.count == 1 && LSLCommandSupport.isStream(sourceOptions[0])
                ? sourceOptions[0] : nil
            return try SourceArgument.resolve(
                source ?? lslOption, command: "record", announce: announce, sensor: sensor,
                deprecated: [
                    .init(option: "--source", value: lslOption == nil ? sourceOptions.first : nil),
                    .init(option: "--device", value: device),
                ])
        }

        func run() throws {
            if givenSources.count > 1 { return try runLSLSession() }
            let specifier = try resolvedSource(announce: true)!
            if durationOption != nil {
                printError("axon record: --duration is deprecated and goes in the next release; use --seconds")
            }
            try fileMode.apply()
            try OutputFile.claim(out, replace: force)
            let physicalRange = try PhysicalRangeOption.parse(range)
            let headsetEvents = HeadsetEventRelay()
            let lsl = try lslOut || LSLCommandSupport.isStream(specifier) || markers != nil
                ? LSLRunOutput(configuration: lslConfig) : nil
            let (source, pipelineConfiguration, timeBase, deviceSummary) = try makeSource(
                specifier, headsetEvents: headsetEvents, lsl: lsl)
            let descriptor = source.descriptor
            if !descriptor.isRegular, ["edf", "bdf"].contains(URL(fileURLWithPath: out).pathExtension.lowercased()) {
                throw ValidationError(
                    "\(descriptor.name) is irregular (no fixed rate); EDF and BDF hold regular signals: record it "
                        + "to .csv or .xdf")
            }
            let stage = try SOSFilterStage(filters, sampleRate: descriptor.nominalRate)
            let fileExtension = URL(fileURLWithPath: out).pathExtension.lowercased()
            let edfSink: EDFSink?
            let sink: any SampleSink
            let xdf = fileExtension == "xdf"
                ? try XDFRecordSession(path: out, recorded: descriptor, anonymization: anonymization.value) : nil
            if fileExtension == "csv" {
                edfSink = nil
                sink = CSVSink(path: out, anonymization: anonymization.value)
            } else if let xdf {
                edfSink = nil
                sink = xdf.sink(for: source)
                headsetEvents.target { event in xdf.mark(event) }
                Thread.detachNewThread {
                    forEachInputLine { line in
                        let text = line.trimmingCharacters(in: .whitespaces)
                        guard !text.isEmpty else { return }
                        xdf.mark(text)
                        print("marked \"\(text)\"")
                        flushStandardOutput()
                    }
                }
            } else {
                let format: EDFWriter.Format = fileExtension == "bdf" ? .bdfPlus : .edfPlus
                var ranges = physicalRange.map { Array(repeating: $0, count: descriptor.channelCount) } ?? []
                // A recording played back is known in full before the header is written: its ranges come from its
                // data, as `convert` chooses them. A live source keeps its declared range (or the format's default).
                if physicalRange == nil, let replay = source as? RecordingReplaySource {
                    let planned = try stage.map { try $0.filteredForPlanning(replay.recording) } ?? replay.recording
                    ranges = try EDFChannelPlan.plan(planned, format: format).map(\.range)
                }
                var options = anonymization.applied(to: .init(format: format, ranges: ranges))
                if let prefiltering = filters.edfPrefiltering { options.prefiltering = prefiltering }
                let created = EDFSink(path: out, options: options, timeBase: timeBase)
                edfSink = created
                // The headset's status changes, battery reports and rejected notifications become annotations.
                headsetEvents.target { event in created.annotate(unixTime: HostClock.unixNow(), text: event) }
                // Each line typed on standard input becomes a user marker at the time it was entered.
                Thread.detachNewThread {
                    forEachInputLine { line in
                        let text = line.trimmingCharacters(in: .whitespaces)
                        guard !text.isEmpty else { return }
                        created.annotate(unixTime: HostClock.unixNow(), text: "marker: \(text)")
                        print("marked \"\(text)\"")
                        flushStandardOutput()
                    }
                }
                sink = created
            }
            // A Muse's telemetry, motion and PPG streams go beside its EEG (XDF streams, EDF files of their own).
            var museAuxiliary: MuseAuxiliaryRecording?
            if let muse = source as? MuseSource {
                if fileExtension == "csv" {
                    print(
                        "note: the Muse's telemetry, accelerometer and gyroscope streams are recorded with .xdf, .edf "
                            + "or .bdf, not with .csv")
                } else {
                    let format: EDFWriter.Format = fileExtension == "bdf" ? .bdfPlus : .edfPlus
                    let options = anonymization.applied(to: .init(format: format, startAnnotation: nil))
                    museAuxiliary = try MuseAuxiliaryRecording(
                        source: muse, out: out, xdf: xdf, options: options, replace: force
                    ) { text in edfSink?.annotate(unixTime: HostClock.unixNow(), text: text) }
                }
            }
            // A Polar H10's accelerometer, heart rate and RR intervals go beside its ECG (PolarAuxiliaryRecording).
            var polarAuxiliary: PolarAuxiliaryRecording?
            if let polar = source as? PolarSource {
                if fileExtension == "csv" {
                    print(
                        "note: the Polar's accelerometer, heart rate and RR intervals are recorded with .xdf, .edf or "
                            + ".bdf, not with .csv")
                } else {
                    let format: EDFWriter.Format = fileExtension == "bdf" ? .bdfPlus : .edfPlus
                    let options = anonymization.applied(to: .init(format: format, startAnnotation: nil))
                    polarAuxiliary = try PolarAuxiliaryRecording(
                        source: polar, out: out, xdf: xdf, options: options, replace: force)
                }
            }
            let status = try lslOut ? lsl?.statusOutlet(for: descriptor) : nil
            if let status {
                headsetEvents.target { event in
                    do { try status.publish(event) } catch { print("status outlet: \(error)") }
                }
            }
            let sinks = [sink] + (lslOut ? lsl.map { [$0.rawSink(status: status)] } ?? [] : [])
            let markerInlet = try markers.map { selector in
                try lsl!.markers(selector) { text, time in
                    if let xdf { xdf.mark(text, at: time) }
                    edfSink?.annotate(unixTime: time + HostClock.wallClockOffset(), text: "marker: \(text)")
                }
            }
            let done = CompletionFlag()
            let watched = WatchedSource(inner: source, done: done)
            let stopRequested = StopSignals()

            // A device recorded for --seconds stops at exactly that many samples (its last packet cut): the stream
            // after the limit is what the file, the engine and the counts see.
            let wanted = specifier.isDevice && descriptor.isRegular
                ? duration.map { Int(($0 * descriptor.nominalRate).rounded()) } : nil
            let stages: [any SampleProcessor] = (wanted.map { [SampleCountLimit(limit: $0)] } ?? []) + (stage.map { [$0] } ?? [])
            let zones = (edfSink != nil || xdf != nil) && baseline > 0 && descriptor.contentType == .eeg
                && descriptor.channelCount == 4
            print("axon record: \(descriptor.name), \(descriptor.channelCount) channel\(descriptor.channelCount == 1 ? "" : "s") at "
                + "\(fmt(descriptor.nominalRate, 0)) Hz → \(out)"
                + (duration.map { " for \(fmt($0, 1)) s" } ?? " until SIGINT/SIGTERM")
                + (zones ? "; zones annotated after a \(fmt(baseline, 0)) s baseline" : ""))
            if let filtered = filters.summary(.causal, sampleRate: descriptor.nominalRate) {
                print("  filtered before the file: \(filtered); header prefiltering \(filters.edfPrefiltering ?? "")")
            }
            flushStandardOutput()
            func publishStatus(_ text: String) {
                do { try status?.publish(text) } catch { print("status outlet: \(error)") }
            }
            publishStatus("recording \(descriptor.name) to \(URL(fileURLWithPath: out).lastPathComponent)")

            let statistics: () -> PipelineStatistics
            let stop: () -> Void
            var indicatorTask: Task<Void, Never>?
            var spectraTask: Task<Void, Never>?
            var alphaTask: Task<Void, Never>?
            if zones {
                let configuration = EEGEngine.Configuration(
                    sampleRate: descriptor.nominalRate, channelLabels: descriptor.channels.map(\.label),
                    baselineDuration: baseline, indicatorPeriod: indicator)
                let session = try EEGSession(
                    source: watched, configuration: configuration, stages: stages, sinks: sinks,
                    options: .init(publishSamples: false, pipeline: pipelineConfiguration))
                let rate = descriptor.nominalRate
                let powers = try powerBands.powers(configuration: configuration)
                let outlets = try lslOut
                    ? lsl?.eegOutlets(eeg: descriptor, configuration: configuration, bandPowers: powers) : nil
                try xdf?.addFeatures(eeg: descriptor, configuration: configuration, bandPowers: powers)
                if outlets != nil || xdf != nil {
                    spectraTask = fanOutSpectra(session.spectra, outlets: outlets, xdf: xdf)
                    alphaTask = fanOutAlpha(session.individualAlpha, outlets: outlets, xdf: xdf)
                }
                indicatorTask = Task.detached {
                    for await indicator in session.indicators {
                        let onset = Double(indicator.sampleIndex) / rate
                        let percent = Int((indicator.activity.percent * 100).rounded())
                        let text = "zone: \(indicator.activity.zone) \(percent)%"
                        edfSink?.annotate(onset: onset, text: text)
                        xdf?.zone(indicator)
                        do { try outlets?.publish(indicator) } catch { print("zones outlet: \(error)") }
                        print("annotated \"\(text)\" at \(fmt(onset, 3)) s")
                        flushStandardOutput()
                    }
                }
                session.startBaseline()
                try session.start()
                statistics = session.statistics
                stop = session.stop
            } else {
                let pipeline = StreamPipeline(
                    source: watched, processors: stages, sinks: sinks,
                    configuration: pipelineConfiguration)
                try pipeline.start()
                statistics = pipeline.statistics
                stop = pipeline.stop
            }

            // A device streams until told to stop: --seconds ends it here, once that much data is in (or 10 s after
            // it is due, should the device stall). An LSL inlet ends itself after --seconds; the deadline is a net.
            let streamsUntilStopped = specifier.isDevice || source is LSLInletSource
            // An irregular sensor has no sample count to wait for: its --seconds are wall-clock seconds.
            let irregularDevice = specifier.isDevice && !descriptor.isRegular
            let deadline = streamsUntilStopped ? duration.map { HostClock.now() + $0 + (irregularDevice ? 0 : 10) } : nil
            let tick = wanted == nil ? progress : min(progress, 0.05)
            var next = HostClock.now()
            var nextProgress = next + progress
            while !done.isSet, !stopRequested.isSet, deadline.map({ HostClock.now() < $0 }) ?? true,
                wanted.map({ statistics().delivered < $0 }) ?? true
            {
                next += tick
                HostClock.sleep(until: next)
                guard HostClock.now() >= nextProgress else { continue }
                nextProgress += progress
                let s = statistics()
                print("recorded \(fmt(Double(s.delivered) / descriptor.nominalRate, 2)) s (\(s.delivered) samples, "
                    + "\(s.gapRecords) gaps, \(s.dropped) dropped)")
                flushStandardOutput()
            }
            stop()
            markerInlet?.stop()
            if let indicatorTask { waitForTask(indicatorTask) }
            if let spectraTask { waitForTask(spectraTask) }
            if let alphaTask { waitForTask(alphaTask) }
            let auxiliary = museAuxiliary?.finish()
            let polarStreams = polarAuxiliary?.finish()
            if let xdf {
                try xdf.writer.close()
                print("xdf: \(xdf.writer.counts.chunks) chunks, \(xdf.writer.counts.boundaries) boundaries")
            }
            let s = statistics()
            var summary = "done: \(s.delivered) samples (\(fmt(Double(s.delivered) / descriptor.nominalRate, 2)) s)"
            if let writer = edfSink?.writer {
                summary += ", \(writer.recordCount) records, \(writer.annotationsWritten) annotations, "
                    + "\(writer.filledSamples) filled, \(writer.paddedSamples) padded, clipped per channel "
                    + "\(writer.clippedSamples)"
            }
            print(summary)
            if let deviceSummary { print(deviceSummary()) }
            if let auxiliary {
                print(auxiliary.summary)
                if let failure = auxiliary.failure { print("warning: muse auxiliary streams: \(failure)") }
            }
            if let polarStreams {
                print(polarStreams.summary)
                if let failure = polarStreams.failure { print("warning: polar auxiliary streams: \(failure)") }
            }
            if let writer = edfSink?.writer {
                for (channel, clipped) in zip(descriptor.channels, writer.clippedSamples) where clipped > 0 {
                    print(
                        "warning: \(channel.label): \(clipped) samples clipped to the file's physical range "
                            + "(give --range LOW,HIGH wide enough, or record to .bdf)")
                }
            }
            publishStatus(summary)
            status?.outlet.finishSending()
            if !s.failures.isEmpty { print("failures: \(s.failures.map(\.description).joined(separator: "; "))") }
            flushStandardOutput()
            if !s.failures.isEmpty { throw ExitCode.failure }
        }

        private func makeSource(_ specifier: SourceSpecifier, headsetEvents: HeadsetEventRelay, lsl: LSLRunOutput?)
            throws
            -> (any SampleSource, StreamPipeline.Configuration, EDFSink.TimeBase, summary: (@Sendable () -> String)?)
        {
            if let selector = try LSLCommandSupport.selector(specifier), let lsl {
                return (try lsl.source(selector, duration: duration), .init(), .host, nil)
            }
            if LiveEEGDevice.handles(specifier) {
                let bus = bus
                let searchSeconds = min(duration ?? 30, 30)
                let live = try runBlocking {
                    try await LiveEEGDevice.open(specifier, bus: bus, searchSeconds: searchSeconds)
                }
                return (live.source, .init(timeline: live.timeline), .host, live.summary)
            }
            let path: String
            switch specifier {
            case .brainiac(let selector):
                let relay = headsetEvents
                let bus = bus
                let searchSeconds = min(duration ?? 30, 30)
                let transport = try runBlocking {
                    try await BluetoothOptions.brainiacTransport(selector: selector, bus: bus, searchSeconds: searchSeconds)
                }
                let headset = BrainiacTransportSource(transport: transport) { relay.forward($0) }
                return (headset, .init(timeline: BrainiacHeadset.timelineConfiguration), .host, nil)
            case .simulator:
                let simulator = SimulatedSource(configuration: .init(
                    duration: duration, realTime: !fast, samplesPerPacket: 5, speed: speed))
                return (simulator, .init(overflow: fast ? .rejectNewest : .dropOldest), .host, nil)
            case .testSequence(let frequency):
                guard speed == 1 else {
                    throw ValidationError("--speed is for the simulator and recordings; use --fast")
                }
                let relay = headsetEvents
                let headset = SimulatedBrainiacHeadset(configuration: .init(
                    dominantFrequency: frequency, duration: duration, realTime: !fast)) { relay.forward($0) }
                return (headset, .init(timeline: BrainiacHeadset.timelineConfiguration), .host, nil)
            case .file(let file): path = file
            case .cyton, .muse, .ganglion, .polar, .lsl, .sensor: preconditionFailure("LiveEEGDevice opened \(specifier) above")
            }
            var recording: AxonRecording.Recording
            recording = try RecordingReader.read(path: path)
            if let duration, duration < recording.duration { recording = try recording.segment(from: 0, to: duration) }
            let replay = RecordingReplaySource(
                recording: recording, options: .init(speed: fast ? .asFastAsPossible : .realTime(multiplier: speed)))
            return (replay, replay.pipelineConfiguration(), .device, nil)
        }
    }
}

/// Hands a simulated headset's events (from its source thread) to whoever is listening once the file is open.
final class HeadsetEventRelay: Sendable {
    private let listeners = ThreadLocked<[@Sendable (String) -> Void]>([])

    /// Adds a listener; every event goes to every listener, in the order they were added.
    func target(_ body: @escaping @Sendable (String) -> Void) { listeners.withLock { $0.append(body) } }

    func forward(_ event: BrainiacHeadsetEvent) {
        let text: String
        switch event {
        case .status(let status): text = "status: \(status.message)"
        case .battery(let level): text = "battery: \(level)%"
        case .rejected(let error): text = "rejected notification: \(error)"
        }
        for listener in listeners.withLock({ $0 }) { listener(text) }
    }
}

/// A flag set once from any thread.
final class CompletionFlag: Sendable {
    private let state = ThreadLocked(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}

/// A source that raises a flag when its data ends, so the command knows the recording is complete.
struct WatchedSource: SampleSource {
    let inner: any SampleSource
    let done: CompletionFlag
    var descriptor: StreamDescriptor { inner.descriptor }
    func run(into writer: FrameWriter) throws {
        defer { done.set() }
        try inner.run(into: writer)
    }
}

/// Blocks the calling (non-async) thread until `task` ends.
func waitForTask(_ task: Task<Void, Never>) {
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        await task.value
        finished.signal()
    }
    finished.wait()
}

/// Runs async work from synchronous command code and waits for it.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let finished = DispatchSemaphore(value: 0)
    let result = ThreadLocked<Result<T, any Error>?>(nil)
    Task.detached {
        let value: Result<T, any Error>
        do { value = .success(try await work()) } catch { value = .failure(error) }
        result.withLock { $0 = value }
        finished.signal()
    }
    finished.wait()
    return try result.withLock { $0! }.get()
}

/// Flushes stdout (progress lines reach a pipe at once).
func flushStandardOutput() { fflush(nil) }
