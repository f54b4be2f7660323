import FuzzTargets

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer's driver (in the `-sanitize=fuzzer` runtime): parses libFuzzer's flags from argv and runs the loop.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The target this process fuzzes, from `AXON_FUZZ_TARGET` (one of ``FuzzTarget``'s raw values).
nonisolated(unsafe) private var selectedTarget: FuzzTarget = .brainiac

/// One input to the selected target. Runs on libFuzzer's one thread.
private func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget.run(bytes)
    return 0
}

/// `AXON_FUZZ_TARGET=edf axon-fuzz [libFuzzer flags] [corpus folders]`: every libFuzzer flag works as usual.
///
/// SwiftPM links executables with their own entry point, so this `main` hands control to libFuzzer's driver
/// (`LLVMFuzzerRunDriver`) instead of relying on the runtime's `main`.
@main
enum AxonFuzz {
    static func main() {
        guard let name = getenv("AXON_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name)
        else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
            let message = Array("axon-fuzz: set AXON_FUZZ_TARGET to one of: \(names)\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(2)
        }
        selectedTarget = target
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runDriver(&argc, &argv) { data, size in testOneInput(data, size) })
    }
}
