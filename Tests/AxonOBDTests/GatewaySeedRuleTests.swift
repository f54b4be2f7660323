import AxonEventStore
import AxonRecording
import AxonStreams
import Dispatch
import Foundation
import StreamTestSupport
import Synchronization
import Testing

@testable import AxonOBD

/// The seed's gateway rules against elm327-emulator: the favourite kept in the event store and connected at
/// start-up, `forgetDevice`, unregistering some of a request's PIDs, and the basic channel's queue of reads.
extension EmulatorSuites {
    @Suite("OBD gateway: favourite, forget, partial unregistration, queued basic reads")
    struct GatewaySeedRuleTests {
        static func store() -> (path: String, log: OBDEventLog) {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("axon-obd-fav-\(UUID().uuidString).sqlite").path
            return (path, try! OBDEventLog(store: EventStore(path: path), sourceID: "car"))
        }

        @Test("the favourite survives a restart and is connected at start-up; forgetDevice forgets it for good")
        func favouriteAcrossRestarts() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let (path, log) = Self.store()
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }

            let first = authenticatedGateway(eventLog: log)
            #expect(try first.connectToFavorite() == nil, "nothing stored yet")
            let device = try first.connect(peer.endpoint)
            try first.setFavorite(device)
            first.disconnect()

            // A new gateway (the app restarted) on the same store: connected to the favourite without being told.
            let second = authenticatedGateway(eventLog: try OBDEventLog(store: EventStore(path: path), sourceID: "car"))
            let restored = try #require(try second.connectToFavorite())
            #expect(restored.identifier == device.identifier && restored.endpoint == peer.endpoint)
            #expect(second.connectedDevice?.identifier == device.identifier)
            #expect(second.favorite == restored)
            #expect(try second.readBasic(pid: 0x0D).value != nil)

            try second.forgetDevice()
            #expect(second.favorite == nil)
            #expect(try log.storedFavorite() == nil)
            second.disconnect()
            let third = authenticatedGateway(eventLog: try OBDEventLog(store: EventStore(path: path), sourceID: "car"))
            #expect(try third.connectToFavorite() == nil)
            #expect(third.connectedDevice == nil)
        }

        @Test("axon obd watch without an endpoint connects to the favourite an earlier watch stored")
        func watchConnectsToTheStoredFavourite() async throws {
            let axon = try #require(AxonExecutable.path, "the axon executable is not built")
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let (path, _) = Self.store()
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            guard case .tcp(_, let port) = peer.endpoint else { return }
            let watch = ["obd", "watch", "speed", "--store", path, "--source", "car", "--seconds", "1", "--rate", "5"]
            let first = try await AxonExecutable.runOffPool(axon, watch + ["--tcp", "127.0.0.1:\(port)"])
            #expect(first.status == 0, "\(first.output)")
            let second = try await AxonExecutable.runOffPool(axon, watch + ["--events", "overSpeed,highRPM,engineStop"])
            #expect(second.status == 0, "\(second.output)")
            #expect(second.output.contains("at tcp:127.0.0.1:\(port)"))
        }

        @Test("a favourite that does not answer at start-up: the error, then reconnection until it does")
        func favouriteDownAtStartUp() async throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let (path, log) = Self.store()
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let first = authenticatedGateway(eventLog: log)
            try first.setFavorite(try first.connect(peer.endpoint))
            first.disconnect()
            try peer.kill()

            let gateway = authenticatedGateway(
                eventLog: try OBDEventLog(store: EventStore(path: path), sourceID: "car"),
                configuration: .init(requestTimeout: 1, connectTimeout: 2, initialBackoff: 0.25, maximumBackoff: 1))
            var statuses = gateway.status.makeAsyncIterator()
            #expect(throws: OBDGatewayError.self) { try gateway.connectToFavorite() }
            // The first retry fails too (still dead); then the dongle returns and the gateway connects by itself.
            guard case .reconnecting(attempt: 1, _)? = await statuses.next() else {
                Issue.record("expected a reconnection attempt")
                return
            }
            try peer.start()
            var connected = false
            while let status = await statuses.next() {
                if case .connected = status {
                    connected = true
                    break
                }
            }
            #expect(connected)
            #expect(try gateway.readBasic(pid: 0x0D).value != nil)
            try gateway.forgetDevice()
            gateway.disconnect()
        }

        @Test("unregistering one of two PIDs: the other goes on in the same stream, the first's channel is NaN")
        func unregisterSomePIDs() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway()
            try gateway.connect(peer.endpoint)
            let sink = FrameSignallingSink()
            let registration = try gateway.registerDataPIDs(requestID: 3, pids: [0x0D, 0x0C], rate: 20, sinks: [sink])
            #expect(sink.waitForFrames(3, seconds: 10))
            try gateway.unregisterDataPIDs(requestID: 3, pids: [0x0C])
            #expect(registration.activePIDs.map(\.id) == [0x0D])
            let atChange = sink.frames.count
            #expect(sink.waitForFrames(atChange + 4, seconds: 10))
            let frames = sink.frames
            #expect(frames[..<3].allSatisfy { $0.allSatisfy(\.isFinite) }, "both PIDs before")
            // One tick may have been under way when the PID was removed.
            let after = frames[(atChange + 1)...]
            #expect(!after.isEmpty && after.allSatisfy { $0[0].isFinite && $0[1].isNaN })
            #expect(
                throws: OBDGatewayError.invalidRegistration(reason: "PID 12 is not polled by request 3"),
                performing: { try gateway.unregisterDataPIDs(requestID: 3, pids: [0x0C]) })
            // The last PID still polled: the whole registration stops, its sink is closed.
            try gateway.unregisterDataPIDs(requestID: 3, pids: [0x0D])
            #expect(gateway.registrations[3] == nil)
            #expect(sink.isClosed)
            #expect(throws: OBDGatewayError.unknownRequestID(3)) { try gateway.unregisterDataPIDs(requestID: 3, pids: [0x0D]) }
            gateway.disconnect()
        }

        @Test("five of the eight event kinds register; a sixth is refused with the seed's limit")
        func fiveEventKindsAtMost() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway()
            try gateway.connect(peer.endpoint)
            try gateway.registerEvents([.hardBraking, .overSpeed, .highRPM, .engineStart, .newTroubleCode])
            #expect(gateway.registeredEvents.count == 5)
            #expect(throws: OBDGatewayError.tooManyEvents(count: 6, limit: 5)) {
                try gateway.registerEvents([.longIdle])
            }
            gateway.unregisterEvents([.newTroubleCode])
            try gateway.registerEvents([.longIdle])
            #expect(gateway.registeredEvents == [.hardBraking, .overSpeed, .highRPM, .engineStart, .longIdle])
            // The trouble-code count the poller reads: PID 0x01 answers on the emulator.
            #expect(gateway.troubleCodeCount() != nil)
            gateway.disconnect()
        }

        @Test("16 basic reads arriving while one is in flight all run, in arrival order; a 17th is refused")
        func basicReadsQueue() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway()
            try gateway.connect(peer.endpoint)
            let pids = [0x0D, 0x0C, 0x05, 0x04, 0x0F, 0x11, 0x2F, 0x0B]
            let limit = OBDGateway.maximumQueuedBasicReads
            #expect(limit == 16)
            let results = ThreadLocked<[(index: Int, result: Result<OBDReading, OBDGatewayError>)]>([])
            let group = DispatchGroup()
            // A read in flight holds the channel while the others arrive one after another.
            let holding = try gateway.withBasicChannel(pid: 0x0D) {
                () throws(OBDGatewayError) -> Result<Int, OBDGatewayError> in
                for index in 0..<limit {
                    group.enter()
                    Thread.detachNewThread {
                        let result = Result { () throws(OBDGatewayError) -> OBDReading in
                            try gateway.readBasic(pid: pids[index % pids.count])
                        }
                        results.withLock { $0.append((index, result)) }
                        group.leave()
                    }
                    waitUntil(seconds: 10) { gateway.queuedBasicReads == index + 1 }
                }
                // One more than the queue holds: refused at once, nothing queued.
                return Result { () throws(OBDGatewayError) -> Int in
                    _ = try gateway.readBasic(pid: 0x0C)
                    return 0
                }
            }
            #expect(holding == .failure(.basicQueueFull(pid: 0x0C, limit: limit)))
            #expect(group.wait(timeout: .now() + 60) == .success)
            let finished = results.withLock { $0 }
            #expect(finished.count == limit)
            let readings = try finished.sorted { $0.index < $1.index }.map { try $0.result.get() }
            #expect(readings.map(\.pid) == (0..<limit).map { pids[$0 % pids.count] }, "each read got its own PID")
            #expect(readings.allSatisfy { $0.value != nil })
            // Executed in arrival order: each answer came after the one of the read queued before it.
            #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.time < $1.time })
            #expect(gateway.queuedBasicReads == 0)
            // Free again: a read runs at once.
            #expect(try gateway.readBasic(pid: 0x0C).value != nil)
            gateway.disconnect()
        }
    }
}

/// Keeps every frame's values and signals each one, so a test waits for frames without sleeping.
final class FrameSignallingSink: SampleSink, @unchecked Sendable {
    // Sendable invariant: `state` is behind its mutex; `arrived` is a semaphore.
    let name = "signal"
    private let state = Mutex<(frames: [[Double]], closed: Bool)>(([], false))
    private let arrived = DispatchSemaphore(value: 0)

    func open(_ descriptor: StreamDescriptor) throws {}

    func write(_ block: SampleBlock) throws {
        let count = block.frameCount
        state.withLock { state in
            for frame in 0..<count { state.frames.append(Array(block.values(ofFrame: frame))) }
        }
        for _ in 0..<count { arrived.signal() }
    }

    func close() throws { state.withLock { $0.closed = true } }

    var frames: [[Double]] { state.withLock { $0.frames } }
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Waits until at least `count` frames arrived or `seconds` passed; whether they did.
    func waitForFrames(_ count: Int, seconds: Double) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while frames.count < count {
            guard arrived.wait(timeout: deadline) == .success else { return frames.count >= count }
        }
        return true
    }
}
