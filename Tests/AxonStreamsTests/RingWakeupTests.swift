// A consumer asleep on an empty ring is woken by the producer's next push, close or stop: never by its timeout.

import Foundation

import StreamTestSupport
import Testing

@testable import AxonStreams

@Suite("Ring wake-ups", .serialized)
struct RingWakeupTests {
    /// Starts a consumer thread that waits once with a long timeout and reports whether it was woken.
    static func sleeper(on ring: SPSCRing<Double>) -> (thread: Thread, woken: ThreadLocked<Bool?>, done: DispatchSemaphore) {
        let result = ThreadLocked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let woken = ring.waitForData(timeout: 30)
            result.withLock { $0 = woken }
            done.signal()
        }
        return (thread, result, done)
    }

    /// Starts a producer thread that waits once for `slots` free slots with a timeout far beyond the test (only a
    /// ring ends it in time) and reports whether the room was there; returns once it has said it is waiting.
    static func roomWaiter(on ring: SPSCRing<Double>, atLeast slots: Int) -> (result: ThreadLocked<Bool?>, done: DispatchSemaphore) {
        let result = ThreadLocked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let room = ring.waitForRoom(atLeast: slots, timeout: 60)
            result.withLock { $0 = room }
            done.signal()
        }.start()
        waitUntil(seconds: 30, interval: 0.001) { ring.producerWaiting.load(ordering: .relaxed) != 0 }
        return (result, done)
    }

    /// Waits until the consumer has said it is going to sleep.
    static func untilAsleep(_ ring: SPSCRing<Double>, sourceLocation: SourceLocation = #_sourceLocation) {
        waitUntil(seconds: 30, interval: 0.001, sourceLocation: sourceLocation) {
            ring.consumerAsleep.load(ordering: .relaxed) != 0
        }
    }

    @Test("a push, a close and a stop request each wake a sleeping consumer")
    func wakers() throws {
        for waker in ["push", "close", "stop"] {
            let ring = SPSCRing<Double>(capacity: 64, overflow: .rejectNewest, wakeable: true)
            #expect(ring.isWakeable)
            let (thread, woken, done) = Self.sleeper(on: ring)
            thread.start()
            Self.untilAsleep(ring)
            switch waker {
            case "push": ring.push(1.5)
            case "close": ring.closeProducer()
            default: ring.requestStop()
            }
            done.wait()
            #expect(woken.withLock { $0 } == true, "woken by \(waker)")
            // The flag is back down, so the next push does not ring.
            #expect(ring.consumerAsleep.load(ordering: .relaxed) == 0)
        }
    }

    @Test("a strategy that does not yield never sleeps, whatever its park and block settings")
    func busyWaitingNeverSleeps() {
        let ring = SPSCRing<Double>(capacity: 8, overflow: .rejectNewest, wakeable: true)
        // Yielding, these settings would block for 30 s (or park 1 s) in every round after the first.
        var idle = IdleStrategy(spins: 0, park: 1, blockTimeout: 30, yields: false)
        let start = HostClock.now()
        for _ in 0..<10_000 {
            idle.idle(waitingOn: ring)
            idle.idle()
        }
        #expect(HostClock.now() - start < 30, "an idle round slept")
        #expect(ring.consumerAsleep.load(ordering: .relaxed) == 0)
        #expect(IdleStrategy.polling.yields == false && IdleStrategy().yields)
    }

    @Test("a producer waiting for room is rung when a hand-back leaves the room it asked for, not before, and by a stop")
    func producerWaitsForRoom() throws {
        for lending in [false, true] {
            let ring = SPSCRing<Double>(capacity: 8, overflow: .rejectNewest, wakeable: true)
            for value in 0..<8 { #expect(ring.push(Double(value))) }
            let (result, done) = Self.roomWaiter(on: ring, atLeast: 4)
            func handBack(_ count: Int) {
                if lending {
                    #expect(ring.withOldestSlots(upTo: count) { _, _ in } == count)
                } else {
                    var out = [Double](repeating: 0, count: count)
                    #expect(out.withUnsafeMutableBufferPointer { ring.pop(into: $0) } == count)
                }
            }
            handBack(3)
            // Three free slots of the four asked for: the consumer did not ring, the producer still waits.
            #expect(ring.producerWaiting.load(ordering: .relaxed) == 4)
            #expect(result.withLock { $0 } == nil)
            handBack(1)
            done.wait()
            #expect(result.withLock { $0 } == true)
            #expect(ring.producerWaiting.load(ordering: .relaxed) == 0)
        }

        // A stop request ends the wait whatever the room.
        let ring = SPSCRing<Double>(capacity: 4, overflow: .rejectNewest, wakeable: true)
        for value in 0..<4 { #expect(ring.push(Double(value))) }
        let (result, done) = Self.roomWaiter(on: ring, atLeast: 2)
        ring.requestStop()
        done.wait()
        #expect(result.withLock { $0 } == false)
    }

    @Test("a producer waiting for the stop request is woken by it, and early by an interruption, never by its timeout")
    func producerWaits() {
        let ring = SPSCRing<Double>(capacity: 8, overflow: .rejectNewest)
        let results = ThreadLocked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let waiter = Thread {
            let started = Date()
            for _ in 0..<2 {
                let stopped = ring.waitForStopRequest(timeout: 30)
                results.withLock { $0.append(stopped) }
            }
            results.withLock { $0.append(Date().timeIntervalSince(started) < 20) }
            done.signal()
        }
        waiter.start()
        ring.interruptProducerWait()  // the first wait returns false: not a stop
        waitUntil(seconds: 30, interval: 0.001) { results.withLock { $0.count } >= 1 }
        ring.requestStop()
        done.wait()
        #expect(results.withLock { $0 } == [false, true, true])
        // Once stopped, waiting returns at once.
        #expect(ring.waitForStopRequest(timeout: 30))
    }

    @Test("20,000 frames at random intervals to a consumer that blocks between them: all arrive in order, no wait times out")
    func noLostWakeups() throws {
        let ring = SPSCRing<Double>(capacity: 256, width: 2, overflow: .rejectNewest, wakeable: true)
        let count = 20_000
        let received = ThreadLocked<(frames: Int, ordered: Bool, timeouts: Int, sleeps: Int)>((0, true, 0, 0))
        let done = DispatchSemaphore(value: 0)
        let consumer = Thread {
            var slot = [Double](repeating: 0, count: 2)
            var next = 0.0
            var state = (frames: 0, ordered: true, timeouts: 0, sleeps: 0)
            while true {
                if slot.withUnsafeMutableBufferPointer({ ring.pop(into: $0) }) == 1 {
                    state.ordered = state.ordered && slot[0] == next && slot[1] == -next
                    next += 1
                    state.frames += 1
                } else if ring.isFinished {
                    break
                } else {
                    state.sleeps += 1
                    // A wait that runs its full 10 s would be a lost wake-up.
                    if !ring.waitForData(timeout: 10) { state.timeouts += 1 }
                }
            }
            received.withLock { $0 = state }
            done.signal()
        }
        consumer.start()
        var random = SplitMix64(seed: 7)
        for index in 0..<count {
            // Sometimes straight on, sometimes after the consumer has had time to fall asleep.
            let pause = random.next() % 4 == 0 ? Int(random.next() % 200) : 0
            for _ in 0..<pause { sched_yield() }
            let frame = [Double(index), -Double(index)]
            while frame.withUnsafeBufferPointer({ ring.push(contentsOf: $0) }) == 0 { sched_yield() }
        }
        ring.closeProducer()
        done.wait()
        let state = received.withLock { $0 }
        #expect(state.frames == count && state.ordered)
        #expect(state.timeouts == 0)
        #expect(state.sleeps > 0)
    }

    @Test("a ring made without wake-ups naps for the timeout instead")
    func notWakeable() {
        let ring = SPSCRing<Double>(capacity: 8, overflow: .rejectNewest)
        #expect(!ring.isWakeable)
        #expect(ring.waitForData(timeout: 0.001) == false)
    }
}
