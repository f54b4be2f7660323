import Foundation
import StreamTestSupport
import Testing

/// The built libAxonC.so and the repository's files, and compiling C against them as a user would.
enum BuiltLibrary {
    /// The repository root (this file is Tests/AxonCTests/BuiltLibrary.swift).
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// A file of the repository, by its path from the root.
    static func file(_ path: String) -> String { root.appendingPathComponent(path).path }

    /// The folder holding libAxonC.so: the test bundle's own (`swift build --build-tests` builds the library product
    /// beside it), or one above it; nil when the library is not built.
    static var folder: URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("libAxonC.so").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Compiles `source` (a path from the root) with `gcc -std=c99 -Wall -Werror -I include` against libAxonC.so, with
    /// the library's folder as the program's run path; returns the program's path.
    static func compile(_ source: String) throws -> String {
        let library = try #require(folder, "build libAxonC.so first (swift build --build-tests)")
        let gcc = try #require(
            ["/usr/bin/gcc", "/usr/local/bin/gcc"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "gcc is needed to compile the C example")
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("axon-c-\(UUID().uuidString)").path
        let (status, messages) = try AxonExecutable.run(
            gcc,
            [
                "-std=c99", "-Wall", "-Werror", "-I", file("include"), file(source), "-o", output,
                "-L", library.path, "-lAxonC", "-Wl,-rpath,\(library.path)",
            ])
        try #require(status == 0, "gcc \(source) failed:\n\(messages)")
        return output
    }

    /// Runs `program` with `arguments`; returns its exit status and standard output, standard error apart (it goes to
    /// a file whose text is returned too).
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String, errors: String)
    {
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("axon-c-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, text, errors)
    }
}
