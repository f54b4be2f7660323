import AxonBluetooth
import AxonBrainiac
import AxonDevices
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// A Brainiac session over BlueZ while the daemons under it fail: bluetoothd killed and restarted ten times, and the
/// dbus-daemon itself killed.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct BlueZFaultTests {
    /// A started session that has connected and delivered its first second of data.
    static func streamingRun(_ bed: BlueZTestBed) async throws -> HeadsetRun {
        let run = try await HeadsetRun(bed: bed)
        try run.start()
        #expect(await run.waitForEvent(after: 0, seconds: 20) { $0 == .ready } != nil, "the first connection")
        #expect(await run.gaps.waitForFrames(250, seconds: 10), "a first second of data")
        return run
    }

    /// SIGKILLs the bus under a running session; returns when it was killed and when the session reported the lost
    /// bus as an error event.
    static func killBus(_ bed: BlueZTestBed, under run: HeadsetRun) async throws -> (killed: Double, error: Double) {
        let killed = HostClock.now()
        bed.killBus()
        let error = await run.waitForEvent(after: killed, seconds: 10) {
            if case .error(let text) = $0 { return text.contains("D-Bus connection was lost") }
            return false
        }
        return (killed, try #require(error, "no error link event after the bus died"))
    }

    /// Ten bluetoothd crashes (SIGKILL) and restarts under one running session. Each time the session notices the
    /// service vanish, reconnects to the new bluetoothd by itself, streams again (a second of data reaches the
    /// sinks), and the loss is one link-loss gap record. Reports the time from the new bluetoothd owning
    /// `org.bluez` to streaming (`ready`), p50 and max.
    @Test("bluetoothd restarted 10 times: the session reconnects each time, one link-loss gap per restart")
    func tenBluetoothdRestarts() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let run = try await Self.streamingRun(bed)

        var resumeTimes: [Double] = []
        for restart in 1...10 {
            let killed = HostClock.now()
            bed.killMock()
            let vanished = await run.waitForEvent(after: killed, seconds: 10) { $0 == .serviceVanished }
            #expect(vanished != nil, "restart \(restart): the service vanishing was not seen")
            try bed.startMock()
            let restarted = HostClock.now()
            let ready = await run.waitForEvent(after: killed, seconds: 20) { $0 == .ready }
            let readyTime = try #require(ready, "restart \(restart): no reconnection within 20 s")
            // The central may see the new bluetoothd's name before startMock() returns: ready can precede `restarted`.
            resumeTimes.append(max(0, readyTime - restarted))
            let frames = run.gaps.frames.withLock { $0 }
            #expect(await run.gaps.waitForFrames(frames + 250, seconds: 10), "restart \(restart): no data after it")
        }
        let decoded = run.source.state().statistics
        await run.stop()

        let gaps = run.gaps.gaps.withLock { $0 }
        #expect(gaps.count == 10, "\(gaps)")
        #expect(gaps.allSatisfy { $0.cause == .linkLoss }, "\(gaps)")
        #expect(decoded.rejectedNotifications == 0)
        let sorted = resumeTimes.sorted()
        let p50 = sorted[sorted.count / 2]
        let maximum = sorted.last ?? 0
        #expect(maximum < 5, "\(resumeTimes)")
        print(
            "bluetoothd ×10: streaming resumed p50 \(String(format: "%.3f", p50)) s, max \(String(format: "%.3f", maximum)) s "
                + "after the new bluetoothd was up; \(gaps.count) link-loss gaps, "
                + "spanning \(String(format: "%.2f", gaps.map { $0.end - $0.start }.reduce(0, +))) s in all "
                + "(the new bluetoothd's headset starts afresh, so \(gaps.map(\.missingCount).reduce(0, +)) samples are "
                + "counted missing), "
                + "\(run.gaps.frames.withLock { $0 }) delivered")
    }

    /// The private dbus-daemon SIGKILLed under a session on a ``BusRecoveringTransport``, then started again at the
    /// same address with a new bluetoothd: the error is reported, the loss is a link-loss gap record, and the session
    /// streams again by itself. Reports the time from the bus's return to streaming.
    @Test("dbus-daemon killed and started again: a clear error, one link-loss gap, and streaming resumes by itself")
    func dbusDaemonReturns() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let run = try await HeadsetRun(bed: bed, recoveringBus: true)
        try run.start()
        #expect(await run.waitForEvent(after: 0, seconds: 20) { $0 == .ready } != nil, "the first connection")
        #expect(await run.gaps.waitForFrames(250, seconds: 10), "a first second of data")

        let (killed, errorTime) = try await Self.killBus(bed, under: run)
        let lost = await run.waitForEvent(after: killed, seconds: 10) {
            if case .linkLost = $0 { return true }
            return false
        }
        #expect(lost != nil, "no link loss after the bus died")
        let framesBefore = run.gaps.frames.withLock { $0 }
        try bed.restartBus()
        let back = HostClock.now()
        let ready = await run.waitForEvent(after: killed, seconds: 30) { $0 == .ready }
        let readyTime = try #require(ready, "not streaming again within 30 s of the bus's return")
        #expect(await run.gaps.waitForFrames(framesBefore + 250, seconds: 10), "no data after the bus returned")
        // The recovery thread counts a recovery once the new transport's open returns, which can be after its first
        // notifications have arrived here.
        let transport = try #require(run.transport as? BusRecoveringTransport)
        _ = try await waitUntil(seconds: 10, onTimeout: .returnFalse) { transport.recoveries >= 1 }
        let recoveries = transport.recoveries
        // The lost bus closed the first connection's transport, but the session's transport stayed open.
        let closedEarly = run.linkEvents.withLock { $0 }.contains { $0.1 == .closed }
        await run.stop()
        #expect(!closedEarly)

        let gaps = run.gaps.gaps.withLock { $0 }
        #expect(gaps.count == 1 && gaps.allSatisfy { $0.cause == .linkLoss }, "\(gaps)")
        #expect(recoveries == 1)
        print(
            "dbus-daemon killed and restarted: error event after \(String(format: "%.3f", errorTime - killed)) s; "
                + "streaming again \(String(format: "%.3f", max(0, readyTime - back))) s after the bus and bluetoothd "
                + "were back; \(gaps.count) link-loss gap of \(gaps.map(\.missingCount).reduce(0, +)) samples; "
                + "\(run.gaps.frames.withLock { $0 }) frames delivered")
    }

    /// The private dbus-daemon SIGKILLed under a streaming session: the transport reports the lost bus as an error
    /// link event and closes, the session stops without hanging, and this process goes on (a new bus and a new
    /// session stream again).
    @Test("dbus-daemon killed: a clear error, the session stops without hanging, the process goes on")
    func dbusDaemonLoss() async throws {
        let bed = try BlueZTestBed()
        defer { bed.stop() }
        let run = try await Self.streamingRun(bed)

        let (killed, errorTime) = try await Self.killBus(bed, under: run)
        let closed = await run.waitForEvent(after: killed, seconds: 10) { $0 == .closed }
        #expect(closed != nil)
        let stopping = HostClock.now()
        await run.stop()
        let stopSeconds = HostClock.now() - stopping
        #expect(stopSeconds < 5, "stopping took \(stopSeconds) s")
        let framesAfter = run.gaps.frames.withLock { $0 }

        // The process is fine: a fresh bus, bluetoothd and session stream as before.
        let second = try BlueZTestBed()
        defer { second.stop() }
        let again = try await HeadsetRun(bed: second)
        try again.start()
        #expect(await again.gaps.waitForFrames(250, seconds: 20))
        await again.stop()
        print(
            "dbus-daemon killed: error event after \(String(format: "%.3f", errorTime - killed)) s, session stopped in "
                + "\(String(format: "%.3f", stopSeconds)) s with \(framesAfter) frames delivered; a new bus streamed "
                + "\(again.gaps.frames.withLock { $0 }) frames")
    }
}
