import Testing

@testable import AxonScales

/// HS5 user management over the framing: 20 positions, create only into an empty position and only while fewer
/// than 20 users exist, modify/delete only known users — each refusal its seed error.
struct HS5UserTests {
    func user(_ serial: UInt32, height: Int = 170) -> HS5User {
        HS5User(
            serialNumber: serial, birthYear: 1985, birthMonth: 6, birthDay: 15, heightCM: height, isAthlete: false,
            sex: .male)
    }

    @Test func theUserRulesGiveTheSeedsErrors() async throws {
        let rig = try ScaleTestRig(.init(model: .hs5))
        defer { rig.remove() }
        try await rig.session.connect()
        for position in 0..<20 { try await rig.session.createUser(user(UInt32(1000 + position)), position: position) }
        #expect(try await rig.session.users().count == 20)

        // A 21st user.
        let full = await scaleError { try await rig.session.createUser(user(2000), position: 5) }
        #expect(full == .userRule(.full))
        #expect(HS5UserRule.full.seedError == .createUserError)

        try await rig.session.deleteUser(serialNumber: 1005)
        // Into an occupied position while there is room.
        let occupied = await scaleError { try await rig.session.createUser(user(2000), position: 6) }
        #expect(occupied == .userRule(.positionOccupied(6)))
        #expect(HS5UserRule.positionOccupied(6).seedError == .createUserError)
        // Into the position just freed: it held a user, so the seed's rule refuses it.
        let usedBefore = await scaleError { try await rig.session.createUser(user(2000), position: 5) }
        #expect(usedBefore == .userRule(.positionUsedBefore(5)))
        #expect(HS5UserRule.positionUsedBefore(5).seedError == .createUserError)
        // Modify (and delete) an unknown user.
        let unknown = await scaleError { try await rig.session.modifyUser(user(4242)) }
        #expect(unknown == .userRule(.unknownUser(4242)))
        #expect(HS5UserRule.unknownUser(4242).seedError == .userInvalid)
        #expect(
            await scaleError { try await rig.session.deleteUser(serialNumber: 4242) } == .userRule(.unknownUser(4242)))
        // A position beyond 19 never reaches the scale.
        #expect(
            await scaleError { try await rig.session.createUser(user(2000), position: 20) }
                == .userRule(.positionOutOfRange(20)))
        #expect(rig.scale.users.users.count == 19)
        await rig.session.close()
    }

    @Test func validFlowsRoundTrip() async throws {
        let rig = try ScaleTestRig(.init(model: .hs5, weightKg: 68.3))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let serial = try #require(rig.session.currentUserSerialNumber)
        #expect(serial == HS5User.serialNumber(forUserID: "ana@example.org"))
        #expect(try await rig.session.users().isEmpty)

        try await rig.session.createUser(user(serial, height: 168), position: 3)
        #expect(try await rig.session.users() == [HS5UserSlot(position: 3, serialNumber: serial)])
        try await rig.session.modifyUser(user(serial, height: 169))
        #expect(rig.scale.users.users[3]?.heightCM == 169)

        let m = try await rig.session.measure(unit: .lb)
        #expect(m.stableWeightKg == 68.3 && m.impedanceWeightKg == 68.3)
        #expect(m.displayed.text == "150.6 lb")  // 150.5762 lb
        #expect(m.bodyComposition == SimulatedScale.Configuration.hs5Composition(weightKg: 68.3))
        #expect(m.unstableWeightsKg.count == 3)

        try await rig.session.deleteUser(serialNumber: serial)
        #expect(try await rig.session.users().isEmpty)
        // The deleted user can no longer measure.
        #expect(await scaleError { _ = try await rig.session.measure() } == .device(.hs5(.userInvalid)))
        await rig.session.close()
    }

    @Test func tableRulesInOrder() throws {
        var table = HS5UserTable()
        try table.create(user(1), at: 0)
        #expect(throws: ScaleError.userRule(.alreadyExists(1))) { try table.create(user(1), at: 1) }
        #expect(throws: ScaleError.userRule(.positionOutOfRange(-1))) { try table.create(user(2), at: -1) }
        #expect(table.slots == [HS5UserSlot(position: 0, serialNumber: 1)])
    }
}
