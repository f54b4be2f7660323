import Testing

@testable import AxonScales

/// Axon's scale framing (docs/scale-protocol.md) byte for byte.
struct ScaleFrameTests {
    @Test func documentedExamples() throws {
        #expect(ScaleCommand.memory(from: 0, serialNumber: 0).bytes == hex("04 00 00 00 00 00 00"))
        let record = ScaleResponse.record(index: 7, ScaleRecord(time: 1_763_806_472, weightKg: 71.4))
        #expect(record.bytes == hex("85 07 00 08 8D 21 69 E4 1B 00"))
        #expect(try ScaleResponse(decoding: hex("85 07 00 08 8D 21 69 E4 1B 00")) == record)
        #expect(ScaleResponse.error(code: 15, detail: 2, argument: 6).bytes == hex("E0 0F 02 06 00 00 00"))
    }

    @Test func everyCommandRoundTrips() throws {
        let user = HS5User(
            serialNumber: 0x0102_0304, birthYear: 1990, birthMonth: 4, birthDay: 2, heightCM: 168,
            isAthlete: true, sex: .male)
        let commands: [(ScaleCommand, String)] = [
            (.identify, "01"), (.authorise(.loginSuccess), "02 01"), (.authorise(.networkError), "02 07"),
            (.measure(unit: .st, serialNumber: 0x0A0B_0C0D), "03 02 0D 0C 0B 0A"),
            (.memory(from: 77, serialNumber: 5), "04 4D 00 05 00 00 00"), (.bluetooth(on: false), "05 00"),
            (.listUsers, "10"), (.createUser(user, position: 19), "11 13 04 03 02 01 C6 07 04 02 A8 01 01"),
            (.modifyUser(user), "12 04 03 02 01 C6 07 04 02 A8 01 01"), (.deleteUser(9), "13 09 00 00 00"),
        ]
        for (command, bytes) in commands {
            #expect(command.bytes == hex(bytes), "\(command)")
            #expect(try ScaleCommand(decoding: hex(bytes)) == command)
        }
    }

    @Test func everyResponseRoundTrips() throws {
        let composition = SimulatedScale.Configuration.hs5Composition(weightKg: 71.4)
        let responses: [(ScaleResponse, String)] = [
            (.info(model: .hs5, firmware: FirmwareVersion(1, 0, 2)), "81 05 01 00 02"),
            (.result(command: 0x11, success: true), "82 11 01"), (.memoryStart(count: 200), "84 C8 00"),
            (.memoryFinish, "86"), (.users([HS5UserSlot(position: 3, serialNumber: 42)]), "8A 01 03 2A 00 00 00"),
            (.unstableWeight(46.56), "90 30 12"), (.stableWeight(77.6), "91 50 1E"),
            (.impedanceWeight(77.6), "92 50 1E"),
            // 71.40 kg, 21.5 %, 56.3 %, 39.8 %, 3.10 kg, level 6, 1920 kcal, 512.3 Ω
            (.bodyComposition(composition), "93 E4 1B D7 00 33 02 8E 01 36 01 06 80 07 03 14"),
        ]
        for (response, bytes) in responses {
            #expect(response.bytes == hex(bytes), "\(response)")
            #expect(try ScaleResponse(decoding: hex(bytes)) == response)
        }
    }

    @Test func badFramesAreTypedErrors() {
        #expect(
            problem { _ = try ScaleResponse(decoding: hex("84 C9 00")) } == .outOfRange("201 records (at most 200)"))
        #expect(problem { _ = try ScaleResponse(decoding: hex("77")) } == .unknownFrameType(0x77))
        #expect(
            problem { _ = try ScaleResponse(decoding: hex("8A 02 03 2A 00 00 00")) } == .tooShort(needed: 12, got: 7))
        #expect(problem { _ = try ScaleCommand(decoding: hex("03 03 00 00 00 00")) } == .outOfRange("unit 3"))
        #expect(problem { _ = try ScaleCommand(decoding: hex("01 00")) } == .tooLong(expected: 1, got: 2))
    }
}
