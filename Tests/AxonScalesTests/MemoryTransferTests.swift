import AxonRecording
import Testing

@testable import AxonScales

/// Memory transfer: 200 records with monotonic progress into the event store, idempotent on (device, time), and
/// resumed without loss or duplicates after a link loss.
struct MemoryTransferTests {
    @Test(arguments: [ScaleModel.hs3, .hs4, .hs5])
    func twoHundredRecordsThenNoneNew(_ model: ScaleModel) async throws {
        var users = HS5UserTable()
        try users.create(
            HS5User(
                serialNumber: HS5User.serialNumber(forUserID: ana.userID), birthYear: 1990, birthMonth: 4,
                birthDay: 2, heightCM: 168, isAthlete: false, sex: .female), at: 0)
        let rig = try ScaleTestRig(
            .init(model: model, records: SimulatedScale.Configuration.records(200, model: model), users: users))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)

        let first = TransferLog()
        let summary = try await rig.session.transferMemory(into: rig.records, report: first.append)
        #expect(summary.count == 200 && summary.inserted == 200 && summary.duplicates == 0)
        #expect(first.events.first == .started(count: 200))
        #expect(first.events.last == .finished)
        let progress = first.progress
        #expect(progress.count == 200)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 < $1 }, "progress only goes up")
        #expect(progress.last == 1.0)
        #expect(first.recordIndices == Array(0..<200))
        #expect(try rig.records.count() == 200)
        let stored = try rig.records.records()
        #expect(stored == SimulatedScale.Configuration.records(200, model: model))
        if model == .hs5 { #expect(stored.allSatisfy { $0.bodyComposition?.visceralFatLevel == 7 }) }

        let again = try await rig.session.transferMemory(into: rig.records)
        #expect(again.inserted == 0 && again.duplicates == 200)
        #expect(try rig.records.count() == 200)
        await rig.session.close()
    }

    @Test func aLinkLossMidTransferResumesWithoutLossOrDuplicates() async throws {
        let rig = try ScaleTestRig(
            .init(
                model: .hs3, records: SimulatedScale.Configuration.records(200, model: .hs3), linkLossAfterRecords: 77))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let log = TransferLog()
        let summary = try await rig.session.transferMemory(into: rig.records, report: log.append)
        #expect(summary.resumptions == 1)
        #expect(summary.inserted == 200 && summary.duplicates == 0)
        #expect(log.events.contains(.interrupted(resumingAt: 77)))
        #expect(log.recordIndices == Array(0..<200), "each record reported once, in order")
        let progress = log.progress
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 < $1 })
        #expect(progress.last == 1.0)
        #expect(try rig.records.count() == 200)
        // The scale was asked twice: from 0, then from the first record not stored.
        let asked = rig.scale.receivedCommands.compactMap { if case .memory(let from, _) = $0 { from } else { nil } }
        #expect(asked == [0, 77])
        await rig.session.close()
    }

    @Test func aRestartedTransferAfterAPartialOneStoresOnlyTheRest() async throws {
        let rig = try ScaleTestRig(.init(model: .hs3, records: SimulatedScale.Configuration.records(200, model: .hs3)))
        defer { rig.remove() }
        // An earlier run stored the first 120 (then the process died).
        for record in SimulatedScale.Configuration.records(120, model: .hs3) { try rig.records.store(record) }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let summary = try await rig.session.transferMemory(into: rig.records)
        #expect(summary.inserted == 80 && summary.duplicates == 120)
        #expect(try rig.records.count() == 200)
        await rig.session.close()
    }

    @Test func emptyMemoryIsTheSeedsNoMemoryError() async throws {
        let rig = try ScaleTestRig(.init(model: .hs3))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let error = await scaleError { _ = try await rig.session.transferMemory(into: rig.records) }
        #expect(error == .device(.hs3(.noMemory)))
        await rig.session.close()
    }
}

/// Records lost in the air without a link loss.
struct LostRecordTests {
    @Test func aRecordLostOnceIsAskedForAgain() async throws {
        let rig = try ScaleTestRig(
            .init(
                model: .hs3, records: SimulatedScale.Configuration.records(200, model: .hs3),
                lostRecords: [50: 1, 199: 1]))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let log = TransferLog()
        let summary = try await rig.session.transferMemory(into: rig.records, report: log.append)
        #expect(summary.inserted == 200 && summary.duplicates == 0)
        #expect(log.recordIndices == Array(0..<200))
        let asked = rig.scale.receivedCommands.compactMap { if case .memory(let from, _) = $0 { from } else { nil } }
        // Both went missing in the first pass; the second, from 50, brought them.
        #expect(asked == [0, 50])
        await rig.session.close()
    }

    @Test func aRecordThatNeverArrivesEndsTheTransferWithWhatCameBeforeItStored() async throws {
        let rig = try ScaleTestRig(
            .init(
                model: .hs3, records: SimulatedScale.Configuration.records(200, model: .hs3), lostRecords: [120: 1000]))
        defer { rig.remove() }
        try await rig.session.connect()
        try await rig.session.validate(ana)
        let error = await scaleError { _ = try await rig.session.transferMemory(into: rig.records) }
        guard case .noResponse(let command, _)? = error else {
            Issue.record("expected noResponse, got \(String(describing: error))")
            return
        }
        #expect(command == "memory transfer of record 120")
        #expect(try rig.records.count() == 120)
        let asked = rig.scale.receivedCommands.compactMap { if case .memory(let from, _) = $0 { from } else { nil } }
        #expect(asked == [0] + Array(repeating: 120, count: ScaleSession.maximumRequestsPerRecord))
        await rig.session.close()
    }
}
