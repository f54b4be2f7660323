import ArgumentParser
import AxonStreams
import CLinux
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// The version `axon --version` prints (any subcommand takes `--version` too).
enum AxonVersion {
    static let current = "0.3.0"
}

extension Axon {
    /// Parses and runs the command as ArgumentParser's `main` does, with the rules every command shares:
    ///
    /// - **Exit codes.** 64 (`EX_USAGE`) for a usage mistake, with the command's usage; 1 for a failure while
    ///   running, as one line naming the command, never followed by a usage block; 0 for success.
    /// - **Typos.** A first word that is neither a command nor a SOURCE gets "did you mean `record`?" instead of
    ///   being taken as the default command's argument.
    /// - **Output.** Standard output is line-buffered, so `axon demo | tee log` shows each row as it is printed,
    ///   and SIGINT/SIGTERM flush it before the process ends (unless the command handles them itself).
    /// - **Files.** The umask every command starts with (``FileModeOption/defaultUmask``): nothing Axon creates is
    ///   readable by other users unless asked.
    static func main() async {
        umask(FileModeOption.defaultUmask)
        axon_line_buffer_stdout()
        StandardOutputSignals.install()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let typo = CommandTypo.find(in: arguments) {
            printError(typo.message)
            Glibc.exit(CommandExit.usage)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            CommandExit.fail(type(of: command), error)
        }
        fflush(nil)
    }
}

/// How a command that has started running ends on an error.
enum CommandExit {
    /// `EX_USAGE` from sysexits.h: the command line was wrong.
    static let usage: Int32 = 64

    /// Ends the process for `error`, thrown by `command`'s `run`: a usage mistake found late (a `ValidationError`,
    /// ArgumentParser's own exits) as ArgumentParser reports it, with the command's usage; anything else as one
    /// line on standard error and exit status 1.
    static func fail(_ command: any ParsableCommand.Type, _ error: any Error) -> Never {
        fflush(nil)
        if let usage = error as? ValidationError {
            let path = "axon \(commandPath(command))"
            printError("Error: \(TerminalText.safe(usage.message))\nUsage: " + Axon.usageString(for: command)
                + "\n  See '\(path) --help' for more information.")
            Glibc.exit(CommandExit.usage)
        }
        // ArgumentParser's own: ExitCode, CleanExit, and the help and version requests its built-in `help`
        // command throws from `run`.
        if String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") { Axon.exit(withError: error) }
        printError("axon \(commandPath(command)): \(TerminalText.safe(String(describing: error)))")
        Glibc.exit(1)
    }

    /// `record`, `obd read`: the command's words after `axon`.
    static func commandPath(_ command: any ParsableCommand.Type) -> String {
        var path: [String] = []
        func walk(_ node: any ParsableCommand.Type, _ trail: [String]) -> Bool {
            if node == command {
                path = trail
                return true
            }
            return node.configuration.subcommands.contains { walk($0, trail + [$0._commandName]) }
        }
        _ = walk(Axon.self, [])
        return path.joined(separator: " ")
    }
}

/// Text from outside Axon (a file's bytes in an error, a device's name) made safe to print on a terminal.
enum TerminalText {
    /// `text` with control characters other than newline and tab shown as `\u{…}` escapes, replacement
    /// characters (bytes that were not UTF-8) as `\?`, and each line cut at `limit` characters.
    static func safe(_ text: String, limit: Int = 400) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var shown = ""
            var count = 0
            for scalar in line.unicodeScalars {
                if count >= limit {
                    shown += "…"
                    break
                }
                switch scalar {
                case "\t": shown.unicodeScalars.append(scalar)
                case "\u{FFFD}": shown += "\\?"
                case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                    shown += "\\u{" + String(scalar.value, radix: 16) + "}"
                default: shown.unicodeScalars.append(scalar)
                }
                count += 1
            }
            return shown
        }.joined(separator: "\n")
    }
}

/// SIGINT and SIGTERM for commands that do not handle them: standard output is flushed, then the process ends
/// as the signal would have ended it (status 128 + the signal). A command that stops cleanly on a signal
/// (``StopSignals``) takes them over for its run.
enum StandardOutputSignals {
    private static let sources = ThreadLocked<[any DispatchSourceSignal]>([])
    private static let takenOver = CompletionFlag()

    static func install() {
        // Ignored first, then watched: Dispatch installs its own handler when the first source for a signal starts,
        // and a later `signal(_, SIG_IGN)` would replace it (commands that take the signals over add sources only).
        let made = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard !takenOver.isSet else { return }
                fflush(nil)
                // The default action, on this thread (a Dispatch worker blocks signals, and a process-directed
                // signal could be taken by Dispatch again).
                signal(number, SIG_DFL)
                var this = sigset_t()
                sigemptyset(&this)
                sigaddset(&this, number)
                pthread_sigmask(SIG_UNBLOCK, &this, nil)
                raise(number)
            }
            source.resume()
            return source
        }
        sources.withLock { $0 = made }
    }

    /// From now on the command handles SIGINT and SIGTERM itself.
    static func handOver() { takenOver.set() }
}

/// A failure while a command runs that is not a usage mistake: exit status 1, one line, no usage.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
