import Foundation

/// gpsd replaying an NMEA log (`Fixtures/drive.nmea` unless told) through gpsfake (Debian's gpsd-clients) on a free loopback port, run through
/// `scripts/gps-replay.py`, which stops it when the test ends or this process dies (its standard input closes).
final class GPSReplayPeer {
    static let script = EmulatorPeer.root.appendingPathComponent("scripts/gps-replay.py").path
    static let log = fixture("drive.nmea")

    /// The path of a log in `Fixtures/`.
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    /// Whether gpsfake and gpsd are installed (`make test-deps` installs them).
    static var available: Bool {
        ["/usr/bin/gpsfake", "/usr/sbin/gpsd"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let port: UInt16
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    /// Starts the replay and waits until gpsd accepts connections.
    init(log: String = GPSReplayPeer.log) throws {
        port = try EmulatorPeer.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, String(port), log]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var pending = Data()
        while !String(decoding: pending, as: UTF8.self).contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw EmulatorPeer.PeerError.failed("gps-replay exited") }
            pending.append(chunk)
        }
        let line = String(decoding: pending, as: UTF8.self)
        guard line.hasPrefix("READY") else { throw EmulatorPeer.PeerError.failed(line) }
    }

    deinit { stop() }

    /// Stops gpsfake and its gpsd. Idempotent.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
