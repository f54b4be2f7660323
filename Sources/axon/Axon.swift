import ArgumentParser

/// The `axon` command line: parses, wires library pieces together and prints. Its entry point and exit-code rule:
/// `CommandLineEntry.swift`.
@main
struct Axon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "axon",
        abstract: "Axon: a real-time EEG signal-processing engine with pluggable device adapters.",
        version: "axon \(AxonVersion.current)",
        subcommands: [
            Demo.self, Analyze.self, Record.self, Replay.self, Info.self, Convert.self, StreamDemo.self, Bench.self,
            Scan.self, OBD.self, Scale.self, Band.self, ResearchBIT.self, SimulateCyton.self, LSL.self, Fleet.self,
            Impedance.self, Plot.self, Sensor.self,
        ] + liveViewCommands,
        defaultSubcommand: Demo.self)

    /// `axon view` and `axon view-bench`, built with the LiveView trait (on by default).
    static var liveViewCommands: [any ParsableCommand.Type] {
        #if LiveView
            [View.self, ViewBench.self]
        #else
            []
        #endif
    }
}
