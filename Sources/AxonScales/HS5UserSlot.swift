/// A user in an HS5's list: its position 0…19 and serial number (seed keys serialNumber, position).
///
/// Threading: a value type; share freely.
public struct HS5UserSlot: Sendable, Hashable, Codable {
    /// The position on the scale, 0…19.
    public var position: Int
    /// The user's serial number (seed `serialNub`).
    public var serialNumber: UInt32

    /// Creates a value from its fields (each documented on its property).
    public init(position: Int, serialNumber: UInt32) {
        self.position = position
        self.serialNumber = serialNumber
    }
}
