import Dispatch
import Foundation

/// The built `axon` executable, for tests that run the command line as a user would.
public enum AxonExecutable {
    /// The `axon` next to the test bundle (`swift build --build-tests` and `swift test` build it), else the
    /// project's `.build/debug/axon`; nil when neither exists.
    public static var path: String? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("axon").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let fallback = root.appendingPathComponent(".build/debug/axon").path
        return FileManager.default.isExecutableFile(atPath: fallback) ? fallback : nil
    }
}

extension AxonExecutable {
    /// Runs `executable` with `arguments` (in `directory`, else this process's working directory; with `environment`
    /// in place of this process's, when given), standard output and error together; `whileRunning` is called once after the start with a wait — `exited(seconds)` waits up to
    /// `seconds` and says whether the process has ended — so a test can feed the command (a pty, a socket) until it
    /// exits. Returns the exit status and the output.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        whileRunning: (_ exited: (Double) -> Bool) -> Void = { _ in }
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        var finished = false
        whileRunning { seconds in
            if !finished { finished = ended.wait(timeout: .now() + seconds) == .success }
            return finished
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if !finished { ended.wait() }
        return (process.terminationStatus, text)
    }
}

extension AxonExecutable {
    /// ``run(_:_:whileRunning:)`` on a thread of its own, for async tests: the wait for the process does not hold
    /// one of the cooperative pool's few threads (other tests in parallel need them).
    public static func runOffPool(
        _ executable: String, _ arguments: [String],
        whileRunning: @escaping @Sendable (_ exited: (Double) -> Bool) -> Void = { _ in }
    ) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(executable, arguments, whileRunning: whileRunning) })
            }
        }
    }
}
