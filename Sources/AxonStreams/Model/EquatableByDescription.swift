// AxonStreams — equality for values that keep an error of any type.

/// A value that compares and hashes by its `description`: for errors that keep the error
/// they caught as a value (`any Error`, which is not `Equatable`), so two are equal when they read the same.
///
/// Conforming supplies `description`; `==` and `hash(into:)` come from here.
public protocol EquatableByDescription: Hashable, CustomStringConvertible {}

extension EquatableByDescription {
    /// Whether the two read the same (`description`).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }

    /// Hashes `description`, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
