import AxonBluetooth
import AxonBrainiac
import AxonDevices
import AxonEEG
import AxonRecording
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing
import Synchronization

/// One Brainiac headset run over BlueZ (the test bed's mock) into the EEG engine and an EDF+ file, with
/// everything a test checks collected on the way.
final class HeadsetRun: @unchecked Sendable {
    // Sendable invariant: collections are locked; the rest is immutable after init.
    let transport: any DeviceTransport
    private let currentCentral: @Sendable () -> BluetoothCentral
    /// The central of the bus connection the transport uses now.
    var central: BluetoothCentral { currentCentral() }
    let source: BrainiacTransportSource
    let session: EEGSession
    let edfPath: String
    let gaps = GapCollector()
    let statuses = ThreadLocked<[BrainiacStatus]>([])
    let linkEvents = ThreadLocked<[(Double, LinkEvent)]>([])
    let rejected = ThreadLocked<[BrainiacPacketError]>([])
    let dominantAlpha = ThreadLocked<[Double]>([])
    /// Signalled on every link event, for tests that wait for one.
    let linkEventSignal = DispatchSemaphore(value: 0)
    private var spectraTask: Task<Void, Never>?

    /// Opens the central and builds the session (not started); the EDF+ file is a temporary one, removed with the run.
    /// With `recoveringBus`, the transport is a ``BusRecoveringTransport`` (it reconnects when the bus returns).
    init(bed: BlueZTestBed, openTimeout: Double = 15, recoveringBus: Bool = false) async throws {
        edfPath = FileManager.default.temporaryDirectory.appendingPathComponent("axon-ble-\(UUID().uuidString).edf").path
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        let profile = BrainiacGATTProfile()
        let device = BlueZTransport.Configuration(
            device: BlueZTestBed.brainiacName, discovery: DiscoveryFilter(serviceUUIDs: [profile.service]),
            connectTimeout: 5, openTimeout: openTimeout)
        if recoveringBus {
            let recovering = BusRecoveringTransport(
                central: central, configuration: .init(bus: .address(bed.address), device: device))
            transport = recovering
            currentCentral = { recovering.central }
        } else {
            transport = BlueZTransport(central: central, configuration: device)
            currentCentral = { central }
        }
        let statuses = statuses
        let rejected = rejected
        let linkEvents = linkEvents
        let linkEventSignal = linkEventSignal
        source = BrainiacTransportSource(
            transport: transport, profile: profile,
            eventHandler: { event in
                switch event {
                case .status(let status): statuses.withLock { $0.append(status) }
                case .rejected(let error): rejected.withLock { $0.append(error) }
                case .battery: break
                }
            },
            linkEventHandler: { event in
                linkEvents.withLock { $0.append((HostClock.now(), event)) }
                linkEventSignal.signal()
            })
        let sink = EDFSink(path: edfPath, options: .init(format: .edfPlus))
        session = try EEGSession(
            source: source, sinks: [sink, gaps],
            options: .init(publishSamples: false, pipeline: .init(timeline: BrainiacHeadset.timelineConfiguration)))
        let spectra = session.spectra
        let dominantAlpha = dominantAlpha
        spectraTask = Task.detached {
            for await frame in spectra {
                let alpha = frame.channels.map { $0.bands[1].dominantFrequency ?? .nan }
                dominantAlpha.withLock { $0.append(contentsOf: alpha) }
            }
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: edfPath) }

    func start() throws { try session.start() }

    func stop() async {
        session.stop()
        await spectraTask?.value
        central.close()
    }

    /// Waits (off the cooperative pool) until a link event matching `predicate` after `time` has arrived or
    /// `seconds` have passed; returns its time.
    func waitForEvent(after time: Double, seconds: Double, where predicate: @escaping @Sendable (LinkEvent) -> Bool) async
        -> Double?
    {
        _ = await waitUntil(seconds: seconds, signalledBy: linkEventSignal, onTimeout: .returnFalse) { [self] in
            firstEvent(after: time, where: predicate) != nil
        }
        return firstEvent(after: time, where: predicate)
    }

    /// The time of the first link event matching `predicate` after `time`.
    func firstEvent(after time: Double, where predicate: (LinkEvent) -> Bool) -> Double? {
        linkEvents.withLock { events in events.first { $0.0 > time && predicate($0.1) }?.0 }
    }
}

/// Keeps every gap record a stream delivers.
final class GapCollector: SampleSink, @unchecked Sendable {
    // Sendable invariant: `gaps` is locked; the sink methods run on the consumer thread.
    let name = "gaps"
    let gaps = ThreadLocked<[GapRecord]>([])
    let frames = ThreadLocked(0)
    /// Signalled after every block, for tests that wait for data.
    let written = DispatchSemaphore(value: 0)
    func open(_ descriptor: StreamDescriptor) throws {}
    func write(_ block: SampleBlock) throws {
        let found = block.gaps.map(\.gap)
        if !found.isEmpty { gaps.withLock { $0.append(contentsOf: found) } }
        frames.withLock { $0 += block.frameCount }
        written.signal()
    }

    /// Waits (off the cooperative pool) until at least `count` frames have arrived or `seconds` have passed;
    /// returns whether they did.
    func waitForFrames(_ count: Int, seconds: Double) async -> Bool {
        await waitUntil(seconds: seconds, signalledBy: written, onTimeout: .returnFalse) {
            [self] in frames.withLock { $0 } >= count
        }
    }
    func close() throws {}
}

/// pyedflib (from `.venv-peers`, made by `make test`) reading an EDF+ file: sample count of the first signal and
/// the annotation texts.
enum PyEDFLib {
    static let python = BlueZTestBed.root.appendingPathComponent(".venv-peers/bin/python").path
    static var available: Bool { FileManager.default.isExecutableFile(atPath: python) }

    static func read(_ path: String) throws -> (labels: [String], samples: Int, annotations: [String]) {
        let script = """
            import json, sys, pyedflib
            f = pyedflib.EdfReader(sys.argv[1])
            print(json.dumps({"labels": f.getSignalLabels(), "samples": int(f.getNSamples()[0]),
                              "annotations": [str(t) for t in f.readAnnotations()[2]]}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Result: Decodable { var labels: [String]; var samples: Int; var annotations: [String] }
        let result = try JSONDecoder().decode(Result.self, from: data)
        return (result.labels, result.samples, result.annotations)
    }
}
