import AxonStreams

/// The consuming half of `axon record`'s auxiliary streams (a Muse's motion and PPG, a Polar H10's accelerometer and
/// RR intervals): reads a device's auxiliary samples on a detached task, hands each to the recording's writer,
/// counts what was written per stream and keeps the first failure, and gives the closing line.
///
/// Threading: ``start(_:stream:count:write:finished:)`` once, on the command's thread; ``finish(label:files:)`` on
/// the command's thread after the device's run has returned (its sample stream then ends).
final class AuxiliaryStreamConsumer<Stream: Hashable & Sendable & RawRepresentable<String>>: Sendable {
    private let counts = ThreadLocked<[Stream: Int]>([:])
    private let task: ThreadLocked<Task<Void, Never>?> = ThreadLocked(nil)
    private let failure = ThreadLocked<String?>(nil)

    /// Consumes `samples` on a detached task: `write` gets each one (a failure is kept and the next sample still
    /// written), `count` says how many frames it adds to its `stream`; `finished` runs after the last.
    func start<Sample: Sendable>(
        _ samples: AsyncStream<Sample>, stream: @escaping @Sendable (Sample) -> Stream,
        count: @escaping @Sendable (Sample) -> Int, write: @escaping @Sendable (Sample) throws -> Void,
        finished: @escaping @Sendable () throws -> Void
    ) {
        let counts = self.counts
        let failure = self.failure
        let consumer = Task.detached {
            for await sample in samples {
                do {
                    try write(sample)
                    counts.withLock { $0[stream(sample), default: 0] += count(sample) }
                } catch {
                    failure.withLock { if $0 == nil { $0 = "\(stream(sample).rawValue): \(error)" } }
                }
            }
            do { try finished() } catch { failure.withLock { if $0 == nil { $0 = "closing: \(error)" } } }
        }
        task.withLock { $0 = consumer }
    }

    /// Waits until every sample is written; returns the closing line (`label: stream N samples → file, …`) and the
    /// first failure, if any.
    func finish(label: String, files: [Stream: String]) -> (summary: String, failure: String?) {
        if let consumer = task.withLock({ $0 }) { waitForTask(consumer) }
        let written = counts.withLock { $0 }
        let parts = written.sorted { $0.key.rawValue < $1.key.rawValue }.map { stream, count in
            "\(stream.rawValue) \(count) samples" + (files[stream].map { " → \($0)" } ?? "")
        }
        return ("\(label): " + (parts.isEmpty ? "no auxiliary samples" : parts.joined(separator: ", ")), failure.withLock { $0 })
    }
}
