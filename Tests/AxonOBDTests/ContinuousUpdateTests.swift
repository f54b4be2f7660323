import AxonOBD
import AxonStreams
import Foundation
import StreamTestSupport
import Synchronization
import Testing

/// Acceptance 2 and 4: continuous updates through the stream framework, and a dongle that vanishes mid-stream.
extension EmulatorSuites {
    @Suite("OBD continuous updates, link loss and reconnection")
    struct ContinuousUpdateTests {
        @Test("speed and RPM at 5 Hz for 30 s: ≥ 140 samples per PID, increasing timestamps; unregistering stops them")
        func thirtySeconds() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway()
            try gateway.connect(peer.endpoint)
            let sink = CollectingSink()
            let registration = try gateway.registerDataPIDs(requestID: 1, pids: [0x0D, 0x0C], rate: 5, sinks: [sink])
            #expect(registration.descriptor.channels.map(\.unit) == ["km/h", "rpm"])
            Thread.sleep(forTimeInterval: 30)
            try gateway.unregisterDataPIDs(requestID: 1)
            let collected = sink.snapshot
            let frames = collected.timestamps.count
            Thread.sleep(forTimeInterval: 1)
            let increasing = zip(collected.timestamps, collected.timestamps.dropFirst()).allSatisfy { $0 < $1 }
            print(
                "OBD 5 Hz for 30 s: \(frames) frames × 2 PIDs (speed, RPM), \(collected.gaps.count) gaps, "
                    + "span \(String(format: "%.2f", (collected.timestamps.last ?? 0) - (collected.timestamps.first ?? 0))) s"
            )
            #expect(frames >= 140)
            #expect(collected.values.allSatisfy { $0.count == 2 && $0[0] >= 0 && $0[1] >= 0 })
            #expect(increasing)
            #expect(collected.closed)
            #expect(sink.snapshot.timestamps.count == frames)  // nothing after unregistering
            #expect(registration.frameCount == frames)
            // The gateway answers basic reads while and after streaming.
            #expect(try gateway.readBasic(pid: 0x0D).value != nil)
        }

        @Test("emulator killed mid-stream: status events, a gap record, automatic reconnection to the favourite")
        func killedMidStream() async throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway(
                configuration: .init(requestTimeout: 1, initialBackoff: 0.25, maximumBackoff: 2))
            let device = try gateway.connect(peer.endpoint)
            try gateway.setFavorite(device)
            let statuses = Mutex<[OBDGatewayStatus]>([])
            let watcher = Task {
                for await status in gateway.status { statuses.withLock { $0.append(status) } }
            }
            defer { watcher.cancel() }
            let sink = CollectingSink()
            try gateway.registerDataPIDs(requestID: 7, pids: [0x0D, 0x0C], rate: 5, sinks: [sink])
            guard waitUntil(seconds: 30, interval: 0.05, { sink.snapshot.timestamps.count >= 10 })
            else { return }

            try peer.kill()
            // Wait (bounded) until the gateway has noticed.
            _ = waitUntil(seconds: 20, interval: 0.05, onTimeout: .returnFalse) {
                statuses.withLock { $0.contains { if case .linkLost = $0 { true } else { false } } }
            }
            let framesAtLoss = sink.snapshot.timestamps.count
            try await Task.sleep(for: .seconds(3))
            #expect(sink.snapshot.timestamps.count <= framesAtLoss + 1)
            try peer.start()
            let restartedAt = HostClock.now()
            _ = waitUntil(seconds: 30, interval: 0.02, onTimeout: .returnFalse) {
                gateway.connectionCount >= 2
            }
            let reconnectSeconds = HostClock.now() - restartedAt
            let framesAtReconnect = sink.snapshot.timestamps.count
            _ = waitUntil(seconds: 30, interval: 0.05, onTimeout: .returnFalse) {
                sink.snapshot.timestamps.count >= framesAtReconnect + 10
            }
            try gateway.unregisterDataPIDs(requestID: 7)

            let collected = sink.snapshot
            let seen = statuses.withLock { $0 }
            let connectedCount = seen.filter { if case .connected = $0 { true } else { false } }.count
            let lost = seen.contains { if case .linkLost = $0 { true } else { false } }
            let attempts = seen.filter { if case .reconnecting = $0 { true } else { false } }.count
            let missing = collected.gaps.map(\.missingCount).reduce(0, +)
            print(
                "OBD kill mid-stream: \(collected.timestamps.count) frames, gaps \(collected.gaps.map(\.missingCount)) "
                    + "(\(missing) missing samples at 5 Hz), \(attempts) failed reconnection attempts, reconnected "
                    + String(format: "%.2f", reconnectSeconds) + " s after the emulator answered again; statuses: "
                    + seen.map(\.description).joined(separator: " | "))
            #expect(lost)
            #expect(connectedCount == 2)  // the status stream buffers: the first connection and the reconnection
            #expect(gateway.connectionCount == 2)
            #expect(gateway.connectedDevice?.identifier == device.identifier)
            #expect(attempts >= 1)
            #expect(collected.gaps.count >= 1)
            #expect(collected.gaps.contains { $0.cause == .linkLoss })
            #expect(missing >= 15)  // ≥ 3 s of outage at 5 Hz
            #expect(collected.timestamps.count >= framesAtReconnect + 10)
            let increasing = zip(collected.timestamps, collected.timestamps.dropFirst()).allSatisfy { $0 < $1 }
            #expect(increasing)
        }

        @Test("a hung dongle (port open, no answers): 3 timeouts in a row count as a lost link; it is reconnected")
        func hungDongle() async throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway(
                configuration: .init(requestTimeout: 0.5, connectTimeout: 2, initialBackoff: 0.25, maximumBackoff: 1))
            let device = try gateway.connect(peer.endpoint)
            try gateway.setFavorite(device)
            let sink = CollectingSink()
            try gateway.registerDataPIDs(requestID: 3, pids: [0x0D], rate: 5, sinks: [sink])
            guard waitUntil(seconds: 30, interval: 0.05, { sink.snapshot.timestamps.count >= 5 })
            else { return }
            try peer.pause()
            let pausedAt = HostClock.now()
            var statuses = gateway.status.makeAsyncIterator()
            var reason = ""
            while let status = await statuses.next() {
                if case .linkLost(let why) = status {
                    reason = why
                    break
                }
            }
            let lostAfter = HostClock.now() - pausedAt
            try peer.resume()
            let resumedAt = HostClock.now()
            _ = waitUntil(seconds: 30, interval: 0.02, onTimeout: .returnFalse) {
                gateway.connectionCount >= 2
            }
            let framesAtReconnect = sink.snapshot.timestamps.count
            _ = waitUntil(seconds: 30, interval: 0.05, onTimeout: .returnFalse) {
                sink.snapshot.timestamps.count >= framesAtReconnect + 5
            }
            try gateway.unregisterDataPIDs(requestID: 3)
            let collected = sink.snapshot
            print(
                "OBD hung dongle: link declared lost \(String(format: "%.2f", lostAfter)) s after the pause (\(reason)); "
                    + "reconnected \(String(format: "%.2f", HostClock.now() - resumedAt)) s after resuming; gaps "
                    + "\(collected.gaps.map(\.missingCount))")
            #expect(reason == "3 requests in a row timed out")
            #expect(gateway.connectionCount == 2)
            #expect(collected.gaps.count >= 1)
            #expect(collected.timestamps.count >= framesAtReconnect + 5)
        }
    }
}
