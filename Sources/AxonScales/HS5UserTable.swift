/// An HS5's user positions and the seed's rules for changing them: 20 positions (0…19); create only into an empty
/// position that has never been occupied (seed: "pick from empty position that has never been occupied"), only
/// while fewer than 20 users exist, and only for a serial number not yet on the scale; modify and
/// delete only a user the scale knows. The simulators keep their users in one; a session can check a request
/// against the list it read before sending it.
///
/// Threading: a value type; share freely.
public struct HS5UserTable: Sendable, Hashable {
    /// Positions on an HS5.
    public static let capacity = 20
    /// Users by position.
    public private(set) var users: [Int: HS5User] = [:]
    /// Every position that ever held a user, including those deleted since: none of them takes a new user.
    public private(set) var everOccupied: Set<Int> = []

    /// An HS5 with no users.
    public init() {}

    /// The list as the scale reports it (sorted by position).
    public var slots: [HS5UserSlot] {
        users.keys.sorted().map { HS5UserSlot(position: $0, serialNumber: users[$0]!.serialNumber) }
    }

    /// The position of the user with `serial`, if any.
    public func position(of serial: UInt32) -> Int? { users.first { $0.value.serialNumber == serial }?.key }

    /// Adds `user` at `position`.
    ///
    /// - Throws: ``ScaleError/userRule(_:)``: ``HS5UserRule/positionOutOfRange(_:)``, ``HS5UserRule/full``,
    ///   ``HS5UserRule/positionOccupied(_:)``, ``HS5UserRule/positionUsedBefore(_:)``,
    ///   ``HS5UserRule/alreadyExists(_:)``, checked in that order.
    public mutating func create(_ user: HS5User, at position: Int) throws(ScaleError) {
        guard (0..<Self.capacity).contains(position) else { throw .userRule(.positionOutOfRange(position)) }
        guard users.count < Self.capacity else { throw .userRule(.full) }
        guard users[position] == nil else { throw .userRule(.positionOccupied(position)) }
        guard !everOccupied.contains(position) else { throw .userRule(.positionUsedBefore(position)) }
        guard self.position(of: user.serialNumber) == nil else { throw .userRule(.alreadyExists(user.serialNumber)) }
        users[position] = user
        everOccupied.insert(position)
    }

    /// Replaces the facts of the user with `user.serialNumber`.
    ///
    /// - Throws: ``ScaleError/userRule(_:)`` ``HS5UserRule/unknownUser(_:)``.
    public mutating func modify(_ user: HS5User) throws(ScaleError) {
        guard let position = position(of: user.serialNumber) else { throw .userRule(.unknownUser(user.serialNumber)) }
        users[position] = user
    }

    /// Removes the user with `serial`.
    ///
    /// - Throws: ``ScaleError/userRule(_:)`` ``HS5UserRule/unknownUser(_:)``.
    public mutating func delete(_ serial: UInt32) throws(ScaleError) {
        guard let position = position(of: serial) else { throw .userRule(.unknownUser(serial)) }
        users[position] = nil
    }
}
