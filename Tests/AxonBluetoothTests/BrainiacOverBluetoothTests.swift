import AxonBluetooth
import AxonBrainiac
import AxonDevices
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// The Brainiac headset end to end over BlueZ's D-Bus API (the mock bluetoothd on a private bus): discovery,
/// connection, notifications at 250/s through the decoder, ring and engine into an EDF+ file — and the link
/// surviving link loss, a bluetoothd restart, malformed notifications and failing connects.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct BrainiacOverBluetoothTests {
    @Test func sixtySecondsOfTheTestSignalArriveWhole() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let run = try await HeadsetRun(bed: bed)
        try run.start()
        let cpuStart = run.central.bus.ownerThreadCPUSeconds
        let wallStart = HostClock.now()
        try await Task.sleep(for: .seconds(60))
        let cpu = run.central.bus.ownerThreadCPUSeconds - cpuStart
        let wall = HostClock.now() - wallStart
        // The headset goes out of range so nothing more is sent; then wait until what was sent has arrived.
        try await bed.control("SetInRange", [.string(BlueZTestBed.brainiacAddress), .boolean(false)])
        let stats = try await bed.stats()
        let sent = stats["sent"]?.integerValue ?? -1
        _ = try await waitUntil(seconds: 10, onTimeout: .returnFalse) {
            run.source.state().statistics.decodedNotifications >= sent
        }
        let decoder = run.source.state().statistics
        await run.stop()

        // Every notification the device sent was decoded: none lost, by the hardware order number too.
        #expect(decoder.decodedNotifications == sent)
        #expect(decoder.skippedOrderNumbers == 0)
        #expect(decoder.rejectedNotifications == 0)
        #expect(run.gaps.gaps.withLock { $0 }.isEmpty)
        #expect(decoder.samples >= 59 * 250)
        print("BLE stream: \(sent) notifications sent, \(decoder.decodedNotifications) decoded, \(decoder.skippedOrderNumbers) order numbers skipped, \(decoder.samples) samples")
        let alpha = run.dominantAlpha.withLock { $0 }
        #expect(alpha.count >= 4 * 55)
        #expect(alpha.allSatisfy { abs($0 - 10) <= 0.05 }, "7–13 Hz dominant frequencies: \(Set(alpha.map { ($0 * 1000).rounded() / 1000 }))")
        print("BLE client: \(sent) notifications in \(String(format: "%.1f", wall)) s; D-Bus owner thread (reads, parses, decodes into the ring) used \(String(format: "%.3f", cpu)) s CPU = \(String(format: "%.2f", 100 * cpu / wall)) % of one core")
        if PyEDFLib.available {
            let file = try PyEDFLib.read(run.edfPath)
            #expect(file.labels == ["T3", "O1", "T4", "O2"])
            #expect(file.samples >= 59 * 250)
        }
    }

    @Test func linkLossIsOneGapAndStreamingResumesWithoutANewStartNotify() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let run = try await HeadsetRun(bed: bed)
        try run.start()
        try await Task.sleep(for: .seconds(20))
        let startNotifyBefore = try await bed.stats()["startNotifyCalls"]?.integerValue ?? 0
        try await bed.control("LinkLoss", [.string(BlueZTestBed.brainiacAddress), .double(3)])
        let lossTime = HostClock.now()
        try await Task.sleep(for: .seconds(10))
        // Nothing more is sent once the headset is out of range again; then wait until all of it has arrived.
        try await bed.control("SetInRange", [.string(BlueZTestBed.brainiacAddress), .boolean(false)])
        let stats = try await bed.stats()
        let sentInAll = stats["sent"]?.integerValue ?? -1
        _ = try await waitUntil(seconds: 10, onTimeout: .returnFalse) {
            run.source.state().statistics.decodedNotifications >= sentInAll
        }
        let decodedBeforeStop = run.source.state().statistics.decodedNotifications
        await run.stop()

        let back = lossTime + 3
        let resumed = run.firstEvent(after: lossTime) { $0 == .ready }
        let resumeDelay = try #require(resumed) - back
        #expect(resumeDelay < 2, "streaming resumed \(resumeDelay) s after the device returned")
        print("link loss: streaming resumed \(String(format: "%.2f", resumeDelay)) s after the device returned")
        let gaps = run.gaps.gaps.withLock { $0 }
        #expect(gaps.count == 1)
        #expect(gaps.first?.cause == .linkLoss)
        // About 3 s of samples at 250 Hz plus the reconnection time.
        #expect((750...(250 * 6)).contains(gaps.first?.missingCount ?? 0))
        // The client asked once per connection at most; resumption needs nothing from the test.
        let startNotifyAfter = stats["startNotifyCalls"]?.integerValue ?? 0
        #expect(startNotifyAfter - startNotifyBefore <= 1)
        #expect(decodedBeforeStop == stats["sent"]?.integerValue)
        // The seed's disconnect/connect sequence (the headset's own status packets may come in between).
        let statuses = run.statuses.withLock { $0 }
        let afterLoss = Array(statuses.drop { $0 != .dataTransferAborted })
        #expect(afterLoss.starts(with: [.dataTransferAborted, .peripheralDisconnected, .connectingToPeripheral]))
        #expect(afterLoss.contains(.connectToPeripheralFailed))
        let tail = Array(afterLoss.drop { $0 != .connectToPeripheralSuccessful })
        #expect(isSubsequence([.connectToPeripheralSuccessful, .connectingToService, .connectToServiceSuccessful,
                               .characteristicDiscovered, .dataTransferStarted, .ready], of: tail), "\(tail)")
        if PyEDFLib.available {
            let annotations = try PyEDFLib.read(run.edfPath).annotations.filter { $0.hasPrefix("gap:") }
            #expect(annotations.count == 1, "\(annotations)")
            #expect(annotations.first?.contains("linkLoss") == true)
        }
    }

    @Test func bluetoothdRestartIsSurvived() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let run = try await HeadsetRun(bed: bed)
        try run.start()
        #expect(await run.gaps.waitForFrames(3 * 250, seconds: 20), "three seconds of data before the kill")
        let killed = HostClock.now()
        bed.killMock()
        #expect(await run.waitForEvent(after: killed, seconds: 10) { $0 == .serviceVanished } != nil)
        try bed.startMock()
        let restarted = HostClock.now()
        // Streaming again, and three seconds of the new bluetoothd's notifications decoded.
        _ = await run.waitForEvent(after: restarted, seconds: 20) { $0 == .ready }
        let notificationsAtReady = run.source.state().statistics.eegNotifications
        _ = try await waitUntil(seconds: 20, onTimeout: .returnFalse) {
            run.source.state().statistics.eegNotifications >= notificationsAtReady + 3 * 250
        }
        let decodedAfter = run.source.state().statistics.eegNotifications
        let stats = try await bed.stats()
        await run.stop()

        #expect(run.firstEvent(after: killed) { $0 == .serviceVanished } != nil)
        // The central may see the new bluetoothd take its name before startMock() returns: after the kill is what
        // counts (the vanish was seen after it too).
        #expect(run.firstEvent(after: killed) { $0 == .serviceReturned } != nil)
        let resumed = try #require(run.firstEvent(after: restarted) { $0 == .ready })
        print("bluetoothd restart: streaming resumed \(String(format: "%.2f", resumed - restarted)) s after the new bluetoothd owned org.bluez")
        // The new bluetoothd's notifications reached the decoder.
        #expect((stats["sent"]?.integerValue ?? 0) > 0)
        #expect(decodedAfter > 3 * 250 - 50)
        let gaps = run.gaps.gaps.withLock { $0 }
        #expect(gaps.count == 1 && gaps.first?.cause == .linkLoss)
    }

    @Test func malformedNotificationsAreCountedAndTheStreamContinues() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let run = try await HeadsetRun(bed: bed)
        try run.start()
        #expect(await run.gaps.waitForFrames(250, seconds: 20), "a first second of data")
        let data = BrainiacGATTProfile().data.string
        let malformed: [[UInt8]] = [[], [0x01, 0x01, 0x00], Array(repeating: 0xA5, count: 200), [0x01] + Array(repeating: 0x00, count: 40),
                                    (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }]
        for bytes in malformed {
            let sent = try await bed.control("SendRaw", [.string(BlueZTestBed.brainiacAddress), .string(data), .bytes(bytes)])
            #expect(sent.first?.boolValue == true)
        }
        _ = try await waitUntil(seconds: 10, onTimeout: .returnFalse) {
            run.source.state().statistics.rejectedNotifications >= malformed.count
        }
        let before = run.source.state().statistics.eegNotifications
        _ = try await waitUntil(seconds: 10, onTimeout: .returnFalse) {
            run.source.state().statistics.eegNotifications > before + 200
        }
        let state = run.source.state().statistics
        await run.stop()
        #expect(state.rejectedNotifications == malformed.count)
        #expect(run.rejected.withLock { $0.count } == malformed.count)
        #expect(state.eegNotifications > before + 200)
    }

    @Test func failingConnectsAreRetriedWithBackoffAndReported() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        try await bed.control("FailNextConnects", [.string(BlueZTestBed.brainiacAddress), .uint32(3)])
        let run = try await HeadsetRun(bed: bed)
        try run.start()
        // Three refused connects (0.25 + 0.5 + 1 s of backoff), then streaming.
        _ = try await waitUntil(seconds: 20, onTimeout: .returnFalse) {
            run.source.state().statistics.eegNotifications > 250
        }
        let decoded = run.source.state().statistics.eegNotifications
        await run.stop()
        let failures = run.linkEvents.withLock { $0 }.compactMap { event -> (String, Double)? in
            if case .connectFailed(let reason, let retryIn) = event.1 { return (reason, retryIn) }
            return nil
        }
        #expect(failures.count == 3)
        #expect(failures.allSatisfy { $0.0.contains("le-connection-abort-by-local") })
        #expect(failures.map(\.1) == [0.25, 0.5, 1])
        #expect(run.statuses.withLock { $0 }.filter { $0 == .connectToPeripheralFailed }.count == 3)
        #expect(decoded > 250)
    }
}

/// Whether `needle` appears in `haystack` in order, not necessarily contiguously.
func isSubsequence<T: Equatable>(_ needle: [T], of haystack: [T]) -> Bool {
    var rest = haystack[...]
    for item in needle {
        guard let index = rest.firstIndex(of: item) else { return false }
        rest = rest[(index + 1)...]
    }
    return true
}
