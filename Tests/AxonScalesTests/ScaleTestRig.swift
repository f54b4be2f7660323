import AxonEventStore
import AxonRecording
import Foundation

@testable import AxonScales

/// A session over a ``SimulatedScale`` and an event store in a temporary file.
struct ScaleTestRig {
    let scale: SimulatedScale
    let session: ScaleSession
    let store: EventStore
    let records: ScaleRecordStore
    let path: String

    init(_ configuration: SimulatedScale.Configuration, path: String? = nil, responseTimeout: Double = 5) throws {
        self.path =
            path
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("axon-scale-\(UUID().uuidString).sqlite").path
        scale = SimulatedScale(configuration, name: "sim-\(configuration.model.rawValue)")
        session = ScaleSession(transport: scale, model: configuration.model, responseTimeout: responseTimeout)
        store = try EventStore(path: self.path)
        records = try ScaleRecordStore(
            store: store, device: "sim-\(configuration.model.rawValue)", model: configuration.model)
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

let ana = ScaleUserCredentials(userID: "ana@example.org")

/// Collects what a memory transfer reports.
final class TransferLog: @unchecked Sendable {
    // Sendable invariant: every access holds `lock`.
    private let lock = NSLock()
    private var storage: [MemoryTransferEvent] = []
    func append(_ event: MemoryTransferEvent) { lock.withLock { storage.append(event) } }
    var events: [MemoryTransferEvent] { lock.withLock { storage } }
    var progress: [Double] { events.compactMap { if case .progress(let p) = $0 { p } else { nil } } }
    var recordIndices: [Int] { events.compactMap { if case .record(let i, _, _) = $0 { i } else { nil } } }
}
