import AxonBluetooth
import AxonConnect
import AxonDevices
import AxonLSL
import Foundation

extension LiveEEGDevice {
    /// Opens a device as a command does: the bus from `--bus`, liblsl configured by `--lsl-config` (machine-only by
    /// default), and what the opening does printed as it happens (``DeviceOpeningProgress``).
    static func open(
        _ specifier: SourceSpecifier, bus: String?, channels: [String]? = nil, musePreset: String = "p20",
        lslConfig: String? = nil, searchSeconds: Double = 30
    ) async throws -> LiveEEGDevice {
        let options = Options(
            bus: BluetoothOptions.busAddress(bus), channels: channels, musePreset: musePreset,
            lslConfiguration: .forCommand(path: lslConfig), searchSeconds: searchSeconds)
        return try await open(specifier, options: options, progress: DeviceOpeningProgress.print)
    }
}

extension BluetoothOptions {
    /// ``DeviceSearch/transport(kind:selector:service:bus:seconds:progress:)`` with `--bus` and the search printed.
    static func transport(
        selector: String, bus: String?, service: BluetoothUUID, kind: String, searchSeconds: Double
    ) async throws -> BusRecoveringTransport {
        try await DeviceSearch.transport(
            kind: kind, selector: selector, service: service, bus: busAddress(bus), seconds: searchSeconds,
            progress: DeviceOpeningProgress.print)
    }

    /// ``DeviceSearch/brainiacTransport(selector:bus:seconds:profile:progress:)`` with `--bus` and the search
    /// printed: an empty `selector` (`ble:`) is the one headset in range.
    static func brainiacTransport(selector: String, bus: String?, searchSeconds: Double) async throws
        -> BusRecoveringTransport
    {
        try await DeviceSearch.brainiacTransport(
            selector: selector, bus: busAddress(bus), seconds: searchSeconds, progress: DeviceOpeningProgress.print)
    }
}

/// What opening a device does, as lines on standard output (device names escaped for the terminal), flushed at once
/// so that a search shows before it waits.
enum DeviceOpeningProgress {
    static func print(_ event: DeviceOpeningEvent) {
        switch event {
        case .searching(let kind, let selector, let seconds):
            Swift.print("searching for a \(kind) named or at \"\(TerminalText.safe(selector))\" through BlueZ "
                + "(up to \(fmt(seconds, 0)) s)…")
        case .searchingForTheOnly(let kind, let seconds):
            Swift.print("searching for the \(kind) in range through BlueZ (up to \(fmt(seconds, 0)) s)…")
        case .found(let device):
            Swift.print("found \(TerminalText.safe(device.displayName)) (\(device.address))")
        case .cytonAnswered(let path, let banner, let channels, let rate, let daisy):
            Swift.print("  Cyton on \(path): \(TerminalText.safe(banner.joined(separator: " | ")))")
            Swift.print(
                "  \(channels) channels at \(Int(rate)) Hz"
                    + (daisy ? " (Daisy: odd packets board, even packets Daisy)" : ""))
        }
        fflush(nil)
    }
}
