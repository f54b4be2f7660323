import ArgumentParser

/// Parses a `--range LOW,HIGH` option (a physical range for EDF/BDF channels).
enum PhysicalRangeOption {
    /// The range, `nil` when the option was not given.
    static func parse(_ text: String?) throws -> ClosedRange<Double>? {
        guard let text else { return nil }
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, parts[0] < parts[1], parts.allSatisfy(\.isFinite) else {
            throw ValidationError("--range needs LOW,HIGH with LOW < HIGH, e.g. --range -500,500")
        }
        return parts[0]...parts[1]
    }
}
