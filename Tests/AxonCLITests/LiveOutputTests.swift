import Foundation
import StreamTestSupport
import Testing

/// What a user sees while a command runs: rows that reach a pipe as they are printed, a signal that loses none of
/// them, and a device that is not there said at once and ended with exit status 1.
@Suite("axon's output while it runs")
struct LiveOutputTests {
    /// A running `axon` (or a script that runs it) whose output lines are collected as they arrive, each with the
    /// seconds since the start.
    final class Run: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var lines: [(seconds: Double, text: String)] = []
        private var partial = Data()
        private let started = Date()

        init(_ executable: String, _ arguments: [String], directory: URL? = nil, input: Pipe? = nil) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            if let input { process.standardInput = input }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.append(data)
            }
            try process.run()
        }

        private func append(_ data: Data) {
            lock.lock()
            defer { lock.unlock() }
            partial.append(data)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
                lines.append((Date().timeIntervalSince(started), line))
                partial.removeSubrange(partial.startIndex...newline)
            }
        }

        var received: [(seconds: Double, text: String)] {
            lock.lock()
            defer { lock.unlock() }
            return lines
        }

        /// Waits until `condition` holds on the lines so far, or `seconds` pass.
        @discardableResult
        func wait(seconds: Double, until condition: ([(seconds: Double, text: String)]) -> Bool) -> Bool {
            waitUntil(seconds: seconds, interval: 0.02, onTimeout: .returnFalse) { condition(self.received) }
        }

        /// Waits for the process to end (at most `seconds`, then kills it) and returns its status.
        func finish(seconds: Double) -> Int32 {
            if !waitUntil(seconds: seconds, interval: 0.05, onTimeout: .returnFalse, { !self.process.isRunning }) {
                process.interrupt()
                process.waitUntilExit()
            }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static let root = ReadmeTests.root

    static func isRow(_ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespaces).first?.isNumber == true
    }

    @Test("axon demo | head -5: rows reach the pipe while the demo runs, not when it ends")
    func rowsReachAPipeAtOnce() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let run = try Run(axon, ["demo"], directory: Self.root)
        defer { run.process.terminate() }
        let fiveRows = run.wait(seconds: 30) { $0.filter { Self.isRow($0.text) }.count >= 5 }
        let rows = run.received.filter { Self.isRow($0.text) }
        #expect(fiveRows, "\(run.received.map(\.text))")
        // The demo replays 86 s at twice real time: still running means the rows were not held back until the end.
        #expect(run.process.isRunning, "the demo ended before its rows arrived")
        print("five rows after \(String(format: "%.2f", rows.prefix(5).last?.seconds ?? -1)) s")
    }

    @Test("SIGINT and SIGTERM end the demo with every row printed so far, and the signal's status")
    func signalLosesNothing() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        for signal in [SIGINT, SIGTERM] {
            let run = try Run(axon, ["demo"], directory: Self.root)
            #expect(run.wait(seconds: 30) { $0.filter { Self.isRow($0.text) }.count >= 3 })
            kill(run.process.processIdentifier, signal)
            run.process.waitUntilExit()
            #expect(run.process.terminationReason == .uncaughtSignal)
            #expect(run.process.terminationStatus == signal)
            #expect(run.received.filter { Self.isRow($0.text) }.count >= 3)
        }
    }

    @Test("a Muse that is not there: 'searching' at once, exit 1 after --seconds with the devices seen (mock bluetoothd)")
    func missingDevice() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let script = Self.root.appendingPathComponent("scripts/bluez-mock/run.sh").path
        let run = try Run(script, [axon, "demo", "muse:Nobody", "--seconds", "10"], directory: Self.root)
        let searching = run.wait(seconds: 10) { $0.contains { $0.text.hasPrefix("searching for a Muse") } }
        #expect(searching, "\(run.received.map(\.text))")
        #expect(run.process.isRunning, "it said 'searching' only when it had given up")
        let status = run.finish(seconds: 40)
        let output = run.received.map(\.text).joined(separator: "\n")
        #expect(status == 1, "\(output)")
        #expect(output.contains("no Muse named or at \"Nobody\" found in 10 s"), "\(output)")
        // The mock's demo preset: what a user without hardware finds, each with its kind.
        #expect(output.contains("Muse-0040 (C0:FF:EE:00:00:40, Muse)"), "\(output)")
        #expect(output.contains("Ganglion-0030 (C0:FF:EE:00:00:30, OpenBCI Ganglion)"), "\(output)")
        #expect(!output.contains("Usage:"), "\(output)")
        let searchedAt = run.received.first { $0.text.hasPrefix("searching") }?.seconds ?? -1
        let endedAt = run.received.last?.seconds ?? -1
        print("searching after \(String(format: "%.2f", searchedAt)) s, exit 1 after \(String(format: "%.2f", endedAt)) s")
    }

    @Test("the mock's demo preset has a Muse and a Ganglion that stream through axon demo")
    func presetDevicesStream() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let script = Self.root.appendingPathComponent("scripts/bluez-mock/run.sh").path
        for (source, summary) in [("muse:Muse-0040", "Muse: "), ("ganglion:Ganglion-0030", "Ganglion: ")] {
            let run = try Run(script, [axon, "demo", source, "--seconds", "3"], directory: Self.root)
            let status = run.finish(seconds: 60)
            let output = run.received.map(\.text).joined(separator: "\n")
            #expect(status == 0, "\(output)")
            #expect(run.received.filter { Self.isRow($0.text) }.count >= 1, "\(output)")
            #expect(output.contains(summary), "\(output)")
        }
    }

    @Test("a taken port is named, with --port suggested and no server internals")
    func takenPort() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let first = try Run(axon, ["view", "test-sequence:10", "--no-token", "--port", "0", "--seconds", "30"])
        defer { first.process.terminate() }
        #expect(first.wait(seconds: 30) { $0.contains { $0.text.contains("open http://127.0.0.1:") } })
        let line = try #require(first.received.first { $0.text.contains("open http://127.0.0.1:") }?.text)
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let (status, output) = try AxonExecutable.run(axon, ["view", "test-sequence:10", "--port", "\(port)"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("port \(port) on 127.0.0.1 is taken"), "\(output)")
        #expect(output.contains("--port"), "\(output)")
        #expect(!output.contains("bind(") && !output.contains("NIO") && !output.contains("Usage:"), "\(output)")
    }
}
