import AxonLSL
import Foundation
import StreamTestSupport
import Testing

/// The pylsl peer (`scripts/lsl-peer.py` on `.venv-peers`, made by `scripts/python-peers.sh`) and the project's
/// loopback-only liblsl configuration, which this test process and every peer use (`LSLAPICFG`).
enum LSLPeer {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()
    static let python = root.appendingPathComponent(".venv-peers/bin/python").path
    static let script = root.appendingPathComponent("scripts/lsl-peer.py").path
    static let configuration = root.appendingPathComponent("scripts/lsl/lsl_api.cfg").path
    static let recording = root.appendingPathComponent(
        "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"
    ).path

    /// Whether pylsl and the project's liblsl link are installed (`make test` installs them).
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: python)
            && FileManager.default.fileExists(atPath: root.appendingPathComponent(".liblsl/liblsl.so").path)
    }

    /// liblsl for this process, configured for loopback before its first network use.
    static func library() throws -> LSLLibrary {
        try LSLLibrary.useConfiguration(path: configuration)
        return try LSLLibrary.shared()
    }

    /// A running peer: its process and its stdout lines (JSON objects).
    final class Process: @unchecked Sendable {
        // Sendable invariant: `lines` is guarded by `lock`; the process object is used by the test thread only.
        let process = Foundation.Process()
        private let lock = NSLock()
        private var lines: [String] = []
        private var partial = ""

        /// Starts the peer with `arguments`; `launcher` runs it through another program first (for example
        /// `ip netns exec NAME` to start it in a network namespace).
        init(_ arguments: [String], configuration: String = LSLPeer.configuration, launcher: [String] = []) throws {
            let command = launcher + [LSLPeer.python, LSLPeer.script] + arguments
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            var environment = ProcessInfo.processInfo.environment
            environment["LSLAPICFG"] = configuration
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                lock.lock()
                partial += String(decoding: data, as: UTF8.self)
                while let newline = partial.firstIndex(of: "\n") {
                    lines.append(String(partial[..<newline]))
                    partial = String(partial[partial.index(after: newline)...])
                }
                lock.unlock()
            }
            try process.run()
        }

        /// The first line containing `text`, waiting up to `timeout` seconds.
        func waitForLine(containing text: String, timeout: Double) -> String? {
            var found: String?
            _ = waitUntil(seconds: timeout, interval: 0.02, onTimeout: .returnFalse) {
                lock.lock()
                found = lines.first { $0.contains(text) }
                lock.unlock()
                return found != nil
            }
            return found
        }

        /// Waits for the process to end (up to `timeout` seconds, then terminates it); returns its status.
        @discardableResult
        func finish(timeout: Double) -> Int32 {
            _ = waitUntil(seconds: timeout, interval: 0.02, onTimeout: .returnFalse) { !process.isRunning }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// The OpenBCI recording's 8 EXG channels as the peer sends them (float32), frame by frame.
    static func recordingFrames() throws -> [[Float]] {
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        var frames: [[Float]] = []
        var headerSeen = false
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("%") {
            if !headerSeen {
                headerSeen = true
                continue
            }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            frames.append(fields[1...8].map { Float(Double($0.trimmingCharacters(in: .whitespaces))!) })
        }
        return frames
    }
}
