import AxonDevices
import AxonLSL
import AxonMuse
import AxonOpenBCI
import AxonStreams
import Foundation

/// An EEG device or stream SOURCE (`cyton:PATH`, `muse:NAME|ADDRESS`, `ganglion:NAME|ADDRESS`, or an LSL stream,
/// `lsl:NAME|lsl:type=T|lsl:source_id=ID`), opened as a sample source with what a command needs around it: the
/// timeline that turns its counters into gap records, a title, a one-line summary of the device's counts, and how to
/// let go of it. Used by `record`, `view`, `analyze` and `demo`.
///
/// Threading: `open` runs on any task; the closures may be called from any thread.
struct LiveEEGDevice: Sendable {
    let source: any SampleSource
    let timeline: StreamTimeline.Configuration
    let title: String
    let summary: @Sendable () -> String
    let close: @Sendable () -> Void

    /// Whether `specifier` is one of these kinds (a `ble:` Brainiac is not one: its commands run it themselves).
    static func handles(_ specifier: SourceSpecifier) -> Bool {
        switch specifier {
        case .cyton, .muse, .ganglion, .lsl: true
        case .file, .simulator, .testSequence, .brainiac: false
        }
    }

    /// Connects: the Cyton's text exchange on its port (`channels` picks from EXG0…EXG7/EXG15), or discovery and
    /// connection through BlueZ on `bus` for a Muse (with `musePreset`) or a Ganglion, or an inlet on the LSL stream
    /// (liblsl configured by `lslConfig`, machine-only by default).
    static func open(
        _ specifier: SourceSpecifier, bus: String?, channels: [String]? = nil, musePreset: String = "p20",
        lslConfig: String? = nil, searchSeconds: Double = 30
    ) async throws -> LiveEEGDevice {
        switch specifier {
        case .lsl:
            let selector = try LSLCommandSupport.selector(specifier)!
            let source = try LSLRunOutput(configuration: lslConfig).source(selector, duration: nil)
            return LiveEEGDevice(
                source: source, timeline: .init(), title: "LSL stream \(source.descriptor.name)",
                summary: {
                    "lsl: \(source.outages) outages, time correction \(fmt(source.timeCorrection * 1e6, 1)) µs"
                }, close: {})
        case .cyton(let path):
            let board = try CytonOptions.connect(path: path)
            let source: CytonSource
            do { source = try CytonSource(board: board, channels: channels) } catch {
                board.close()
                throw error
            }
            return LiveEEGDevice(
                source: source, timeline: source.timelineConfiguration, title: "OpenBCI Cyton on \(path)",
                // The source owns the board from here and closes its port when the stream ends.
                summary: { CytonOptions.summary(source.state()) }, close: {})
        case .muse(let selector):
            let transport = try await BluetoothOptions.transport(
                selector: selector, bus: bus, service: MuseGATTProfile.service, kind: "Muse",
                searchSeconds: searchSeconds)
            let source = try MuseSource(transport: transport, preset: musePreset)
            return LiveEEGDevice(
                source: source, timeline: source.timelineConfiguration,
                title: "Muse \(selector) through BlueZ, preset \(musePreset)",
                summary: { MuseOptions.summary(source.state()) }, close: { transport.central.close() })
        case .ganglion(let selector):
            let transport = try await BluetoothOptions.transport(
                selector: selector, bus: bus, service: BluetoothUUID(stringLiteral: GanglionPacket.service),
                kind: "OpenBCI Ganglion", searchSeconds: searchSeconds)
            let source = GanglionSource(transport: transport)
            return LiveEEGDevice(
                source: source, timeline: source.timelineConfiguration,
                title: "OpenBCI Ganglion \(selector) through BlueZ",
                summary: { GanglionOptions.summary(source.state()) }, close: { transport.central.close() })
        case .file, .simulator, .testSequence, .brainiac:
            throw DeviceKindError(device: specifier.description)
        }
    }
}

/// A SOURCE of no kind `LiveEEGDevice` opens.
struct DeviceKindError: Error, CustomStringConvertible {
    let device: String
    var description: String {
        "\(device) is no device Axon opens here; expected cyton:PATH, muse:NAME|ADDRESS, ganglion:NAME|ADDRESS or "
            + "lsl:NAME|lsl:type=T|lsl:source_id=ID (every SOURCE: \(SourceSpecifier.forms))"
    }
}
