import Dispatch
import Foundation

/// SIGINT and SIGTERM as a flag: a recording command polls it between progress lines and then closes its files
/// cleanly, instead of dying with them half written. Keep the value alive as long as the command runs.
final class StopSignals {
    private let flag = CompletionFlag()
    private let sources: [any DispatchSourceSignal]

    init() {
        StandardOutputSignals.handOver()
        let flag = flag
        // No `signal(_, SIG_IGN)` here: `Axon.main` ignored them before its own sources started, and ignoring them
        // again would replace the handler Dispatch installed then.
        sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { flag.set() }
            source.resume()
            return source
        }
    }

    deinit { for source in sources { source.cancel() } }

    /// Whether SIGINT or SIGTERM has arrived.
    var isSet: Bool { flag.isSet }
}
