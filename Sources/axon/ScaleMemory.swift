import ArgumentParser
import AxonEventStore
import AxonRecording
import AxonScales
import Foundation

/// `axon scale memory DEVICE [--out DB]`.
struct ScaleMemory: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Transfer the scale's stored records into the event store (idempotent: a repeat stores none new).")

    @OptionGroup var scale: ScaleDeviceOptions

    @Option(help: "The event store (SQLite) to write; the same default file as band and researchbit commands.")
    var out: String = "axon-events.sqlite"

    @Option(help: "Simulated scales: drop the link once after this many records (the transfer resumes).")
    var linkLossAfter: Int?

    func run() async throws {
        let open = try await scale.open(linkLossAfterRecords: linkLossAfter)
        let session = open.session
        let closer = open
        let store = try ScaleRecordStore(store: try EventStore(path: out), device: session.device, model: session.model)
        do {
            try await closer.start(scale.credentials)
            let summary = try await session.transferMemory(into: store) { event in
                switch event {
                case .started(let count): print("start: \(count) records")
                case .progress(let p):
                    if (p * 100).rounded() == p * 100 && Int(p * 100) % 10 == 0 {
                        print(String(format: "progress %.2f", p))
                    }
                case .interrupted(let next): print("link lost: resuming at record \(next)")
                case .finished: print("finish")
                case .record: break
                }
            }
            print(
                """
                \(summary.count) records: \(summary.inserted) new, \(summary.duplicates) already stored\
                \(summary.conflicts > 0 ? ", \(summary.conflicts) conflicting" : ""), \(summary.resumptions) \
                resumption\(summary.resumptions == 1 ? "" : "s"); \(try store.count()) in \(out)
                """)
        } catch {
            await closer.close()
            throw error
        }
        await closer.close()
    }
}
