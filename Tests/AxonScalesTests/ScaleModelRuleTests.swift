import AxonEventStore
import AxonRecording
import Testing

@testable import AxonScales

/// The seed's per-model rules: HS3 and HS4 memory only after validation, HS3 Bluetooth switch from firmware 1.0.2,
/// validation results, error codes.
struct ScaleModelRuleTests {
    @Test(arguments: [(ScaleModel.hs3, ScaleDeviceError.hs3(.userInvalid)), (.hs4, .hs4(.userInvalid))])
    func memoryTransferWaitsForTheUsersValidation(_ model: ScaleModel, _ expected: ScaleDeviceError) async throws {
        let rig = try ScaleTestRig(.init(model: model, records: SimulatedScale.Configuration.records(5, model: model)))
        defer { rig.remove() }
        try await rig.session.connect()
        let refused = await scaleError { _ = try await rig.session.transferMemory(into: rig.records) }
        #expect(refused == .device(expected))
        #expect(try rig.records.count() == 0)
        #expect(try await rig.session.validate(ana) == .registerSuccess)
        #expect(try await rig.session.transferMemory(into: rig.records).inserted == 5)
        await rig.session.close()
    }

    /// The seed measures only after a validation result of 1–4: an HS3 or HS4 asked before is refused by the
    /// library, with nothing sent to the scale; after `validate` it measures.
    @Test(arguments: [ScaleModel.hs3, .hs4])
    func measuresOnlyForAValidatedUser(model: ScaleModel) async throws {
        let rig = try ScaleTestRig(.init(model: model, weightKg: 70))
        defer { rig.remove() }
        try await rig.session.connect()
        #expect(await scaleError { _ = try await rig.session.measure(unit: .kg) } == .userNotValidated(model: model))
        #expect(!rig.scale.receivedCommands.contains { if case .measure = $0 { true } else { false } })
        #expect(
            ScaleError.userNotValidated(model: model).description
                == "an \(model.rawValue.uppercased()) measures only for a validated user: validate the user first")
        try await rig.session.validate(ana)
        #expect(try await rig.session.measure(unit: .kg).stableWeightKg == 70)
        await rig.session.close()
    }

    @Test func hs4MeasuresWithUnstableThenStableWeight() async throws {
        let rig = try ScaleTestRig(.init(model: .hs4, weightKg: 77.6))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let m = try await rig.session.measure(unit: .st)
        #expect(m.stableWeightKg == 77.6)
        #expect(m.unstableWeightsKg == [46.56, 69.84, 76.05])
        #expect(m.displayed.text == "12 st 3.0 lb")
        await rig.session.close()
    }

    /// The HS3's measurement (seed `StableWeight`): the stable weight, in the unit asked for, and nothing else.
    @Test func hs3MeasuresAStableWeight() async throws {
        let rig = try ScaleTestRig(.init(model: .hs3, weightKg: 81.6))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let live = Task {
            var stable: [Double] = []
            for await event in rig.session.events {
                if case .stableWeight(let sample) = event { stable.append(sample.payload) }
            }
            return stable
        }
        let m = try await rig.session.measure(unit: .lb)
        #expect(m.stableWeightKg == 81.6)
        #expect(m.displayed.text == "179.8 lb")  // 179.8975 lb, shown in 0.2 lb steps
        #expect(m.impedanceWeightKg == nil && m.bodyComposition == nil)
        await rig.session.close()
        #expect(await live.value == [81.6], "one stable weight on the event stream")
    }

    @Test func hs3BluetoothSwitchNeedsFirmware102() async throws {
        let old = try ScaleTestRig(.init(model: .hs3, firmware: FirmwareVersion(1, 0, 1)))
        defer { old.remove() }
        try await old.session.connect()
        let error = await scaleError { try await old.session.setBluetooth(on: false) }
        #expect(error == .firmwareTooOld(required: FirmwareVersion(1, 0, 2), actual: FirmwareVersion(1, 0, 1)))
        #expect(old.scale.receivedCommands == [.identify], "nothing was sent to the old firmware")
        await old.session.close()

        let current = try ScaleTestRig(.init(model: .hs3, firmware: FirmwareVersion(1, 0, 2)))
        defer { current.remove() }
        try await current.session.connect()
        #expect(try await current.session.setBluetooth(on: false))
        #expect(!current.scale.bluetoothOn)
        #expect(try await current.session.setBluetooth(on: true))
        #expect(current.scale.bluetoothOn)
        await current.session.close()
    }

    @Test func injectedErrorCodesArriveAsTheSeedsErrors() async throws {
        let cases: [(ScaleModel, Int, ScaleDeviceError)] = [
            (.hs3, 2, .hs3(.overload)), (.hs3, 4, .hs3(.movement)), (.hs3, 1, .hs3(.lowPower)),
            (.hs4, 6, .hs4(.movement)), (.hs4, 3, .hs4(.overload)), (.hs4, 11, .hs4(.sendTimeout)),
            (.hs5, 9, .hs5(.er2)), (.hs5, 13, .hs5(.busy)), (.hs5, 0, .hs5(.overTime)),
        ]
        for (model, code, expected) in cases {
            let rig = try ScaleTestRig(.init(model: model))
            defer { rig.remove() }
            try await rig.session.connect()
            if model != .hs5 { try await rig.session.validate(ana) }
            rig.scale.injectError(code: code)
            let error = await scaleError { _ = try await rig.session.measure(unit: .kg) }
            #expect(error == .device(expected), "\(model) code \(code)")
            await rig.session.close()
        }
    }

    @Test func errorCodesHaveTheSeedsValues() {
        #expect(HS3Error.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6, 7, 111])
        #expect(HS4Error.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 111])
        #expect(HS5Error.allCases.map(\.rawValue) == [0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 111])
        #expect(HS5Error.er1.meaning.contains("330 lbs/150 kg"))
        #expect(ScaleDeviceError(model: .hs4, code: 9) == .hs4(.noMemory))
        #expect(ScaleDeviceError(model: .hs3, code: 8) == nil)
    }

    @Test func localValidatorGivesTheSeedsResults() async {
        let validator = LocalUserValidator(authorisedClients: ["axon"])
        #expect(await validator.validate(ana, model: .hs3) == .registerSuccess)
        #expect(await validator.validate(ana, model: .hs3) == .loginSuccess)
        #expect(await validator.validate(ScaleUserCredentials(userID: "not-an-email"), model: .hs3) == .invalidUserInfo)
        #expect(
            await validator.validate(ScaleUserCredentials(userID: "b@example.org", clientID: "other"), model: .hs3)
                == .sdkNotAuthorised)
        #expect(
            UserValidationResult.allCases.filter(\.permitsMeasurement)
                == [.registerSuccess, .loginSuccess, .combinedSuccess, .trySuccess])
    }

    /// A pluggable validator's failing results stop the session; trial success does not count for an HS5.
    @Test func failingValidationIsATypedError() async throws {
        struct Fixed: UserValidator {
            let result: UserValidationResult
            func validate(_ user: ScaleUserCredentials, model: ScaleModel) async -> UserValidationResult { result }
        }
        for (model, result, fails) in [
            (ScaleModel.hs4, UserValidationResult.networkError, true), (.hs4, .userNotAuthorised, true),
            (.hs4, .trySuccess, false), (.hs5, .trySuccess, true), (.hs5, .combinedSuccess, false),
        ] {
            let scale = SimulatedScale(.init(model: model))
            let session = ScaleSession(transport: scale, model: model, validator: Fixed(result: result))
            try await session.connect()
            let error = await scaleError { try await session.validate(ana) }
            #expect(error == (fails ? .validationFailed(result) : nil), "\(model) \(result)")
            await session.close()
        }
    }

    @Test func firmwareVersionsCompare() {
        #expect(FirmwareVersion("1.0.2")! >= .hs3BluetoothSwitch)
        #expect(FirmwareVersion("1.0.10")! > FirmwareVersion("1.0.9")!)
        #expect(FirmwareVersion("1.0")! < .hs3BluetoothSwitch)
        #expect(FirmwareVersion("1.x") == nil)
    }
}

/// The in-process standard scale: Weight Measurement and two-packet Body Composition through the same decoders
/// a BLE scale goes through, SI and imperial.
struct SimulatedStandardScaleTests {
    @Test(arguments: [false, true]) func steppingOnGivesWeightAndComposition(imperial: Bool) async throws {
        let composition = SimulatedScale.Configuration.hs5Composition(weightKg: 77.6)
        let scale = SimulatedScale(
            .init(model: .standard, weightKg: 77.6, bodyComposition: composition, imperial: imperial))
        let session = ScaleSession(transport: scale, model: .standard)
        try await session.connect()
        scale.stepOn()
        let m = try await session.measure(unit: .lb, seconds: 10)
        // SI: 15 520 × 0.005 kg; imperial: 17 108 × 0.01 lb = 171.08 lb = 77.600 584 … kg.
        #expect(close(m.stableWeightKg, imperial ? 77.600582663 : 77.6, tolerance: 1e-6))
        #expect(m.displayed.text == "171.0 lb")
        #expect(m.bodyComposition?.fatPercent == 21.5)
        #expect(m.bodyComposition?.musclePercent == 39.8)
        #expect(m.bodyComposition?.impedanceOhm == 512.3)
        #expect(close(m.bodyComposition?.waterPercent, 56.3, tolerance: 0.01))
        await session.close()
        var stable: [Double] = []
        for await event in session.events {
            if case .stableWeight(let sample) = event { stable.append(sample.payload) }
        }
        #expect(stable.count == 1)
    }
}

/// A standard scale's stored measurements (indicated on connection) go to the event store once, however often it
/// sends them; a failed measurement is a typed error.
struct StandardScaleRecordTests {
    @Test func storedMeasurementsAreStoredOncePerDeviceAndTime() async throws {
        let rig = try ScaleTestRig(.init(model: .standard))
        defer { rig.remove() }
        let records = SimulatedScale.Configuration.records(5, model: .standard)
        var outcomes: [InsertOutcome] = []
        for _ in 0..<2 {
            // The scale indicates all five on every connection, as a scale does until it is sure they arrived.
            let scale = SimulatedScale(.init(model: .standard, records: records), name: "sim-standard")
            let session = ScaleSession(transport: scale, model: .standard, recordStore: rig.records)
            try await session.connect()
            var seen = 0
            for await event in session.events {
                guard case .stored(_, let outcome) = event else { continue }
                outcomes.append(outcome)
                seen += 1
                if seen == records.count { break }
            }
            await session.close()
        }
        #expect(outcomes == Array(repeating: .inserted, count: 5) + Array(repeating: .duplicate, count: 5))
        #expect(try rig.records.records() == records)
    }

    @Test func anUnsuccessfulMeasurementIsATypedError() async throws {
        let scale = SimulatedScale(.init(model: .standard))
        let session = ScaleSession(transport: scale, model: .standard)
        try await session.connect()
        scale.stepOnUnsuccessfully()
        #expect(await scaleError { _ = try await session.measure(seconds: 10) } == .measurementUnsuccessful)
        await session.close()
    }
}
