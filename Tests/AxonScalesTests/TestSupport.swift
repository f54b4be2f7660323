@testable import AxonScales

/// Bytes from "A0 3C …".
func hex(_ text: String) -> [UInt8] { text.split(separator: " ").map { UInt8($0, radix: 16)! } }

/// Whether two optional values agree to 1e-9 (both nil counts).
func close(_ a: Double?, _ b: Double?, tolerance: Double = 1e-9) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): abs(a - b) <= tolerance
    default: false
    }
}

/// The malformed-data problem of a thrown error, or nil.
func problem(_ body: () throws -> Void) -> ScaleDataProblem? {
    do {
        try body()
        return nil
    } catch {
        if case .malformed(_, let problem)? = error as? ScaleError { return problem }
        return nil
    }
}

/// The ScaleError thrown by `body`, or nil.
func scaleError(_ body: () async throws -> Void) async -> ScaleError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? ScaleError
    }
}
