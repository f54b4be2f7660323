// AxonDSP — the robust statistics of ASR calibration: a geometric median of matrices and an in-place median.

extension ASRCalibrator {
    /// Weiszfeld's iteration for the geometric median of the first `blockCount` packed block covariances, into
    /// `median`: start from their mean, then repeatedly take the mean weighted by the inverse Frobenius distance to
    /// the current estimate, until a step moves it by less than 10⁻⁷ of its norm (or after 500 steps).
    ///
    /// Distances count each off-diagonal entry twice, as the full symmetric matrix would. A block that coincides
    /// with the estimate gets a distance floor instead of an infinite weight.
    func geometricMedian(blockCount: Int) {
        let n = packedCount
        median.update(repeating: 0)
        for block in 0..<blockCount {
            let row = block * n
            for p in 0..<n { median[p] += blocks[row + p] }
        }
        for p in 0..<n { median[p] /= Double(max(blockCount, 1)) }
        var norm = 0.0
        for p in 0..<n { norm += packedWeights[p] * median[p] * median[p] }
        let floor = max(norm.squareRoot(), Double.leastNormalMagnitude) * 1e-12
        medianIterations = 0
        for _ in 0..<500 {
            medianIterations += 1
            numerator.update(repeating: 0)
            var denominator = 0.0
            for block in 0..<blockCount {
                let row = block * n
                var squared = 0.0
                for p in 0..<n {
                    let d = blocks[row + p] - median[p]
                    squared += packedWeights[p] * d * d
                }
                let inverse = 1 / max(squared.squareRoot(), floor)
                for p in 0..<n { numerator[p] += inverse * blocks[row + p] }
                denominator += inverse
            }
            var step = 0.0
            var size = 0.0
            for p in 0..<n {
                let next = numerator[p] / denominator
                let d = next - median[p]
                step += packedWeights[p] * d * d
                size += packedWeights[p] * next * next
                median[p] = next
            }
            if step.squareRoot() <= 1e-7 * size.squareRoot() { break }
        }
    }

    /// The median of `values[0..<count]`, reordering them in place (Hoare's selection; no allocation).
    ///
    /// - Precondition: `count ≥ 1`.
    static func median(_ values: UnsafeMutablePointer<Double>, count: Int) -> Double {
        let upper = select(values, count: count, rank: count / 2)
        guard count % 2 == 0 else { return upper }
        // The lower middle is the largest value left of the upper middle after the selection.
        var lower = values[0]
        for i in 1..<(count / 2) { lower = max(lower, values[i]) }
        return (lower + upper) / 2
    }

    /// The value of rank `rank` (0-based) of `values[0..<count]`; afterwards every value left of `rank` is
    /// at most it and every value right of it at least it.
    static func select(_ values: UnsafeMutablePointer<Double>, count: Int, rank: Int) -> Double {
        var low = 0
        var high = count - 1
        while low < high {
            // Median of three as the pivot keeps sorted input from degrading to quadratic time.
            let middle = low + (high - low) / 2
            if values[middle] < values[low] { values.swapAt(middle, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[middle] { values.swapAt(high, middle) }
            let pivot = values[middle]
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if rank <= j {
                high = j
            } else if rank >= i {
                low = i
            } else {
                return values[rank]
            }
        }
        return values[rank]
    }
}

extension UnsafeMutablePointer where Pointee == Double {
    /// Exchanges two elements.
    @inline(__always)
    fileprivate func swapAt(_ a: Int, _ b: Int) {
        let t = self[a]
        self[a] = self[b]
        self[b] = t
    }
}
