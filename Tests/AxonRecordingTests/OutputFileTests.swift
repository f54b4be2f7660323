// An existing file is refused without --force, replaced whole with it, and never left half-written.

import AxonRecording
import Foundation
import Testing

@Suite("Output files: no silent overwrite")
struct OutputFileTests {
    static func scratch(_ name: String) -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("axon-output-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    @Test("an existing file is refused, byte for byte untouched; with replace it is replaced through a rename")
    func refuseThenReplace() throws {
        let path = Self.scratch("earlier.csv")
        let earlier = Data("an earlier recording\n".utf8)
        try earlier.write(to: URL(fileURLWithPath: path))
        #expect(throws: OutputFileError.exists(path: path)) {
            try OutputFile.write(to: path, replace: false) { try Data("new".utf8).write(to: URL(fileURLWithPath: $0)) }
        }
        #expect(throws: OutputFileError.exists(path: path)) { try OutputFile.claim(path, replace: false) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == earlier)
        #expect("\(OutputFileError.exists(path: path))" == "\(path) exists; pass --force to replace it")

        try OutputFile.write(to: path, replace: true) { temporary in
            #expect(temporary != path && URL(fileURLWithPath: temporary).pathExtension == "csv")
            try Data("new".utf8).write(to: URL(fileURLWithPath: temporary))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
        try OutputFile.claim(path, replace: true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a conversion that fails half-way leaves the old file whole and no temporary file behind")
    func failedWriteKeepsOldFile() throws {
        struct Interrupted: Error {}
        let path = Self.scratch("kept.edf")
        let earlier = Data(repeating: 7, count: 1000)
        try earlier.write(to: URL(fileURLWithPath: path))
        var temporaryPath = ""
        #expect(throws: Interrupted.self) {
            try OutputFile.write(to: path, replace: true) { temporary in
                temporaryPath = temporary
                try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: temporary))
                throw Interrupted()
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == earlier)
        #expect(!FileManager.default.fileExists(atPath: temporaryPath))
    }
}
