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
