import AxonEventStore
import AxonRecording
import AxonScales
import Foundation
import StreamTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `axon scale measure PATH --out DB` against an HS3 on a pseudo-terminal: the scale side writes the published
/// packets (garbage, a split packet, the weight repeated as the HS3 does) until the command exits; the weight is
/// stored once, and a second run of the command on the same store does not store the repeated weight again.
struct HS3SerialCommandTests {
    @Test func measureOverAPtyStoresEachWeightOnceAcrossRestarts() async throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("axon-hs3cli-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let pty = try PseudoTerminalPair()
        defer { pty.close() }

        let w815 = HS3SerialPacket.weightPacket(tenthsOfKg: 815)
        let first = try await run(
            axon, ["scale", "measure", pty.path, "--out", store, "--seconds", "20"], pty: pty,
            stream: [[0x13, 0x37, 0xA0] + Array(w815[..<5]), Array(w815[5...])], repeating: w815)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("stable    81.5 kg"))
        #expect(first.output.contains("stored    81.5 kg (inserted)"))

        // Restart: the scale still repeats 81.5 kg, then someone else steps on it.
        let w723 = HS3SerialPacket.weightPacket(tenthsOfKg: 723)
        let second = try await run(
            axon, ["scale", "measure", pty.path, "--out", store, "--seconds", "20"], pty: pty,
            stream: [w815, w815], repeating: w723)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("stable    72.3 kg"))
        #expect(!second.output.contains("stored    81.5"))

        let records = try ScaleRecordStore(store: try EventStore(path: store), device: pty.path, model: .hs3)
        #expect(try records.records().map(\.weightKg) == [81.5, 72.3])
    }

    /// Runs axon; once it has started, writes `stream` and then `repeating` every 0.1 s until it exits. The command
    /// flushes the line when it opens it; bytes written before would be lost, as with a real scale that sends only
    /// while someone stands on it, so the chunks go on until the command is done.
    private func run(
        _ axon: String, _ arguments: [String], pty: PseudoTerminalPair, stream: [[UInt8]], repeating: [UInt8]
    ) async throws -> (status: Int32, output: String) {
        try await AxonExecutable.runOffPool(axon, arguments) { exited in
            var chunks = stream
            while !exited(0.1) { pty.write(chunks.isEmpty ? repeating : chunks.removeFirst()) }
        }
    }
}

/// A pseudo-terminal whose client side is in raw mode, as an HS3's /dev/rfcomm0 would be once opened.
private struct PseudoTerminalPair: Sendable {
    let master: Int32
    let path: String

    private typealias OpenPTY = @convention(c) (
        UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<CChar>?, UnsafeRawPointer?,
        UnsafeRawPointer?
    ) -> Int32

    init() throws {
        // openpty(3) lives in libc since glibc 2.34 but is not declared by Swift's Glibc module.
        guard let symbol = dlsym(nil, "openpty") else { throw POSIXError(.ENOSYS) }
        let openpty = unsafeBitCast(symbol, to: OpenPTY.self)
        var master: Int32 = -1
        var client: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        guard openpty(&master, &client, &name, nil, nil) == 0 else { throw POSIXError(.EIO) }
        var options = termios()
        _ = tcgetattr(client, &options)
        cfmakeraw(&options)
        _ = tcsetattr(client, TCSANOW, &options)
        _ = Glibc.close(client)
        self.master = master
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress!, $0.count) }
    }

    func close() { _ = Glibc.close(master) }
}
