import AxonBench
import Testing

/// The counter is process-wide and tests run in parallel with others, so only a lower bound is checked: other
/// threads can add allocations to a region, never remove them.
@Suite("Allocation counter")
struct AllocationCounterTests {
    @Test("counts every allocation of a loop that allocates", .enabled(if: AllocationCounter.isEnabled))
    func countsAllocations() {
        var kept = 0
        let perIteration = AllocationCounter.perUnit(1000) {
            for index in 0..<1000 {
                // One heap block per iteration through the Swift runtime's allocator (malloc underneath).
                let block = UnsafeMutablePointer<Int>.allocate(capacity: 64 + index % 7)
                block.initialize(to: index + 1)
                kept &+= block.pointee
                block.deallocate()
            }
        }
        #expect(kept != 0)
        #expect(perIteration != nil)
        #expect((perIteration ?? 0) >= 1)
    }
}
