import ArgumentParser
import AxonFleet
import Foundation

/// `axon fleet worker`: a stateful engine worker until SIGINT/SIGTERM.
struct FleetWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run a stateful engine worker: take a share of the device partitions, publish spectra and zones, checkpoint, fail over.")

    @Option(help: "Worker id (default: host-pid).")
    var id: String?

    @Option(help: "Seconds of baseline from each device's first sample (the same on every worker).")
    var baseline: Double = 60

    @Option(help: "Seconds between indicators (the same on every worker).")
    var indicator: Double = 10

    @Option(help: "Seconds between checkpoints.")
    var checkpoint: Double = 2

    @Option(help: "Print a status line every this many seconds (0 = never).")
    var report: Double = 10

    @OptionGroup var connection: FleetConnectionOptions

    func validate() throws {
        guard baseline > 0, indicator > 0, checkpoint > 0, report >= 0 else {
            throw ValidationError("need --baseline, --indicator, --checkpoint > 0 and --report ≥ 0")
        }
    }

    func run() throws {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "host"
        let workerID = id ?? "\(host.filter { $0.isLetter || $0.isNumber || $0 == "-" })-\(getpid())"
        let nats = try connection.connect(name: "axon-worker-\(workerID)")
        let worker = try FleetWorker(
            nats: nats,
            options: .init(
                id: workerID, settings: .init(baselineSeconds: baseline, indicatorSeconds: indicator),
                checkpointInterval: checkpoint,
                log: { line in
                    let stamp = String(format: "%.3f", Date().timeIntervalSince1970)
                    FileHandle.standardError.write(Data("[\(stamp)] \(line)\n".utf8))
                }),
            replicas: connection.replicas)
        let signals = StopSignals()
        worker.start()
        print("axon fleet worker \(workerID): running (SIGINT or SIGTERM stops it after a last checkpoint)")
        var nextReport = Date().timeIntervalSince1970 + report
        let tick = DispatchSemaphore(value: 0)
        while !signals.isSet {
            _ = tick.wait(timeout: .now() + 0.25)
            guard report > 0, Date().timeIntervalSince1970 >= nextReport else { continue }
            nextReport += report
            let s = worker.statistics()
            print(
                "worker \(workerID): partitions \(s.partitions), \(s.devices) devices, \(s.batches) batches, "
                    + "\(s.spectra) spectra, \(s.zones) zones, lag \(fmt(s.lag, 3)) s (max \(fmt(s.maxLag, 3))), "
                    + "rejected \(s.rejected), cpu \(fmt(s.cpuSeconds, 1)) s")
        }
        worker.stop()
        let s = worker.statistics()
        print("axon fleet worker \(workerID): stopped after \(s.batches) batches, \(s.spectra) spectra, \(s.zones) zones")
    }
}
