// AxonSensors — why a sensor description file was refused.

/// One thing wrong in a sensor description, at its path in the file (`layout.binary.samples.fields[1].bits`).
///
/// Threading: a value type; share freely.
public struct SensorDescriptionProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where in the file: member names joined by `.`, list positions in brackets; empty for the whole file.
    public var path: String
    /// What is wrong there.
    public var problem: Problem

    /// What can be wrong with a field.
    public enum Problem: Sendable, Hashable {
        /// A field the format needs is not there.
        case missing
        /// The field is of another JSON type (`expected` says which).
        case wrongType(expected: String, found: String)
        /// The format has no field of this name (a typo, or a field of another transport or layout).
        case unknownField
        /// The value is of the right type but not acceptable (`reason` says why).
        case invalid(reason: String)
    }

    /// A problem at `path`.
    public init(path: String, _ problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// A sentence for people.
    public var description: String {
        let place = path.isEmpty ? "the file" : path
        switch problem {
        case .missing: return "\(place): missing"
        case .wrongType(let expected, let found): return "\(place): must be \(expected), not \(found)"
        case .unknownField: return "\(place): not a field of the format (docs/sensors.md lists them)"
        case .invalid(let reason): return "\(place): \(reason)"
        }
    }
}

/// Why a sensor description could not be used: the file is not JSON, or its fields are wrong (every problem found,
/// each with its path).
///
/// Threading: a value type; share freely.
public enum SensorDescriptionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The bytes are not a JSON document (`reason` is the parser's).
    case notJSON(reason: String)
    /// The document is JSON but not a valid description.
    case invalid([SensorDescriptionProblem])

    /// The problems found (one for an unreadable file or bad JSON).
    public var problems: [SensorDescriptionProblem] {
        switch self {
        case .unreadable(_, let reason): [SensorDescriptionProblem(path: "", .invalid(reason: reason))]
        case .notJSON(let reason): [SensorDescriptionProblem(path: "", .invalid(reason: "not JSON: \(reason)"))]
        case .invalid(let problems): problems
        }
    }

    /// A sentence for people: one problem per line.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .notJSON(let reason): "not a JSON document: \(reason)"
        case .invalid(let problems): problems.map(\.description).joined(separator: "\n")
        }
    }
}
