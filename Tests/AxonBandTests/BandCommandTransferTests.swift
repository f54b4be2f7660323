import AxonBand
import AxonDevices
import Testing

/// Valid commands reach the simulated band byte for byte; invalid ones never leave the host; the band's own
/// check answers like the SDK's `responseOfScheduleSetting:NO`.
struct BandCommandTransferTests {
    static let today = BandDate(year: 2026, month: 11, day: 22)!

    /// Each command with its frame written out by hand from docs/band-protocol.md.
    static let frames: [(BandCommand, [UInt8])] = [
        // 0x40 sedentary: on, 9 h to 18 h, repeat Mon–Fri (0xFC). Checksum 0x40+4+1+9+18+0xFC = 0x15C → 0x5C.
        (
            .sedentary(.init(startHour: 9, endHour: 18, weekRepeat: WeekRepeat(rawValue: 0xFC), isOn: true)),
            [0x40, 0x04, 0x01, 0x09, 0x12, 0xFC, 0x5C]
        ),
        // 0x40 sedentary across midnight, as the seed allows: on, 22 h to 6 h, repeat daily (0xFF).
        (
            .sedentary(.init(startHour: 22, endHour: 6, weekRepeat: WeekRepeat(rawValue: 0xFF), isOn: true)),
            [0x40, 0x04, 0x01, 0x16, 0x06, 0xFF, 0x60]
        ),
        // 0x41 personal: woman, 168 cm, 61 kg, 9000 steps (0x2328), 34 years.
        (
            .personalInfo(.init(gender: .woman, height: 168, weight: 61, target: 9000, age: 34)),
            [0x41, 0x08, 0x01, 0xA8, 0x3D, 0x28, 0x23, 0x00, 0x00, 0x22, 0x9C]
        ),
        // 0x42 alarm 3: switch, viable, 06:45, repeat + Saturday + Sunday (0x83).
        (
            .alarm(
                .init(id: 3, hour: 6, minute: 45, weekRepeat: WeekRepeat(rawValue: 0x83), switchOn: true, viable: true)),
            [0x42, 0x06, 0x03, 0x01, 0x01, 0x06, 0x2D, 0x83, 0x03]
        ),
        // 0x42 alarm 2 with only the repeat bit (0x80): the seed allows it; it rings on no day.
        (
            .alarm(
                .init(id: 2, hour: 6, minute: 45, weekRepeat: WeekRepeat(rawValue: 0x80), switchOn: true, viable: true)),
            [0x42, 0x06, 0x02, 0x01, 0x01, 0x06, 0x2D, 0x80, 0xFF]
        ),
        // 0x43 schedule 2026-11-24 09:30 "Run" / "5k".
        (
            .writeSchedule(.init(year: 2026, month: 11, day: 24, hour: 9, minute: 30, title: "Run", subtitle: "5k")),
            [0x43, 0x0D, 0xEA, 0x07, 0x0B, 0x18, 0x09, 0x1E, 0x03, 0x52, 0x75, 0x6E, 0x02, 0x35, 0x6B, 0x65]
        ),
        // 0x46 options: imperial, 12 h, auto sleep, backlight 21–7, white, English, LE off, wrist on.
        (
            .hardwareOptions(
                .init(
                    units: .imperial, timeFormat: .twelveHour, autoSleep: true, backlightStart: 21,
                    backlightEnd: 7, whiteBackground: true, language: .english, leSwitch: false, wristSwitch: true)),
            [0x46, 0x09, 0x01, 0x01, 0x01, 0x15, 0x07, 0x01, 0x00, 0x00, 0x01, 0x70]
        ),
        // 0x47 targets: walk 300 (0x012C), swim 450 (0x01C2).
        (
            .sportTargets([.init(sportCode: 0x01, target: 300), .init(sportCode: 0x83, target: 450)]),
            [0x47, 0x07, 0x02, 0x01, 0x2C, 0x01, 0x83, 0xC2, 0x01, 0xC4]
        ),
        // 0x48 push "Hi".
        (.pushText("Hi"), [0x48, 0x03, 0x02, 0x48, 0x69, 0xFE]),
        (.cameraMode(true), [0x49, 0x01, 0x01, 0x4B]),
        (.heartRateAutoSync(true), [0x4A, 0x01, 0x01, 0x4C]),
        (.sportDataAutoSync(false), [0x4B, 0x01, 0x00, 0x4C]),
        (.reset, [0x4C, 0x00, 0x4C]),
    ]

    @Test func commandsEncodeToTheHandWrittenFrames() throws {
        for (command, bytes) in Self.frames {
            #expect(command.bytes == bytes, "\(command)")
            #expect(try BandCommand(decoding: bytes) == command)
        }
    }

    @Test func validCommandsReachTheSimulatorByteExact() async throws {
        let band = SimulatedBand(configuration: .init(today: Self.today))
        let session = BandSession(
            transport: band, store: nil, configuration: .init(idleTimeout: 5, today: { Self.today }))
        try await session.connect()
        _ = await session.waitForDeviceInfo()
        for (command, _) in Self.frames { try await session.send(command) }
        await session.close()
        #expect(band.receivedSettingFrames == Self.frames.map(\.1))
        #expect(band.schedules.schedules.isEmpty, "the reset at the end cleared the schedule")
    }

    @Test func invalidCommandsNeverLeaveTheHost() async throws {
        let band = SimulatedBand(configuration: .init(model: .fitPulse, today: Self.today))
        let session = BandSession(
            transport: band, store: nil, configuration: .init(idleTimeout: 5, today: { Self.today }))
        try await session.connect()
        _ = await session.waitForDeviceInfo()
        await #expect(throws: BandError.invalidCommand(.backgroundColourUnsupported(model: .fitPulse))) {
            try await session.send(.hardwareOptions(.init(whiteBackground: false)))
        }
        await #expect(throws: BandError.invalidCommand(.walkingTargetMissing)) {
            try await session.send(.sportTargets([.init(sportCode: 0x83, target: 10)]))
        }
        // Four schedules on a day fill it; the fifth is refused on the host from the session's book.
        for hour in 8..<12 {
            try await session.send(
                .writeSchedule(
                    .init(year: 2026, month: 11, day: 24, hour: hour, minute: 0, title: "S\(hour)", subtitle: "")))
        }
        await #expect(throws: BandError.invalidCommand(.scheduleDayFull(date: "2026-11-24"))) {
            try await session.send(
                .writeSchedule(.init(year: 2026, month: 11, day: 24, hour: 13, minute: 0, title: "S13", subtitle: "")))
        }
        await session.close()
        #expect(band.receivedSettingFrames.count == 4)
        #expect(band.schedules.schedules.count == 4)
    }

    @Test func theBandRefusesWhatBreaksItsRulesEvenIfTheHostDidNotKnow() async throws {
        let band = SimulatedBand(configuration: .init(today: Self.today))
        let schedule = BandSchedule(year: 2026, month: 11, day: 24, hour: 8, minute: 0, title: "A", subtitle: "")
        // Another phone wrote a schedule at 08:00; this session's book does not know it.
        let phone = BandSession(
            transport: band, store: nil, configuration: .init(idleTimeout: 5, today: { Self.today }))
        try await phone.connect()
        try await phone.send(.writeSchedule(schedule))
        await phone.close()
        let session = BandSession(
            transport: band, store: nil, configuration: .init(idleTimeout: 5, today: { Self.today }))
        try await session.connect()
        await #expect(throws: BandError.rejected(command: 0x43)) { try await session.send(.writeSchedule(schedule)) }
        await session.close()
        #expect(band.receivedSettingFrames.count == 2)
    }
}
