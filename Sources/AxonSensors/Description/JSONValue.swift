// AxonSensors — a JSON document as values, so a description can be checked field by field with paths.

import Foundation

/// A JSON value as `JSONDecoder` reads it, keeping booleans, numbers and strings apart.
///
/// Threading: a value type; share freely.
enum JSONValue: Sendable, Hashable, Decodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        if var elements = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !elements.isAtEnd { values.append(try elements.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        if let members = try? decoder.container(keyedBy: AnyKey.self) {
            var values: [String: JSONValue] = [:]
            for key in members.allKeys { values[key.stringValue] = try members.decode(JSONValue.self, forKey: key) }
            self = .object(values)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// What the value is, in words, for errors.
    var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "a list"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
