import AxonDevices
import AxonRecording

extension ScaleSession {
    /// Transfers the scale's stored records (up to 200) into `store`: `started`, then for each record `record`
    /// — reported only once it is on disk — and `progress`, then `finished` (seed "TransferMemoryData … Progress
    /// … MemoryData … FinishTransmission").
    ///
    /// A link loss mid-transfer does not fail it: the session waits for the link (``reconnectTimeout``) and asks
    /// again from the first record it has not stored. The store is idempotent on `<device>/<time>`, so a resumed
    /// or repeated transfer stores nothing twice, and progress never goes down.
    ///
    /// An HS4 refuses until the user is validated (``HS4Error/userInvalid``); an HS5 transfers the current
    /// user's records.
    ///
    /// - Throws: ``ScaleError/device(_:)`` (no memory, user invalid, …), ``ScaleError/store(_:)``,
    ///   ``ScaleError/noResponse(command:seconds:)``, ``ScaleError/transport(_:)``,
    ///   ``ScaleError/unsupported(model:operation:)`` for a standard scale.
    public func transferMemory(
        into store: ScaleRecordStore, report: @Sendable (MemoryTransferEvent) -> Void = { _ in }
    ) async throws(ScaleError) -> MemoryTransferSummary {
        try requireModel([.hs3, .hs4, .hs5], "transfer memory")
        let serial = model == .hs5 ? currentUserSerialNumber ?? 0 : 0
        var summary = MemoryTransferSummary(count: 0, inserted: 0, duplicates: 0, conflicts: 0, resumptions: 0)
        var total: Int?
        var next = 0
        var reported = 0.0
        while true {
            inbox.clear()
            try await send(.memory(from: next, serialNumber: serial))
            var resume = false
            while !resume {
                guard let item = await inbox.next(within: responseTimeout) else {
                    throw .noResponse(command: "memory transfer", seconds: responseTimeout)
                }
                switch item {
                case .response(.error(let code, let detail, let argument)):
                    throw error(code: code, detail: detail, argument: argument)
                case .response(.memoryStart(let count)):
                    if total == nil {
                        total = count
                        summary.count = count
                        report(.started(count: count))
                    }
                case .response(.record(let index, let record)):
                    guard let count = total else { continue }
                    if index > next {
                        // A record went missing in the air: ask again from the first one not stored.
                        resume = true
                        continue
                    }
                    guard index == next, index < count else { continue }
                    let outcome = try store.store(record)
                    switch outcome {
                    case .inserted: summary.inserted += 1
                    case .duplicate: summary.duplicates += 1
                    case .conflict: summary.conflicts += 1
                    }
                    next += 1
                    report(.record(index: index, record, outcome))
                    let progress = Double(next) / Double(count)
                    if progress > reported {
                        reported = progress
                        report(.progress(progress))
                    }
                case .response(.memoryFinish):
                    guard let count = total else { continue }
                    if next < count {
                        resume = true
                        continue
                    }
                    if reported < 1 { report(.progress(1)) }
                    report(.finished)
                    return summary
                case .link(.linkLost), .link(.serviceVanished):
                    report(.interrupted(resumingAt: next))
                    try await waitUntilReady()
                    summary.resumptions += 1
                    resume = true
                default:
                    continue
                }
            }
        }
    }

    /// Waits for the transport's `ready` after a link loss.
    func waitUntilReady() async throws(ScaleError) {
        while true {
            guard let item = await inbox.next(within: reconnectTimeout) else {
                throw .transport(.notConnected)
            }
            if case .link(.ready) = item { return }
            if case .link(.closed) = item { throw .transport(.closed) }
        }
    }
}
