// FrameWriter's batched write: the same slots, sequence numbers and link-loss mark as one write per frame.

import Testing

@testable import AxonStreams

@Suite("FrameWriter: frames written in one push")
struct FrameWriterBatchTests {
    static let channels = 3

    /// Pops every slot of `ring` as rows.
    static func drain(_ ring: SPSCRing<Double>) -> [[Double]] {
        var rows: [[Double]] = []
        var slot = [Double](repeating: 0, count: ring.width)
        while slot.withUnsafeMutableBufferPointer({ ring.pop(into: $0) }) == 1 { rows.append(slot) }
        return rows
    }

    @Test("a batch from rows with a stride and an offset fills each slot as single writes would, the mark on its first frame only")
    func batchEqualsSingleWrites() {
        let layout = FrameLayout(channelCount: Self.channels)
        // Rows of 5 doubles: a leading field, three channels, a trailing field.
        let rows: [Double] = (0..<(4 * 5)).map { Double($0) }
        let batched = SPSCRing<Double>(capacity: 8, width: layout.width, overflow: .rejectNewest)
        let single = SPSCRing<Double>(capacity: 8, width: layout.width, overflow: .rejectNewest)
        let writers = (FrameWriter(ring: batched, layout: layout), FrameWriter(ring: single, layout: layout))
        writers.0.noteLinkLoss()
        writers.1.noteLinkLoss()
        let stored = rows.withUnsafeBufferPointer {
            writers.0.write(
                frames: $0, count: 4, stride: 5, valueOffset: 1, deviceTime: { 10 + Double($0) },
                counter: { $0 == 2 ? nil : UInt64(100 + $0) }, arrivalTime: { 20 + Double($0) / 4 })
        }
        #expect(stored == 4)
        for i in 0..<4 {
            let values = Array(rows[(i * 5 + 1)..<(i * 5 + 4)])
            writers.1.write(
                values, deviceTime: 10 + Double(i), counter: i == 2 ? nil : UInt64(100 + i), arrivalTime: 20 + Double(i) / 4)
        }
        let (a, b) = (Self.drain(batched), Self.drain(single))
        #expect(a.count == 4 && a.count == b.count)
        for (x, y) in zip(a, b) {
            #expect(zip(x, y).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "\(x) vs \(y)")
        }
        #expect(a[0][FrameLayout.timestampLane] == FrameLayout.linkLossMarker)
        #expect(a[1...].allSatisfy { $0[FrameLayout.timestampLane].isNaN })
        #expect(a.map { $0[FrameLayout.sequenceLane] } == [0, 1, 2, 3])
    }

    @Test("frames that do not fit are rejected and counted, and still take their sequence numbers (a gap downstream)")
    func overflowTakesSequenceNumbers() {
        let layout = FrameLayout(channelCount: Self.channels)
        let ring = SPSCRing<Double>(capacity: 4, width: layout.width, overflow: .rejectNewest)
        let writer = FrameWriter(ring: ring, layout: layout)
        let rows = [Double](repeating: 1.5, count: 4 * Self.channels)
        let first = rows.withUnsafeBufferPointer {
            writer.write(frames: $0, count: 3, stride: Self.channels, deviceTime: { _ in nil }, counter: { _ in nil },
                         arrivalTime: { Double($0) })
        }
        let second = rows.withUnsafeBufferPointer {
            writer.write(frames: $0, count: 4, stride: Self.channels, deviceTime: { _ in nil }, counter: { _ in nil },
                         arrivalTime: { Double($0) })
        }
        #expect(first == 3 && second == 1)
        #expect(ring.droppedCount == 3 && ring.receivedCount == 7)
        writer.write([2, 2, 2])  // rejected too: the ring is full
        #expect(ring.droppedCount == 4)
        _ = Self.drain(ring)
        writer.write([3, 3, 3])
        let rowsOut = Self.drain(ring)
        #expect(rowsOut.map { $0[FrameLayout.sequenceLane] } == [8])
    }

    @Test("drop-oldest makes room for a whole batch by discarding the oldest slots")
    func dropOldestKeepsTheBatch() {
        let layout = FrameLayout(channelCount: 1)
        let ring = SPSCRing<Double>(capacity: 4, width: layout.width, overflow: .dropOldest)
        let writer = FrameWriter(ring: ring, layout: layout)
        let values: [Double] = [1, 2, 3, 4, 5, 6]
        values.withUnsafeBufferPointer { all in
            _ = writer.write(frames: UnsafeBufferPointer(rebasing: all[0..<3]), count: 3, stride: 1,
                             deviceTime: { _ in nil }, counter: { _ in nil }, arrivalTime: { _ in 0 })
            let stored = writer.write(frames: UnsafeBufferPointer(rebasing: all[3..<6]), count: 3, stride: 1,
                                      deviceTime: { _ in nil }, counter: { _ in nil }, arrivalTime: { _ in 0 })
            #expect(stored == 3)
        }
        let rows = Self.drain(ring)
        #expect(rows.map { $0[FrameLayout.headerLanes] } == [3, 4, 5, 6])
        #expect(ring.droppedCount == 2)
    }
}
