import ArgumentParser
import AxonDevices
import AxonOpenBCI
import Dispatch
import Foundation

extension Axon {
    /// `axon impedance ganglion:NAME|cyton:PATH`: the board's electrode impedance check, printed as the OpenBCI GUI
    /// shows it.
    struct Impedance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check electrode impedance (OpenBCI Ganglion or Cyton): kΩ per channel with pass/fail, as the "
                + "OpenBCI GUI shows it.",
            discussion: """
                Ganglion: writes z, and the board stops its stream and measures channel 1, 2, 3, 4 and the \
                reference in turn (about 0.5 s each); a table after each round, then Z. The kΩ are the GUI's: half \
                of what the board reports (the electrode in series with the driven-ground electrode, taken as \
                comparable). Cyton: one channel at a time, the 6 nA lead-off current on its N input (z C 0 1 Z) \
                for --seconds of stream, the GUI's impedance from the 31.25 Hz amplitude; a row per channel. \
                Without hardware: scripts/bluez-mock/run.sh axon impedance ganglion:Ganglion-0030, or \
                axon simulate-cyton --impedance … and cyton:PTY (docs/openbci-ganglion.md, docs/openbci-cyton.md).
                """)

        @Argument(help: ArgumentHelp(
            "The board: ganglion:NAME|ADDRESS (through BlueZ) or cyton:PATH (its dongle's serial port).",
            valueName: "source"))
        var source: String

        @Option(help: ArgumentHelp(
            "Ganglion: seconds to check (default 10); a device not found by then (at most 30 s) is an error. Cyton: "
                + "seconds of stream per channel (default 1)."))
        var seconds: Double?

        @Option(help: ArgumentHelp(
            "Pass at or below this many kΩ (default: Ganglion \(fmt(ElectrodeImpedance.ganglionThreshold, 0)), the top "
                + "of the GUI's \"acceptable\"; Cyton \(fmt(ElectrodeImpedance.cytonThreshold, 0)), the GUI's green).",
            valueName: "kΩ"))
        var threshold: Double?

        @Option(help: "Cyton: the channels to check, comma-separated numbers (default: every channel).")
        var channels: String?

        @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).")
        var bus: String?

        func validate() throws {
            guard seconds.map({ $0 > 0 }) ?? true, threshold.map({ $0 > 0 }) ?? true else {
                throw ValidationError("--seconds and --threshold must be positive")
            }
        }

        func run() async throws {
            let specifier = try SourceArgument.resolve(source, command: "impedance")
            switch specifier {
            case .ganglion(let selector):
                try await checkGanglion(
                    selector: selector, seconds: seconds ?? 10,
                    threshold: threshold ?? ElectrodeImpedance.ganglionThreshold)
            case .cyton(let path):
                try checkCyton(path: path, threshold: threshold ?? ElectrodeImpedance.cytonThreshold)
            default:
                throw ValidationError(
                    "impedance checks a board: ganglion:NAME|ADDRESS or cyton:PATH (\(source) is neither)")
            }
        }

        private func checkCyton(path: String, threshold: Double) throws {
            let board = CytonBoard(path: path)
            defer { board.close() }
            let banner = try board.connect()
            let all = Array(1...board.channelCount)
            let chosen = try channels.map { text in
                try text.split(separator: ",").map { word -> Int in
                    guard let channel = Int(word.trimmingCharacters(in: .whitespaces)), all.contains(channel) else {
                        throw ValidationError("--channels takes numbers 1…\(board.channelCount), not \(word)")
                    }
                    return channel
                }
            } ?? all
            let perChannel = seconds ?? 1
            print(
                "axon impedance: OpenBCI Cyton on \(path) (\(banner.lines.first ?? "no banner")), channels "
                    + "\(chosen.map(String.init).joined(separator: ",")), \(fmt(perChannel, 1)) s each, N inputs; "
                    + "pass ≤ \(fmt(threshold, 0)) kΩ")
            let signals = StopSignals()
            let widths = [7, 9, 12]
            func row(_ cells: [String]) -> String {
                zip(cells, widths + [0]).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }
                    .joined(separator: "  ")
            }
            print(row(["channel", "kΩ", "GUI", "result"]))
            fflush(nil)
            var failing: [String] = []
            for channel in chosen where !signals.isSet {
                let electrode = try board.measureImpedance(channel: channel, seconds: perChannel).electrode
                let passes = electrode.passes(threshold: threshold)
                if !passes { failing.append(electrode.channel) }
                print(row([
                    electrode.channel, fmt(electrode.kiloohms, 1), electrode.grade?.rawValue ?? "no reading",
                    passes ? "pass" : "fail",
                ]))
                fflush(nil)
            }
            print(failing.isEmpty ? "every channel measured passes" : "failing: \(failing.joined(separator: ", "))")
        }

        private func checkGanglion(selector: String, seconds: Double, threshold: Double) async throws {
            let transport = try await BluetoothOptions.transport(
                selector: selector, bus: bus, service: BluetoothUUID(stringLiteral: GanglionPacket.service),
                kind: "OpenBCI Ganglion", searchSeconds: min(seconds, 30))
            defer { transport.central.close() }
            let check = GanglionImpedanceCheck(transport: transport)
            let signals = StopSignals()
            print(
                "axon impedance: OpenBCI Ganglion \(TerminalText.safe(selector)) through BlueZ on "
                    + "\(transport.central.bus.address), \(fmt(seconds, 0)) s; pass ≤ \(fmt(threshold, 0)) kΩ")
            fflush(nil)
            try await check.start()
            let started = Date()
            // The readings end at --seconds or at SIGINT/SIGTERM, whichever comes first.
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { check.finishEvents() }
            signals.onStop { check.finishEvents() }
            var printedAt = 0
            var rounds = 0
            for await event in check.events {
                switch event {
                case .linkReady:
                    await check.resumeIfReconnected()
                case .reading(let state):
                    // A round ends with the reference (channel 5), the last the firmware measures.
                    guard state.lastChannel == 5 else { continue }
                    printedAt = state.readingCount
                    rounds += 1
                    print("round \(rounds) (\(fmt(Date().timeIntervalSince(started), 1)) s)")
                    Self.printRound(state.electrodes, threshold: threshold)
                    fflush(nil)
                }
            }
            await check.stop()
            let state = check.state()
            if state.readingCount > printedAt {
                print("at the end (\(fmt(Date().timeIntervalSince(started), 1)) s), a round in progress")
                Self.printRound(state.electrodes, threshold: threshold)
            }
            guard state.readingCount > 0 else {
                throw ImpedanceError(
                    "no impedance reading from the Ganglion in \(fmt(seconds, 0)) s (commands written: "
                        + "\(state.commandsSent.joined(separator: " ")))")
            }
            let failing = state.electrodes.compactMap { $0 }.filter { !$0.passes(threshold: threshold) }
            print(
                "\(state.readingCount) readings; "
                    + (failing.isEmpty
                        ? "every channel measured passes"
                        : "failing: \(failing.map(\.channel).joined(separator: ", "))")
                    + (state.rejected > 0 ? "; \(state.rejected) notifications were not Ganglion packets" : ""))
        }

        /// One row per channel: kΩ, the GUI's band and pass/fail; `–` for a channel not measured yet.
        static func printRound(_ electrodes: [ElectrodeImpedance?], threshold: Double) {
            let rows = electrodes.enumerated().map { index, electrode -> [String] in
                guard let electrode else { return [index == 4 ? "REF" : String(index + 1), "–", "–", "–"] }
                return [
                    electrode.channel, fmt(electrode.kiloohms, 1), electrode.grade?.rawValue ?? "no reading",
                    electrode.passes(threshold: threshold) ? "pass" : "fail",
                ]
            }
            printTable(header: ["channel", "kΩ", "GUI", "result"], rows: rows)
        }
    }
}

/// A check that produced no reading.
struct ImpedanceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
