import AxonBluetooth
import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A private `dbus-daemon` and the mock bluetoothd (`scripts/bluez-mock`) for one test: the real libdbus client
/// against BlueZ 5.66's D-Bus API, without a radio. Both processes die with the test process even if it is
/// killed (scripts/bluez-mock/leash.py); ``stop()`` ends them normally.
public final class BlueZTestBed: @unchecked Sendable {
    // Sendable invariant: used by one test at a time; `mock` changes only in kill/restart calls of that test.
    public static let root: URL = {
        var root = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        return root
    }()
    public static let python = "/usr/bin/python3"
    public static let scripts = root.appendingPathComponent("scripts/bluez-mock")

    /// Whether the machine has what the test bed needs (`make test-deps` installs it).
    public static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"),
            FileManager.default.isExecutableFile(atPath: python)
        else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import dbus, gi"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    public static let brainiacAddress = "C0:FF:EE:00:00:01"
    public static let brainiacName = "Brainiac-0001"

    public let directory: URL
    /// The bus's address (its `guid` changes when ``restartBus()`` starts a new daemon).
    public private(set) var address: String
    private var bus: Process
    private var mock: Process?
    private let devices: [String]
    private var control: BusConnection?

    /// Starts the bus and the mock with `devices` (`KIND,ADDRESS,NAME[,key=value…]`, the mock's `--device`).
    public init(devices: [String] = ["brainiac,\(BlueZTestBed.brainiacAddress),\(BlueZTestBed.brainiacName)"]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("axon-bluez-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.devices = devices
        let (bus, output) = try Self.launch(["bus.py", "--dir", directory.path])
        self.bus = bus
        address = try Self.readLine(output)
        try startMock()
    }

    deinit { stop() }

    /// Starts (or restarts) the mock bluetoothd and waits until it owns `org.bluez`.
    public func startMock() throws {
        var arguments = ["mock_bluetoothd.py", "--bus", address]
        for device in devices { arguments += ["--device", device] }
        let (process, output) = try Self.launch(arguments)
        let line = try Self.readLine(output)
        guard line == "READY" else { throw TestBedError.notReady(line) }
        mock = process
    }

    /// SIGKILLs the mock bluetoothd (bluetoothd crashing): its objects vanish without InterfacesRemoved.
    public func killMock() {
        guard let mock else { return }
        kill(mock.processIdentifier, SIGKILL)
        Self.waitForExit(mock, seconds: 5)
        self.mock = nil
        control?.shutDown()
        control = nil
    }

    /// SIGKILLs the private dbus-daemon (the bus crashing): every connection to it ends at once.
    public func killBus() {
        kill(bus.processIdentifier, SIGKILL)
        Self.waitForExit(bus, seconds: 5)
        control?.shutDown()
        control = nil
    }

    /// Starts the private dbus-daemon again at the same address (after ``killBus()``), then a new mock bluetoothd on
    /// it (the old one went with its bus).
    public func restartBus() throws {
        if let mock { Self.end(mock) }
        mock = nil
        try? FileManager.default.removeItem(at: directory.appendingPathComponent("bus"))
        let (bus, output) = try Self.launch(["bus.py", "--dir", directory.path])
        self.bus = bus
        let again = try Self.readLine(output)
        guard BusConnection.Address.address(again).anyServer == BusConnection.Address.address(address).anyServer else {
            throw TestBedError.notReady("the bus came back at \(again), not \(address)")
        }
        address = again
        try startMock()
    }

    /// Calls a method of the mock's control interface (`org.axon.MockBluez1` on `/org/axon/mock`).
    @discardableResult
    public func control(_ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        if control == nil || control?.isFinished == true {
            if let ending = control?.ending { print("test bed: control connection had ended (\(ending)); reconnecting") }
            control = try BusConnection(address: .address(address))
        }
        return try await control!.call(
            DBusMethodCall(destination: "org.bluez", path: "/org/axon/mock", interface: "org.axon.MockBluez1",
                           member: member, arguments: arguments), timeout: 10)
    }

    /// The mock's counters for a device (`GetStats`): sent, counter, connected, sessions, connectCalls…
    public func stats(_ address: String = BlueZTestBed.brainiacAddress) async throws -> [String: DBusValue] {
        try await control("GetStats", [.string(address)]).first?.stringKeyedDictionary ?? [:]
    }

    public func stop() {
        control?.shutDown()
        control = nil
        for process in [mock, bus].compactMap({ $0 }) { Self.end(process) }
        mock = nil
        try? FileManager.default.removeItem(at: directory)
    }

    /// SIGTERM, then SIGKILL if it has not gone within 2 s.
    private static func end(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if !waitForExit(process, seconds: 2) {
            kill(process.processIdentifier, SIGKILL)
            waitForExit(process, seconds: 2)
        }
    }

    /// Polls instead of `waitUntilExit`, which spins a run loop and never returns if the exit was missed.
    @discardableResult
    private static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        waitUntil(seconds: seconds, onTimeout: .returnFalse) { !process.isRunning }
    }

    public enum TestBedError: Error { case notReady(String), noOutput }

    private static func launch(_ arguments: [String]) throws -> (Process, FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scripts.appendingPathComponent(arguments[0]).path] + arguments.dropFirst()
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return (process, pipe.fileHandleForReading)
    }

    /// Reads one line (blocking; the scripts print it within a second or exit, which ends the read).
    private static func readLine(_ handle: FileHandle) throws -> String {
        var bytes: [UInt8] = []
        while true {
            guard let chunk = try handle.read(upToCount: 1), let byte = chunk.first else { throw TestBedError.noOutput }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
