// swift-tools-version: 6.1
// Axon's coverage-guided fuzzing: a nested package so that `swift build` / `swift test` in the root never compile
// the sanitizer build. One libFuzzer executable serves every target (AXON_FUZZ_TARGET picks it), so a single
// instrumented build covers all decoders and readers; `axon-fuzz-seeds` writes the seed corpora. See docs/fuzzing.md.
import PackageDescription

import struct Foundation.URL

// The identity of a path dependency is its folder name; derive it (a clone may live in any folder).
let rootPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let axon: [Target.Dependency] = [
    "AxonStreams", "AxonRecording", "AxonBrainiac", "AxonOBD", "AxonBand", "AxonResearchBIT", "AxonScales",
    "AxonOpenBCI", "AxonMuse", "AxonSensors",
].map { .product(name: $0, package: rootPackage) }

let package = Package(
    name: "AxonFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../")],
    targets: [
        // Shared by both executables: the target table, the input framing and the invariant checks.
        .target(name: "FuzzTargets", dependencies: axon),
        // Built only with `-sanitize=fuzzer,address -parse-as-library` (libFuzzer supplies `main`); see the Makefile.
        .executableTarget(name: "axon-fuzz", dependencies: ["FuzzTargets"]),
        // A plain build: writes Corpus/<target>/ from the project's encoders, simulators and shared datasets.
        .executableTarget(name: "axon-fuzz-seeds", dependencies: ["FuzzTargets"] + axon),
    ]
)
