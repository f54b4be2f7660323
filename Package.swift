// swift-tools-version: 6.1
// Axon: a real-time EEG signal-processing engine for Linux with pluggable device adapters.
// Swift 6 language mode (complete strict concurrency) is the default for tools-version 6.x.
import PackageDescription

let swiftAtomics: Target.Dependency = .product(name: "Atomics", package: "swift-atomics")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "Axon",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AxonMemory", targets: ["AxonMemory"]),
        .library(name: "AxonStreams", targets: ["AxonStreams"]),
        .library(name: "AxonDSP", targets: ["AxonDSP"]),
        .library(name: "AxonEEG", targets: ["AxonEEG"]),
        .library(name: "AxonRecording", targets: ["AxonRecording"]),
        .library(name: "AxonEventStore", targets: ["AxonEventStore"]),
        .library(name: "AxonBrainiac", targets: ["AxonBrainiac"]),
        .library(name: "AxonDevices", targets: ["AxonDevices"]),
        .library(name: "AxonBluetooth", targets: ["AxonBluetooth"]),
        .library(name: "AxonOBD", targets: ["AxonOBD"]),
        .library(name: "AxonScales", targets: ["AxonScales"]),
        .library(name: "AxonBand", targets: ["AxonBand"]),
        .library(name: "AxonResearchBIT", targets: ["AxonResearchBIT"]),
        .library(name: "AxonOpenBCI", targets: ["AxonOpenBCI"]),
        .library(name: "AxonMuse", targets: ["AxonMuse"]),
        .library(name: "AxonPolar", targets: ["AxonPolar"]),
        .library(name: "AxonLSL", targets: ["AxonLSL"]),
        .library(name: "AxonFleet", targets: ["AxonFleet"]),
        .library(name: "AxonConnect", targets: ["AxonConnect"]),
        .library(name: "AxonSensors", targets: ["AxonSensors"]),
        .executable(name: "axon", targets: ["axon"]),
        // The C interface (include/axon.h) as a shared library, libAxonC.so; a product named `axon` would clash with
        // the executable's name.
        .library(name: "AxonC", type: .dynamic, targets: ["AxonC"]),
    ],
    traits: [
        // The live view's server (Hummingbird, SwiftNIO). On by default; `make tsan-tests` builds without it, so the
        // ThreadSanitizer build does not compile a web server the threaded tests never run.
        .trait(name: "LiveView", description: "axon view and axon demo --view: the browser view over Hummingbird"),
        .default(enabledTraits: ["LiveView"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // The live view's HTTP and WebSocket server (AxonView only).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // Already in the graph through Hummingbird; AxonView's token gate is a NIO channel handler.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    ],
    targets: [
        // MARK: - C system libraries (module map + pkg-config; nothing compiled)
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CLAPACKE", pkgConfig: "lapacke", providers: [.apt(["liblapacke-dev"])]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // EDFlib ships no .pc file: the module map links `edf` directly.
        .systemLibrary(name: "CEDFlib", providers: [.apt(["libedf-dev"])]),
        .systemLibrary(name: "CNATS", pkgConfig: "libnats", providers: [.apt(["libnats-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // MARK: - Libraries
        // eventfd(2) for the ring's wake-ups and thread names: Linux calls Swift's Glibc module does not declare.
        .target(name: "CLinux"),
        // OwnedBuffer, the buffer that frees itself: a leaf that both the stream framework and the DSP core (which does
        // not depend on the streams) keep their memory in.
        .target(name: "AxonMemory"),
        .target(name: "AxonStreams", dependencies: [swiftAtomics, "CLinux", "AxonMemory"]),
        .target(name: "AxonDSP", dependencies: ["CFFTW", "CLAPACKE", "AxonMemory"]),
        .target(name: "AxonEEG", dependencies: ["AxonStreams", "AxonDSP", "AxonMemory"]),
        .target(name: "AxonRecording", dependencies: ["AxonStreams", "AxonMemory", "CEDFlib"]),
        // The durable event store (SQLite's C API) for what devices send once: its own module, so that the engine, the
        // file formats and the benchmarks do not link a database (the C library still does, through AxonConnect's
        // device adapters).
        .target(name: "AxonEventStore", dependencies: ["AxonStreams", "CSQLite"]),
        // The Brainiac headset: packet layout, decoder, encoder and simulator. Transport-agnostic: a BlueZ
        // adapter hands it notification bytes. EEGHeadset, the SDK-shaped entry point, runs it through the engine.
        .target(name: "AxonBrainiac", dependencies: ["AxonStreams", "AxonEEG", "AxonDevices", "AxonMemory"]),
        // What adapters talk through: the transport protocol, link events, Bluetooth UUIDs, and the byte-stream
        // transport (serial line, pty, socket) over a file descriptor that the OBD and OpenBCI adapters share.
        .target(name: "AxonDevices", dependencies: ["AxonStreams", "AxonMemory"]),
        // Bluetooth LE through BlueZ's D-Bus API on libdbus: one owner thread per bus connection.
        .target(name: "AxonBluetooth", dependencies: ["CDBus", "AxonStreams", "AxonDevices"]),
        // `axon bench`: the core measurements on the user's machine. The C target interposes malloc & co. to count
        // allocations, so it must reach only the programs that link AxonBench (the executable and its tests): no
        // library product exposes it, and the nested Benchmarks package keeps ordo-one's own counter.
        .target(name: "CAllocationCounter"),
        // `axon view-bench` too: the engine with and without viewers of the live view (AxonView, AxonRecording).
        .target(
            name: "AxonBench",
            dependencies: [
                "AxonStreams", "AxonDSP", "AxonEEG", "AxonRecording", "AxonView", "CAllocationCounter", "CLinux",
            ]),
        // OBD-II dataloggers with the Danlaw SmartConnect gateway's semantics, over the ELM327 command interface
        // (serial line, pty, TCP, Bluetooth LE): SAE J1979 decoding, continuous PID streams, driving events, acknowledged batches.
        // Bluetooth LE dongles through AxonDevices' DeviceTransportFactory only; the command line gives it BlueZ's.
        .target(name: "AxonOBD", dependencies: ["AxonStreams", "AxonRecording", "AxonEventStore", "AxonDevices"]),
        // Bathroom scales: the standard Weight Scale / Body Composition decoders, the iHealth HS3/HS4/HS5 model
        // (units, memory transfer into the event store, HS5 users, the seed's error codes) and simulators.
        .target(name: "AxonScales", dependencies: ["AxonDevices", "AxonStreams", "AxonRecording", "AxonEventStore"]),
        // Iwown smartbands (Fit Pro 9614N, Fit Pulse 9615N, Smartee Training 9616N): Axon's band framing
        // (docs/band-protocol.md), the Heart Rate Measurement decoder, validated commands, the once-only sync into
        // the event store, and a simulated band.
        .target(name: "AxonBand", dependencies: ["AxonDevices", "AxonStreams", "AxonRecording", "AxonEventStore"]),
        // P&G ResearchBIT sensors: scan filter, summary events paired into sessions, resumable fetch into the
        // event store (docs/researchbit-protocol.md), and a simulated sensor.
        .target(
            name: "AxonResearchBIT", dependencies: ["AxonDevices", "AxonStreams", "AxonRecording", "AxonEventStore"]),

        // OpenBCI boards: the Cyton (+ Daisy) over its dongle's serial port — the 33-byte packet decoder with
        // resynchronisation, the board's text exchange, gains tracked from channel settings — and a simulated Cyton on
        // a pseudo-terminal that speaks the same bytes.
        .target(name: "AxonOpenBCI", dependencies: ["AxonDevices", "AxonStreams", "AxonMemory"]),
        // Muse headbands over any DeviceTransport (BlueZ): the control commands, the EEG notification decoder with
        // packet-index gaps, keep-alives and restart after a reconnection, telemetry/motion/PPG as streams of their own.
        // Simulators: SimulatedMuse in-process, and the mock bluetoothd's `muse` kind (scripts/bluez-mock/kinds/muse.py);
        // both are fed by the shared muse-lsl recording.
        .target(name: "AxonMuse", dependencies: ["AxonDevices", "AxonStreams", "AxonMemory"]),
        // The Polar H10 chest strap over Polar's Measurement Data protocol (ECG, accelerometer) and the standard Heart
        // Rate service (RR intervals); simulated by the mock bluetoothd's `polar` kind fed a real ECG.
        .target(name: "AxonPolar", dependencies: ["AxonDevices", "AxonStreams"]),
        // Lab Streaming Layer: inlets as sources, outlets as sinks (raw, spectra, zones), and LSLXDFRecorder, which
        // records any set of streams into one XDF file as LabRecorder does. liblsl is loaded at run time with dlopen
        // (see LSLLibrary): nothing links against it, and only LSL commands need it.
        .target(name: "AxonLSL", dependencies: ["AxonStreams", "AxonEEG", "AxonRecording", "AxonMemory"]),
        // The live view: a Hummingbird server that shows any EEG run to browsers (raw traces, spectra, zones, status)
        // over one WebSocket per viewer with a bounded queue; the page ships as resources (docs/live-view.md).
        .target(
            name: "AxonView",
            dependencies: [
                "AxonStreams", "AxonDSP", "AxonEEG",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["LiveView"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["LiveView"])),
                .product(
                    name: "HummingbirdWebSocket", package: "hummingbird-websocket",
                    condition: .when(traits: ["LiveView"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["LiveView"])),
            ],
            resources: [.copy("Web")]),
        // A fleet of devices on a NATS JetStream cluster (docs/fleet.md): the JetStream sink with its on-disk spool,
        // the raw-stream source, the stateful engine workers with leases and checkpoints, and the results reader.
        .target(name: "AxonFleet", dependencies: ["CNATS", "AxonStreams", "AxonEEG", "AxonMemory"]),

        // Opening any device SOURCE as a sample source (LiveEEGDevice), finding Bluetooth devices first
        // (DeviceSearch), and naming what a scanned device is: the module above every adapter, so that a program
        // opens `muse:NAME` as `axon record` does. It reports progress as events and prints nothing.
        .target(
            name: "AxonConnect",
            dependencies: [
                "AxonStreams", "AxonDevices", "AxonBluetooth", "AxonBrainiac", "AxonMuse", "AxonOpenBCI", "AxonLSL",
                "AxonOBD", "AxonScales", "AxonBand", "AxonResearchBIT", "AxonSensors", "AxonPolar",
            ]),

        // Sensors Axon has no adapter for: a sensor description file (transport, layout, channels) made a source
        // (DescribedSensorSource over a serial line, BLE notifications, UDP or OSC), and Open Sound Control 1.0 read
        // in place (OSCPacketReader; OSCSampleSource maps one OSC address to a stream, Mind Monitor's built in).
        .target(name: "AxonSensors", dependencies: ["AxonStreams", "AxonMemory", "AxonDevices"]),

        // The C interface: include/axon.h made a Clang module (its module map lives under Sources/AxonC/ABI), and
        // AxonC, which implements every function it declares over the recording readers, the EEG engine and the
        // sources (AxonConnect's devices, the simulators, a replayed recording).
        .systemLibrary(name: "CAxonABI", path: "Sources/AxonC/ABI"),
        .target(
            name: "AxonC",
            dependencies: [
                "CAxonABI", "AxonRecording", "AxonEEG", "AxonStreams", "AxonConnect", "AxonDevices", "AxonBrainiac",
                "AxonLSL", "AxonBluetooth",
            ],
            exclude: ["ABI"]),

        // MARK: - Command line
        .executableTarget(
            name: "axon",
            dependencies: [
                "AxonStreams", "AxonEEG", "AxonRecording", "AxonEventStore", "AxonBrainiac", "AxonDevices",
                "AxonBluetooth", "AxonBench", "AxonOBD", "AxonScales", "AxonBand", "AxonResearchBIT", "AxonOpenBCI",
                "AxonMuse", "AxonPolar", "AxonLSL",
                "AxonView", "AxonFleet", "AxonConnect", "AxonSensors", "CLinux", argumentParser,
            ]),

        // MARK: - Tests
        .testTarget(name: "AxonMemoryTests", dependencies: ["AxonMemory"]),
        // The C interface: calls from Swift through the header, and examples/c/analyze.c compiled with gcc against
        // the built libAxonC.so, its numbers checked against the engine and `axon analyze --json`.
        .testTarget(
            name: "AxonCTests",
            dependencies: ["AxonC", "CAxonABI", "AxonEEG", "AxonRecording", "AxonStreams", "StreamTestSupport"]),
        .testTarget(
            name: "AxonSensorsTests",
            dependencies: ["AxonSensors", "AxonRecording", "AxonStreams", "AxonDevices", "StreamTestSupport"]),
        .testTarget(
            name: "AxonConnectTests",
            dependencies: [
                "AxonConnect", "AxonOpenBCI", "AxonDevices", "AxonBluetooth", "AxonRecording", "AxonStreams",
                "AxonSensors", "BlueZTestSupport", "StreamTestSupport",
            ]),
        .testTarget(name: "AxonStreamsTests", dependencies: ["AxonStreams", "StreamTestSupport"]),
        .testTarget(name: "AxonDSPTests", dependencies: ["AxonDSP"]),
        .testTarget(
            name: "AxonEEGTests", dependencies: ["AxonEEG", "AxonRecording", "AxonStreams", "StreamTestSupport"]),
        // The soak: a simulated headset for hours of device time through every sink a run can have.
        .testTarget(
            name: "AxonSoakTests",
            dependencies: [
                "AxonEEG", "AxonRecording", "AxonEventStore", "AxonStreams", "AxonView", "AxonLSL", "CLinux",
            ]),
        .testTarget(name: "AxonRecordingTests", dependencies: ["AxonRecording", "AxonStreams", "StreamTestSupport"]),
        .testTarget(name: "AxonEventStoreTests", dependencies: ["AxonEventStore", "AxonStreams"]),
        .testTarget(name: "AxonBrainiacTests", dependencies: ["AxonBrainiac", "AxonStreams", "AxonEEG"]),
        // The private dbus-daemon and mock bluetoothd (scripts/bluez-mock) that every BLE test runs against.
        .target(
            name: "BlueZTestSupport", dependencies: ["AxonBluetooth", "StreamTestSupport"],
            path: "Tests/BlueZTestSupport"),
        // A sink that keeps what a pipeline delivers, the built axon executable and waiting for a condition, for tests of
        // any stream.
        .target(name: "StreamTestSupport", dependencies: ["AxonStreams"], path: "Tests/StreamTestSupport"),
        .testTarget(
            name: "AxonScalesTests",
            dependencies: [
                "AxonScales", "AxonDevices", "AxonStreams", "AxonRecording", "AxonEventStore", "AxonBluetooth",
                "BlueZTestSupport",
                "StreamTestSupport",
            ]),
        .testTarget(
            name: "AxonBluetoothTests",
            dependencies: [
                "AxonBluetooth", "AxonDevices", "AxonBrainiac", "AxonEEG", "AxonRecording", "AxonStreams",
                "BlueZTestSupport",
                "StreamTestSupport",
            ]),
        .testTarget(name: "AxonBenchTests", dependencies: ["AxonBench", "AxonRecording", "AxonStreams"]),
        // The README's commands and library example, checked against the built `axon`.
        .testTarget(
            name: "AxonCLITests",
            dependencies: ["AxonEEG", "AxonRecording", "AxonEventStore", "AxonSensors", "StreamTestSupport"]),
        // Drives headless Chromium against `axon view` (scripts/view-browser.py); skipped when chromium is missing.
        .testTarget(
            name: "AxonViewTests",
            dependencies: ["AxonView", "AxonEEG", "AxonRecording", "AxonStreams", "StreamTestSupport"]),
        .testTarget(
            name: "AxonLSLTests",
            dependencies: ["AxonLSL", "AxonEEG", "AxonRecording", "AxonStreams", "StreamTestSupport"]),
        // A 3-node JetStream cluster of real nats-server processes on loopback, started by the tests.
        .testTarget(
            name: "AxonFleetTests", dependencies: ["AxonFleet", "AxonEEG", "AxonStreams", "StreamTestSupport"]),
        .testTarget(
            name: "AxonOpenBCITests",
            dependencies: [
                "AxonOpenBCI", "AxonDevices", "AxonStreams", "AxonRecording", "AxonEEG", "AxonBluetooth",
                "BlueZTestSupport",
                "StreamTestSupport",
            ]),
        .testTarget(
            name: "AxonMuseTests",
            dependencies: [
                "AxonMuse", "AxonDevices", "AxonStreams", "AxonRecording", "AxonBluetooth", "BlueZTestSupport",
                "StreamTestSupport",
            ]),
        .testTarget(
            name: "AxonPolarTests",
            dependencies: [
                "AxonPolar", "AxonDevices", "AxonStreams", "AxonRecording", "AxonBluetooth", "AxonConnect",
                "BlueZTestSupport", "StreamTestSupport",
            ]),
        .testTarget(
            name: "AxonOBDTests",
            dependencies: [
                "AxonOBD", "AxonRecording", "AxonEventStore", "AxonStreams", "AxonDevices", "AxonBluetooth",
                "BlueZTestSupport",
                "StreamTestSupport",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "AxonBandTests",
            dependencies: [
                "AxonBand", "AxonDevices", "AxonRecording", "AxonEventStore", "AxonStreams", "AxonBluetooth",
                "BlueZTestSupport",
                "StreamTestSupport",
            ]),
        .testTarget(
            name: "AxonResearchBITTests",
            dependencies: [
                "AxonResearchBIT", "AxonDevices", "AxonRecording", "AxonEventStore", "AxonStreams", "AxonBluetooth",
                "BlueZTestSupport",
                "StreamTestSupport",
            ]),
    ]
)

// `make tsan-tests` names the test targets it runs in AXON_TEST_TARGETS (comma-separated): its release build with
// ThreadSanitizer then compiles only those and the targets they depend on, not every test, library and the `axon`
// executable (the full test build is the debug one `make test` runs before it).
if let wanted = Context.environment["AXON_TEST_TARGETS"] {
    let keptTests = Set(wanted.split(separator: ",").map(String.init))
    let byName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var needed = Set<String>()
    var pending = Array(keptTests)
    while let name = pending.popLast() {
        guard needed.insert(name).inserted, let target = byName[name] else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !needed.contains($0.name) }
    // AXON_TEST_SOURCES (comma-separated `Target/File.swift`): a kept test target with files listed compiles only
    // those, so the release build does not optimise thousands of lines of tests it will not run.
    if let listed = Context.environment["AXON_TEST_SOURCES"] {
        var files: [String: [String]] = [:]
        for entry in listed.split(separator: ",") {
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            if parts.count == 2 { files[parts[0], default: []].append(parts[1]) }
        }
        for target in package.targets { if let kept = files[target.name] { target.sources = kept } }
    }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return !targets.allSatisfy(needed.contains)
    }
}
