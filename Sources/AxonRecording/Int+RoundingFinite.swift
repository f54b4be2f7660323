extension Int {
    /// `value` rounded to the nearest whole number, or `nil` when it is NaN, infinite or beyond ±9·10¹⁵ (where a
    /// `Double` no longer holds every whole number): a sample index computed from a file's numbers, which may lie.
    init?(roundingFinite value: Double) {
        guard value.isFinite, abs(value) < 9e15 else { return nil }
        self = Int(value.rounded())
    }
}
