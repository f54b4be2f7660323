// swift-tools-version: 6.1
// Axon benchmarks: a nested package so that `swift build` / `swift test` in the root never compile the
// benchmark harness and its dependencies. Run with `cd Benchmarks && swift package benchmark`.
import PackageDescription

import struct Foundation.URL

// The identity of a path dependency is its folder name, and CI clones into whatever folder it likes,
// so derive it instead of hard-coding "axon".
let rootPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "AxonBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../"),
        // MallocInterposer provides the malloc counters on Linux without jemalloc; the gate depends on it.
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "AxonBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AxonStreams", package: rootPackage),
                .product(name: "AxonDSP", package: rootPackage),
                .product(name: "AxonBrainiac", package: rootPackage),
                .product(name: "AxonEEG", package: rootPackage),
                .product(name: "AxonRecording", package: rootPackage),
            ],
            path: "Benchmarks/AxonBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        )
    ]
)
