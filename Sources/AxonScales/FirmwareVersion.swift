/// A firmware version such as 1.0.2, compared component by component.
///
/// Threading: a value type; share freely.
public struct FirmwareVersion: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The dotted numbers, most significant first.
    public var components: [Int]

    /// Parses "1.0.2" (digits and dots only); `nil` otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        components = parts.map { $0! }
    }

    /// major.minor.patch.
    public init(_ major: Int, _ minor: Int, _ patch: Int) { components = [major, minor, patch] }

    /// Compares component by component; missing components count as 0.
    public static func < (lhs: FirmwareVersion, rhs: FirmwareVersion) -> Bool {
        let n = max(lhs.components.count, rhs.components.count)
        for i in 0..<n {
            let a = i < lhs.components.count ? lhs.components[i] : 0
            let b = i < rhs.components.count ? rhs.components[i] : 0
            if a != b { return a < b }
        }
        return false
    }

    /// A sentence for people.
    public var description: String { components.map(String.init).joined(separator: ".") }

    /// HS3 Bluetooth on/off needs this (seed §3.2–3.3).
    public static let hs3BluetoothSwitch = FirmwareVersion(1, 0, 2)
}
