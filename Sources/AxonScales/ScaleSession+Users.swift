extension ScaleSession {
    /// The HS5's users (seed `MemoryUserListHS5Data`: serial number and position).
    ///
    /// - Throws: ``ScaleError/unsupported(model:operation:)`` for another model; link and device errors.
    public func users() async throws(ScaleError) -> [HS5UserSlot] {
        try requireModel([.hs5], "manage users")
        return try await exchange(.listUsers) { item -> [HS5UserSlot]? in
            if case .response(.users(let slots)) = item { return slots }
            return nil
        }
    }

    /// Creates `user` at `position` (0…19): only into an empty position that has never been occupied, only while
    /// fewer than 20 users exist.
    ///
    /// - Throws: ``ScaleError/userRule(_:)`` (``HS5UserRule/full``, ``HS5UserRule/positionOccupied(_:)``,
    ///   ``HS5UserRule/positionUsedBefore(_:)``, …) as the scale reports it; ``ScaleError/invalidArgument(_:)`` for a position outside 0…19.
    public func createUser(_ user: HS5User, position: Int) async throws(ScaleError) {
        try requireModel([.hs5], "manage users")
        guard (0..<HS5UserTable.capacity).contains(position) else { throw .userRule(.positionOutOfRange(position)) }
        try await expectSuccess(.createUser(user, position: position))
    }

    /// Changes the facts of the user with `user.serialNumber`.
    ///
    /// - Throws: ``ScaleError/userRule(_:)`` ``HS5UserRule/unknownUser(_:)`` when the scale has no such user.
    public func modifyUser(_ user: HS5User) async throws(ScaleError) {
        try requireModel([.hs5], "manage users")
        try await expectSuccess(.modifyUser(user))
    }

    /// Deletes the user with `serialNumber`.
    ///
    /// - Throws: ``ScaleError/userRule(_:)`` ``HS5UserRule/unknownUser(_:)`` when the scale has no such user.
    public func deleteUser(serialNumber: UInt32) async throws(ScaleError) {
        try requireModel([.hs5], "manage users")
        try await expectSuccess(.deleteUser(serialNumber))
    }

    /// Turns the HS3's Bluetooth connection off or on (seed §3.2–3.3): firmware 1.0.2 or later only. Returns the
    /// scale's answer (`false`: it could not).
    ///
    /// - Throws: ``ScaleError/firmwareTooOld(required:actual:)``; ``ScaleError/unsupported(model:operation:)``
    ///   for another model.
    @discardableResult
    public func setBluetooth(on: Bool) async throws(ScaleError) -> Bool {
        try requireModel([.hs3], "switch Bluetooth")
        let required = FirmwareVersion.hs3BluetoothSwitch
        guard let firmware, firmware >= required else {
            throw .firmwareTooOld(required: required, actual: firmware ?? FirmwareVersion(0, 0, 0))
        }
        return try await command(.bluetooth(on: on))
    }

    private func expectSuccess(_ command: ScaleCommand) async throws(ScaleError) {
        guard try await self.command(command) else {
            throw .device(.hs5(.createUserError))
        }
    }
}
