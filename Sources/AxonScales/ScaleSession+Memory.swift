import AxonDevices
import AxonRecording

extension ScaleSession {
    /// Transfers the scale's stored records (up to 200) into `store`: `started`, then for each record `record`
    /// — reported only once it is on disk — and `progress`, then `finished` (seed "TransferMemoryData … Progress
    /// … MemoryData … FinishTransmission").
    ///
    /// A link loss mid-transfer does not fail it: the session waits for the link (``reconnectTimeout``) and asks
    /// again from the first record it has not stored. The store is idempotent on `<device>/<time>`, so a resumed
    /// or repeated transfer stores nothing twice, and progress never goes down. A record that went missing without
    /// a link loss (the next one came first, or the finish) is asked for again the same way, at most
    /// ``maximumRequestsPerRecord`` times.
    ///
    /// An HS3 or HS4 refuses until the user is validated (``HS3Error/userInvalid``, ``HS4Error/userInvalid``: the
    /// seed's `commandInitWithUser` authenticates before it transfers); an HS5 transfers the current user's records.
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
        // Asks for the same record again at most this often without getting it (a scale that skips it for good).
        var askedWithoutProgress = 0
        var lastAskedFrom = -1
        while true {
            if next == lastAskedFrom {
                askedWithoutProgress += 1
                guard askedWithoutProgress < Self.maximumRequestsPerRecord else {
                    throw .noResponse(command: "memory transfer of record \(next)", seconds: responseTimeout)
                }
            } else {
                askedWithoutProgress = 0
                lastAskedFrom = next
            }
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
                    // A record before `next` is stored already; one after it means `next` went missing in the
                    // air: the rest of this pass is skipped and, after its finish, asked for again from `next`.
                    guard let count = total, index == next, index < count else { continue }
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

    /// How often a memory transfer asks for the same record before it gives up.
    public static let maximumRequestsPerRecord = 5

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
