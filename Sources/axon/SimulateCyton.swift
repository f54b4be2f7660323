import ArgumentParser
import AxonOpenBCI
import AxonRecording
import AxonStreams
import Foundation

extension Axon {
    /// A simulated Cyton on a pseudo-terminal, streaming a recording as the board's 33-byte packets.
    struct SimulateCyton: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate-cyton",
            abstract: "Run a simulated OpenBCI Cyton on a pseudo-terminal that streams a recording as real packets.",
            discussion: """
                Prints the pty's path; point `axon demo --device cyton:PATH` or `axon record --device cyton:PATH` \
                at it. The simulator answers the board's text exchange (v, b, s, d, channel settings) and sends \
                the recording's first 8 channels as 33-byte packets at 250 Hz × --speed. With --daisy it is a Cyton \
                + Daisy: 16 channels at 125 Hz, made of the recording's frames two by two (even frames on the board, \
                odd frames on the Daisy). Runs until the recording ends (or forever with --loop) or SIGINT/SIGTERM.
                """)

        @Argument(help: ArgumentHelp(
            "The recording to stream (OpenBCI GUI text or any format `axon info` reads, 8+ channels; default: the "
                + "OpenBCI GUI's sample recording).", valueName: "source"))
        var source: String?

        @Option(name: .customLong("file"), help: ArgumentHelp("Deprecated: give the recording as SOURCE.", visibility: .hidden))
        var deprecatedFile: String?

        /// SOURCE, the old `--file`, or the sample recording.
        var file: String { source ?? deprecatedFile ?? Demo.defaultFile }

        @Option(help: "Pacing multiplier (1 = the board's real rate).")
        var speed: Double = 1

        @Option(help: "Stream from this second of the recording.")
        var from: Double = 0

        @Option(help: "Stream up to this second (default: the end).")
        var to: Double?

        @Flag(help: "A Cyton + Daisy (16 channels at 125 Hz).")
        var daisy = false

        @Flag(help: "Start over at the end of the recording.")
        var loop = false

        @Option(help: ArgumentHelp(
            "Electrode impedances in kΩ, channel 1 first, comma-separated: what the lead-off check (axon impedance "
                + "cyton:PATH) measures; channels not given show no lead-off signal.", valueName: "kΩ,…"))
        var impedance: String?

        func validate() throws {
            guard speed > 0, from >= 0, to.map({ $0 > from }) ?? true else {
                throw ValidationError("need speed > 0 and 0 ≤ from < to")
            }
        }

        func run() throws {
            Deprecation.announce("--file", given: deprecatedFile != nil, use: "SOURCE", command: "simulate-cyton")
            let electrodeOhms = try (impedance ?? "").split(separator: ",").map { word -> Double in
                guard let kiloohms = Double(word.trimmingCharacters(in: .whitespaces)), kiloohms >= 0 else {
                    throw ValidationError("--impedance takes kΩ values ≥ 0, comma-separated, not \(word)")
                }
                return kiloohms * 1000
            }
            var recording: AxonRecording.Recording
            do {
                recording = try RecordingReader.read(path: file)
                recording = try recording.segment(from: from, to: to ?? recording.duration)
            } catch {
                throw CommandFailure(source == nil ? "\(error) (run from the project's folder, or give a SOURCE)" : "\(error)")
            }
            guard recording.channelCount >= 8 else {
                throw CommandFailure("\(file) has \(recording.channelCount) channels; a Cyton sends 8")
            }
            let eight = (0..<recording.frameCount).flatMap { Array(recording.frame($0).prefix(8)) }
            // With a Daisy, frames 2i and 2i + 1 side by side are one 16-channel frame.
            let values = daisy ? Array(eight.prefix(recording.frameCount / 2 * 16)) : eight
            let simulator = try SimulatedCyton(
                configuration: .init(
                    values: values, channelCount: daisy ? 16 : 8, speed: speed, loops: loop,
                    electrodeOhms: electrodeOhms))
            try simulator.start()
            print(
                "simulated Cyton\(daisy ? " + Daisy" : "") on \(simulator.path): \(file), "
                    + "\(fmt(recording.duration, 1)) s at \(fmt(speed, 1))×\(loop ? ", looping" : "")")
            print("  try: axon demo cyton:\(simulator.path)")
            if !electrodeOhms.isEmpty { print("  or: axon impedance cyton:\(simulator.path)") }
            flushStandardOutput()
            let stop = StopSignals()
            while !stop.isSet, !simulator.counters().finished { usleep(100_000) }
            simulator.stop()
            let counters = simulator.counters()
            print(
                "done: \(counters.packetsSent) packets (\(counters.framesSent) frames) sent; commands received: "
                    + counters.commands.joined(separator: " "))
        }
    }
}
