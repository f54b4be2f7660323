import AxonBluetooth
import AxonDevices
import AxonLSL
import AxonMuse
import AxonPolar
import AxonOpenBCI
import AxonSensors
import AxonStreams
import Foundation

/// An EEG or ECG device or stream SOURCE (`cyton:PATH`, `muse:NAME|ADDRESS`, `ganglion:NAME|ADDRESS`,
/// `polar:NAME|ADDRESS`, an LSL stream, `lsl:NAME|lsl:type=T|lsl:source_id=ID`, or a sensor description file,
/// `sensor:FILE.json`), opened as a sample source with what a program needs around it: the timeline that turns its
/// counters into gap records, a title, a one-line summary of the device's counts, and how to let go of it.
/// `axon record`, `view`, `analyze` and `demo` open their devices with it.
///
///     let device = try await LiveEEGDevice.open(try SourceSpecifier(parsing: "muse:Muse-0E2A")) { event in
///         if case .searching(let kind, _, let seconds) = event { print("looking for a \(kind) for \(seconds) s") }
///     }
///     defer { device.close() }
///     let session = try EEGSession(source: device.source, …, options: .init(pipeline: .init(timeline: device.timeline)))
///
/// Threading: ``open(_:options:progress:)`` runs on any task and calls `progress` on it; the value is `Sendable`
/// and its closures may be called from any thread.
public struct LiveEEGDevice: Sendable {
    /// The device's samples.
    public let source: any SampleSource
    /// How the pipeline turns the device's packet counters into gap records.
    public let timeline: StreamTimeline.Configuration
    /// A name for people: `Muse Muse-0E2A through BlueZ, preset p20`.
    public let title: String
    /// One line of the device's counts (packets, losses, rejections); call it once the stream has ended.
    public let summary: @Sendable () -> String
    /// Lets go of the device (the Bluetooth bus connection; a Cyton's port is closed by its source when the stream
    /// ends).
    public let close: @Sendable () -> Void

    /// How a device is opened.
    public struct Options: Sendable {
        /// The D-Bus bus BlueZ is on.
        public var bus: BusConnection.Address
        /// The Cyton's channels to stream (EXG0…EXG7, EXG8…EXG15 with a Daisy); `nil`: every channel.
        public var channels: [String]?
        /// The Muse preset (`p20`: EEG and AUX; `p21`: the four EEG channels).
        public var musePreset: String
        /// The liblsl configuration for `lsl:` streams (``AxonLSL/LSLConfiguration/machineOnly`` keeps LSL on this machine).
        public var lslConfiguration: LSLConfiguration
        /// How long a Bluetooth device may take to appear (an LSL stream has ``AxonLSL/LSLInletSource``'s own timeout).
        public var searchSeconds: Double

        /// Options with the system bus, every channel, Muse preset `p20`, machine-only LSL and a 30-s search.
        public init(
            bus: BusConnection.Address = .system, channels: [String]? = nil, musePreset: String = "p20",
            lslConfiguration: LSLConfiguration = .machineOnly, searchSeconds: Double = 30
        ) {
            self.bus = bus
            self.channels = channels
            self.musePreset = musePreset
            self.lslConfiguration = lslConfiguration
            self.searchSeconds = searchSeconds
        }
    }

    /// Whether `specifier` is one of these kinds (a `ble:` Brainiac is not: its commands run it themselves, with
    /// ``DeviceSearch/brainiacTransport(selector:bus:seconds:profile:progress:)``).
    public static func handles(_ specifier: SourceSpecifier) -> Bool {
        switch specifier {
        case .cyton, .muse, .ganglion, .polar, .lsl, .sensor: true
        case .file, .simulator, .testSequence, .brainiac: false
        }
    }

    /// Connects: the Cyton's text exchange on its port, or discovery and connection through BlueZ for a Muse or a
    /// Ganglion (``DeviceSearch``), or an inlet on the LSL stream; a described sensor is read from its file and
    /// its transport made (a BLE sensor found and connected as a Muse is, a UDP or OSC port bound on 127.0.0.1).
    ///
    /// - Throws: ``DeviceOpeningError``: ``DeviceOpeningError/notALiveDevice(_:)`` for a SOURCE of another kind,
    ///   ``DeviceOpeningError/notFound(kind:selector:seconds:seen:)`` when the device does not appear, and the
    ///   device's own error as a value otherwise.
    public static func open(
        _ specifier: SourceSpecifier, options: Options = .init(), progress: (DeviceOpeningEvent) -> Void = { _ in }
    ) async throws(DeviceOpeningError) -> LiveEEGDevice {
        switch specifier {
        case .lsl(let query): return try openStream(query, options: options)
        case .sensor(let path): return try await openSensor(path, options: options, progress: progress)
        case .cyton(let path): return try openCyton(path: path, channels: options.channels, progress: progress)
        case .muse(let selector):
            let transport = try await DeviceSearch.transport(
                kind: "Muse", selector: selector, service: MuseGATTProfile.service, bus: options.bus,
                seconds: options.searchSeconds, progress: progress)
            let source: MuseSource
            do { source = try MuseSource(transport: transport, preset: options.musePreset) } catch {
                transport.central.close()
                throw .connectionFailed(device: "Muse \(selector)", cause: error)
            }
            return LiveEEGDevice(
                source: source, timeline: source.timelineConfiguration,
                title: "Muse \(selector) through BlueZ, preset \(options.musePreset)",
                summary: { museSummary(source.state()) }, close: { transport.central.close() })
        case .ganglion(let selector):
            let transport = try await DeviceSearch.transport(
                kind: "OpenBCI Ganglion", selector: selector, service: BluetoothUUID(stringLiteral: GanglionPacket.service),
                bus: options.bus, seconds: options.searchSeconds, progress: progress)
            let source = GanglionSource(transport: transport)
            return LiveEEGDevice(
                source: source, timeline: source.timelineConfiguration,
                title: "OpenBCI Ganglion \(selector) through BlueZ",
                summary: { ganglionSummary(source.state()) }, close: { transport.central.close() })
        case .polar(let selector):
            let transport = try await DeviceSearch.transport(
                kind: "Polar H10", selector: selector, service: PolarGATTProfile.heartRateService, bus: options.bus,
                seconds: options.searchSeconds, progress: progress)
            let source: PolarSource
            do { source = try PolarSource(transport: transport) } catch {
                transport.central.close()
                throw .connectionFailed(device: "Polar \(selector)", cause: error)
            }
            return LiveEEGDevice(
                source: source, timeline: source.timelineConfiguration,
                title: "Polar H10 \(selector) through BlueZ (ECG 130 Hz, accelerometer 200 Hz ±8 G, heart rate)",
                summary: { polarSummary(source.state()) }, close: { transport.central.close() })
        case .file, .simulator, .testSequence, .brainiac:
            throw .notALiveDevice(specifier)
        }
    }

    private static func openStream(_ query: String, options: Options) throws(DeviceOpeningError) -> LiveEEGDevice {
        let source: LSLInletSource
        do {
            let selector = try LSLStreamSelector(parsing: query)
            let library = try LSLLibrary.shared()
            try options.lslConfiguration.apply(to: library)
            source = try LSLInletSource(selector: selector, library: library)
        } catch {
            throw .lsl(error)
        }
        return LiveEEGDevice(
            source: source, timeline: .init(), title: "LSL stream \(source.descriptor.name)",
            summary: {
                "lsl: \(source.outages) outages, time correction "
                    + String(format: "%.1f", source.timeCorrection * 1e6) + " µs"
            }, close: {})
    }

    private static func openSensor(
        _ path: String, options: Options, progress: (DeviceOpeningEvent) -> Void
    ) async throws(DeviceOpeningError) -> LiveEEGDevice {
        let sensor: SensorDescription
        do { sensor = try SensorDescription(contentsOf: path) } catch { throw .sensorDescription(path: path, error) }
        let transport: BusRecoveringTransport?
        if case .ble(let link) = sensor.transport {
            transport = try await DeviceSearch.transport(
                kind: sensor.name, selector: link.device, service: link.advertised, bus: options.bus,
                seconds: options.searchSeconds, progress: progress)
        } else {
            transport = nil
        }
        let source: DescribedSensorSource
        do { source = try DescribedSensorSource(sensor, transport: transport) } catch {
            transport?.central.close()
            throw .sensor(name: sensor.name, error)
        }
        let endpoint = source.port.map { port in
            if case .osc(_, let address) = sensor.transport { return "OSC \(address) on UDP 127.0.0.1:\(port)" }
            return "UDP 127.0.0.1:\(port)"
        } ?? sensor.transport.endpoint
        return LiveEEGDevice(
            source: source, timeline: source.timelineConfiguration, title: "\(sensor.name) (\(endpoint), \(path))",
            summary: { sensorSummary(source.statistics) }, close: { transport?.central.close() })
    }

    private static func openCyton(
        path: String, channels: [String]?, progress: (DeviceOpeningEvent) -> Void
    ) throws(DeviceOpeningError) -> LiveEEGDevice {
        let board = CytonBoard(path: path)
        let source: CytonSource
        do {
            let banner = try board.connect()
            progress(.cytonAnswered(
                path: path, banner: banner.lines, channels: board.channelCount, rate: board.sampleRate,
                daisy: board.hasDaisy))
            source = try CytonSource(board: board, channels: channels)
        } catch {
            board.close()
            throw .cyton(path: path, error)
        }
        return LiveEEGDevice(
            source: source, timeline: source.timelineConfiguration, title: "OpenBCI Cyton on \(path)",
            // The source owns the board from here and closes its port when the stream ends.
            summary: { cytonSummary(source.state()) }, close: {})
    }
}

extension LiveEEGDevice {
    /// One line of a Cyton decoder's counts.
    static func cytonSummary(_ state: CytonSourceState) -> String {
        let s = state.statistics
        var line =
            "  Cyton: \(s.packets) packets, \(s.frames) frames, \(s.missingPackets) packets missing by sample "
            + "number; faults: \(s.garbageRuns) garbage runs, \(s.truncatedPackets) truncated, \(s.wrongFooters) wrong "
            + "footers (\(s.discardedBytes) bytes discarded)"
        if let a = state.lastAcceleration {
            line += "; accelerometer \(a.map { String(format: "%.3f", $0) }.joined(separator: ", ")) g"
        }
        if let error = state.error { line += "; ended: \(error)" }
        return line
    }

    /// One line of a described sensor's counts.
    static func sensorSummary(_ s: DescribedSensorStatistics) -> String {
        var line = "  sensor: \(s.packets) packets, \(s.samples) samples, \(s.rejected) rejected"
        if s.rejectedDatagrams > 0 { line += ", \(s.rejectedDatagrams) datagrams not OSC" }
        if s.otherMessages > 0 { line += ", \(s.otherMessages) messages to other addresses" }
        if s.skippedBytes > 0 { line += ", \(s.skippedBytes) bytes skipped before sync" }
        if s.skippedLines > 0 { line += ", \(s.skippedLines) header lines skipped" }
        if s.linkLosses > 0 { line += "; \(s.linkLosses) link losses" }
        if let reason = s.lastRejection { line += "; last rejected: \(reason)" }
        return line
    }

    /// One line of a Polar source's counts.
    static func polarSummary(_ state: PolarSourceState) -> String {
        let s = state.statistics
        return
            "  Polar: \(s.ecgFrames) ECG frames, \(s.ecgSamples) samples, \(s.missingECGSamples) missing by the strap's "
            + "clock, \(s.rejected) frames rejected; accelerometer \(s.accelerometerSamples) samples; "
            + "\(state.heartRateNotifications) heart-rate notifications, \(state.rrIntervals) RR intervals"
            + (state.heartRate.map { ", last \($0) bpm" } ?? "")
            + "; \(state.linkLosses) link losses, started \(state.startsSent)×"
    }

    /// One line of a Muse source's counts.
    static func museSummary(_ state: MuseSourceState) -> String {
        let s = state.statistics
        return
            "  Muse: \(s.notifications) notifications, \(s.packets) packets, \(s.frames) frames, \(s.missingPackets) "
            + "packet indices missing, \(s.incompletePackets) incomplete, \(s.rejected) rejected; "
            + "\(state.keepAlivesSent) keep-alives; \(state.linkLosses) link losses, start sent \(state.startsSent)×"
            + (state.telemetry.map { "; battery " + String(format: "%.0f", $0.batteryPercent) + " %" } ?? "")
            + "; accelerometer \(state.accelerometerPackets), gyroscope \(state.gyroscopePackets), "
            + "PPG \(state.ppgNotifications) notifications"
    }

    /// One line of a Ganglion source's counts.
    static func ganglionSummary(_ state: GanglionSourceState) -> String {
        "  Ganglion: \(state.packets) packets, \(state.frames) frames, \(state.lostPackets) lost, \(state.rejected) "
            + "rejected, \(state.packetsWithoutReference) before a reference; accelerometer counts "
            + "\(state.accelerometer.map(String.init).joined(separator: ", "))"
            + (state.impedanceReadings == 0
                ? ""
                : "; impedance (as the board sends it) "
                    + zip(["1", "2", "3", "4", "ref"], state.impedance).map { "\($0) \($1.map(String.init) ?? "–")" }
                    .joined(separator: ", "))
    }
}
