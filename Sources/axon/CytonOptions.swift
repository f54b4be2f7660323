import ArgumentParser
import AxonOpenBCI

/// `cyton:PATH`: an OpenBCI Cyton (or Cyton + Daisy) on its dongle's serial port or a simulator's pty.
enum CytonOptions {
    /// Opens the port, soft-resets the board and prints its banner.
    static func connect(path: String) throws -> CytonBoard {
        let board = CytonBoard(path: path)
        do {
            let banner = try board.connect()
            print("  Cyton on \(path): \(banner.lines.joined(separator: " | "))")
            print(
                "  \(board.channelCount) channels at \(Int(board.sampleRate)) Hz"
                    + (board.hasDaisy ? " (Daisy: odd packets board, even packets Daisy)" : ""))
        } catch {
            board.close()
            throw ValidationError("\(error)")
        }
        return board
    }

    /// One line of the decoder's counts.
    static func summary(_ state: CytonSourceState) -> String {
        let s = state.statistics
        var line =
            "  Cyton: \(s.packets) packets, \(s.frames) frames, \(s.missingPackets) packets missing by sample "
            + "number; faults: \(s.garbageRuns) garbage runs, \(s.truncatedPackets) truncated, \(s.wrongFooters) wrong "
            + "footers (\(s.discardedBytes) bytes discarded)"
        if let a = state.lastAcceleration {
            line += "; accelerometer \(a.map { fmt($0, 3) }.joined(separator: ", ")) g"
        }
        if let error = state.error { line += "; ended: \(error)" }
        return line
    }
}
