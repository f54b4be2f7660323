import AxonStreams
import Dispatch
import Foundation

/// SIGINT and SIGTERM as a flag: a recording command polls it between progress lines and then closes its files
/// cleanly, instead of dying with them half written. Keep the value alive as long as the command runs.
final class StopSignals {
    private let flag = CompletionFlag()
    private let handlers = ThreadLocked<[@Sendable () -> Void]>([])
    private let sources: [any DispatchSourceSignal]

    init() {
        StandardOutputSignals.handOver()
        let flag = flag
        let handlers = handlers
        // No `signal(_, SIG_IGN)` here: `Axon.main` ignored them before its own sources started, and ignoring them
        // again would replace the handler Dispatch installed then.
        sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                flag.set()
                for handler in handlers.withLock({ $0 }) { handler() }
            }
            source.resume()
            return source
        }
    }

    /// Runs `body` when SIGINT or SIGTERM arrives (at once if one already has), for a command that waits on
    /// something else than this flag.
    func onStop(_ body: @escaping @Sendable () -> Void) {
        handlers.withLock { $0.append(body) }
        if isSet { body() }
    }

    deinit { for source in sources { source.cancel() } }

    /// Whether SIGINT or SIGTERM has arrived.
    var isSet: Bool { flag.isSet }
}
