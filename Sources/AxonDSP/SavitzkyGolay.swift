// AxonDSP — Savitzky–Golay smoothing and derivatives of an evenly spaced sequence.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Savitzky–Golay filter: at each point, the least-squares polynomial of degree ``order`` through the
/// ``frameWidth`` points around it, evaluated there (or its first or second derivative). At the first and last
/// `frameWidth / 2` points the polynomial fitted to the first (last) `frameWidth` points is evaluated at each of
/// them (SciPy's `mode="interp"`), so the ends are not pulled towards zero.
///
/// Threading: an immutable value, `Sendable`. ``apply(to:derivative:spacing:)`` allocates its result.
public struct SavitzkyGolay: Sendable, Hashable {
    /// Points per fit (odd).
    public let frameWidth: Int
    /// The polynomial's degree.
    public let order: Int

    /// Creates a filter.
    ///
    /// - Throws: ``DSPError/invalidSize(size:minimum:)`` unless `frameWidth` is odd, at least 3 and greater than
    ///   `order`, and `order ≥ 2` (the second derivative needs it).
    public init(frameWidth: Int, order: Int) throws(DSPError) {
        guard frameWidth >= 3, frameWidth % 2 == 1 else { throw .invalidSize(size: frameWidth, minimum: 3) }
        guard order >= 2, order < frameWidth else { throw .invalidSize(size: order, minimum: 2) }
        self.frameWidth = frameWidth
        self.order = order
    }

    /// The smoothed values (`derivative` 0), or their first or second derivative with respect to the abscissa
    /// when the points lie `spacing` apart.
    ///
    /// - Precondition: `values.count >= frameWidth` and `derivative` is 0, 1 or 2.
    public func apply(to values: [Double], derivative: Int = 0, spacing: Double = 1) -> [Double] {
        precondition(values.count >= frameWidth && (0...2).contains(derivative))
        let half = frameWidth / 2
        let scale = 1 / pow(spacing, Double(derivative))
        var result = [Double](repeating: 0, count: values.count)
        let centre = weights(evaluatedAt: 0, derivative: derivative)
        for index in half..<(values.count - half) {
            var total = 0.0
            for offset in 0..<frameWidth { total += centre[offset] * values[index - half + offset] }
            result[index] = total * scale
        }
        for index in 0..<half {
            let first = weights(evaluatedAt: Double(index - half), derivative: derivative)
            let last = weights(evaluatedAt: Double(half - index), derivative: derivative)
            var head = 0.0
            var tail = 0.0
            for offset in 0..<frameWidth {
                head += first[offset] * values[offset]
                tail += last[offset] * values[values.count - frameWidth + offset]
            }
            result[index] = head * scale
            result[values.count - 1 - index] = tail * scale
        }
        return result
    }

    /// The weights that, applied to the `frameWidth` points at abscissae `−half…half`, give the fitted polynomial's
    /// `derivative` at `x`: row `derivative` of the monomials' derivatives at `x` times `(AᵀA)⁻¹Aᵀ`.
    func weights(evaluatedAt x: Double, derivative: Int) -> [Double] {
        let half = frameWidth / 2
        let terms = order + 1
        let abscissae = (-half...half).map(Double.init)
        // The normal equations' matrix AᵀA, Σ t^(i+j).
        var gram = [Double](repeating: 0, count: terms * terms)
        for i in 0..<terms {
            for j in 0..<terms { gram[i * terms + j] = abscissae.reduce(0) { $0 + pow($1, Double(i + j)) } }
        }
        // d/dx^derivative of the monomials at x: e[m] = m!/(m−d)! · x^(m−d).
        var evaluation = [Double](repeating: 0, count: terms)
        for m in derivative..<terms {
            var factor = 1.0
            for step in 0..<derivative { factor *= Double(m - step) }
            evaluation[m] = factor * pow(x, Double(m - derivative))
        }
        // Solve (AᵀA)·z = e (symmetric), then the weight of point t is Σ z[m]·t^m.
        let z = Self.solve(gram, evaluation, size: terms)
        return abscissae.map { t in (0..<terms).reduce(0) { $0 + z[$1] * pow(t, Double($1)) } }
    }

    /// Gaussian elimination with partial pivoting on a small dense system.
    static func solve(_ matrix: [Double], _ vector: [Double], size: Int) -> [Double] {
        var a = matrix
        var b = vector
        for column in 0..<size {
            var pivot = column
            for row in (column + 1)..<size where abs(a[row * size + column]) > abs(a[pivot * size + column]) {
                pivot = row
            }
            if pivot != column {
                for k in 0..<size { a.swapAt(column * size + k, pivot * size + k) }
                b.swapAt(column, pivot)
            }
            for row in (column + 1)..<size {
                let factor = a[row * size + column] / a[column * size + column]
                for k in column..<size { a[row * size + k] -= factor * a[column * size + k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: size)
        for row in stride(from: size - 1, through: 0, by: -1) {
            var total = b[row]
            for k in (row + 1)..<size { total -= a[row * size + k] * x[k] }
            x[row] = total / a[row * size + row]
        }
        return x
    }
}
