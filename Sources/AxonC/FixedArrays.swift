// AxonC — the header's fixed-size C arrays (`double x[AXON_MAX_BANDS]`), which Swift imports as tuples.

/// Calls `body` with the doubles of a C array member (a homogeneous tuple of `Double`) as a buffer.
func withDoubles<Tuple, Result>(
    _ array: inout Tuple, _ body: (UnsafeMutableBufferPointer<Double>) throws -> Result
) rethrows -> Result {
    try withUnsafeMutableBytes(of: &array) { bytes in
        try body(bytes.bindMemory(to: Double.self))
    }
}

/// Sets a C array member of doubles: `value(i)` for `i < count`, NaN beyond (the unused entries).
func setDoubles<Tuple>(_ array: inout Tuple, count: Int, _ value: (Int) -> Double) {
    withDoubles(&array) { doubles in
        for index in doubles.indices { doubles[index] = index < count ? value(index) : .nan }
    }
}
