// AxonC — the options a call takes as a JSON object (axon_analyze, axon_source_open): read, typed and checked.

import Foundation

/// A JSON object of options, each read with the type its key takes. A key outside `known` is an error, so a
/// misspelt option is never ignored; a `null` value is the same as an absent key.
///
/// Threading: a plain value.
struct JSONOptions {
    private let values: [String: Value]
    private let function: String

    /// A JSON value of the kinds options take.
    private enum Value: Decodable {
        case null, bool(Bool), number(Double), text(String), texts([String]), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let texts = try? container.decode([String].self) {
                self = .texts(texts)
            } else {
                self = .other
            }
        }
    }

    /// Reads `text` (NULL or "": no option).
    init(_ text: String?, known: Set<String>, in function: String) throws(CallFailure) {
        self.function = function
        guard let text, !text.isEmpty else {
            values = [:]
            return
        }
        do { values = try JSONDecoder().decode([String: Value].self, from: Data(text.utf8)) } catch {
            throw .invalidArgument("\(function): options must be one JSON object, as in {\"window\": 512}")
        }
        if let unknown = values.keys.filter({ !known.contains($0) }).sorted().first {
            throw .invalidArgument(
                "\(function): unknown option \"\(unknown)\"; the options are \(known.sorted().joined(separator: ", "))")
        }
    }

    private func wrongType(_ key: String, _ expected: String) -> CallFailure {
        .invalidArgument("\(function): option \"\(key)\" takes \(expected)")
    }

    /// A number, or nil when absent.
    func number(_ key: String, _ expected: String = "a number") throws(CallFailure) -> Double? {
        switch values[key] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        default: throw wrongType(key, expected)
        }
    }

    /// A whole number, or nil when absent.
    func whole(_ key: String) throws(CallFailure) -> Int? {
        guard let value = try number(key, "a whole number") else { return nil }
        guard value == value.rounded(), abs(value) < 1e15 else { throw wrongType(key, "a whole number") }
        return Int(value)
    }

    /// true or false, or nil when absent.
    func flag(_ key: String) throws(CallFailure) -> Bool? {
        switch values[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw wrongType(key, "true or false")
        }
    }

    /// A string, or nil when absent.
    func text(_ key: String, _ expected: String = "a string") throws(CallFailure) -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .text(let value)?: return value
        default: throw wrongType(key, expected)
        }
    }

    /// A non-empty list of strings, or nil when absent.
    func texts(_ key: String, _ expected: String) throws(CallFailure) -> [String]? {
        switch values[key] {
        case nil, .null?: return nil
        case .texts(let value)? where !value.isEmpty: return value
        default: throw wrongType(key, expected)
        }
    }
}
