import ArgumentParser

/// The `axon` command line: parses, wires library pieces together and prints. It holds no logic of its own.
@main
struct Axon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "axon",
        abstract: "Axon: a real-time EEG signal-processing engine with pluggable device adapters.",
        subcommands: [
            Demo.self, Analyze.self, Record.self, Replay.self, Info.self, Convert.self, StreamDemo.self, Bench.self,
            Scan.self, OBD.self, Scale.self, Band.self, ResearchBIT.self, SimulateCyton.self, LSL.self, View.self,
            ViewBench.self, Fleet.self,
        ],
        defaultSubcommand: Demo.self)
}
