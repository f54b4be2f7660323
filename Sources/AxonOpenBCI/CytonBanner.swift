import Foundation

/// What a Cyton says after a soft reset (`v`): text lines ending in `$$$`, for example (firmware v3 with a Daisy)
///
///     OpenBCI V3 8-16 channel
///     On Board ADS1299 Device ID: 0x3E
///     On Daisy ADS1299 Device ID: 0x3E
///     LIS3DH Device ID: 0x33
///     Firmware: v3.1.2
///     $$$
///
/// A Daisy module shows as a device-ID line naming the Daisy.
///
/// Threading: a value type; share freely.
public struct CytonBanner: Sendable, Hashable {
    /// The end of every reply of the board.
    public static let terminator = "$$$"

    /// The reply's lines before `$$$`, without line ends, empty lines dropped.
    public let lines: [String]
    /// Whether a Daisy module answered.
    public let hasDaisy: Bool
    /// The firmware version (`v3.1.2`), when the board names it (firmware v2 and later).
    public let firmware: String?

    /// Reads the reply text (with or without the `$$$`).
    public init(text: String) {
        let body = text.components(separatedBy: Self.terminator).first ?? text
        lines = body.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        hasDaisy = lines.contains { $0.lowercased().contains("daisy") && $0.lowercased().contains("device id") }
        firmware = lines.first { $0.hasPrefix("Firmware:") }
            .map { String($0.dropFirst("Firmware:".count)).trimmingCharacters(in: .whitespaces) }
    }

    /// The banner a board sends (used by the simulator): firmware v3, with or without a Daisy.
    public static func text(daisy: Bool, firmware: String = "v3.1.2") -> String {
        var lines = ["OpenBCI V3 8-16 channel", "On Board ADS1299 Device ID: 0x3E"]
        if daisy { lines.append("On Daisy ADS1299 Device ID: 0x3E") }
        lines += ["LIS3DH Device ID: 0x33", "Firmware: \(firmware)"]
        return lines.joined(separator: "\n") + "\n" + terminator
    }
}
