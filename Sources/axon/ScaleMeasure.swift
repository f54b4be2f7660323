import ArgumentParser
import AxonEventStore
import AxonRecording
import AxonScales

/// `axon scale measure DEVICE [--unit kg|lb|st]`.
struct ScaleMeasure: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure", abstract: "Measure: live and stable weight (HS5, BCS: body composition).")

    @OptionGroup var scale: ScaleDeviceOptions

    @Option(help: "Display unit: kg, lb or st.")
    var unit: String = "kg"

    @Option(help: "Seconds to wait for someone to step on a standard scale.")
    var seconds: Double = 60

    @Option(name: .customLong("timeout"), help: ArgumentHelp("Deprecated: --seconds.", visibility: .hidden))
    var deprecatedTimeout: Double?

    /// `--seconds`, or the old `--timeout`.
    var timeout: Double { deprecatedTimeout ?? seconds }

    @Option(
        help: ArgumentHelp(
            "Event store (SQLite) for the weights a standard scale or an HS3 over its serial port sends.",
            valueName: "DB"))
    var out: String?

    @OptionGroup var lsl: LSLOutputOptions

    func run() async throws {
        Deprecation.announce("--timeout", given: deprecatedTimeout != nil, use: "--seconds", command: "scale measure")
        guard let unit = WeightUnit(rawValue: unit) else { throw ValidationError("--unit takes kg, lb or st") }
        // Weights go out in kg whatever the display unit, as irregular LSL streams (one sample per reading).
        let library = try lsl.library()
        let liveOutlet = try lsl.outlet(ScaleStreams.liveWeight(sourceID: "scale:\(scale.device)/live"), library: library)
        let stableOutlet = try lsl.outlet(
            ScaleStreams.stableWeight(sourceID: "scale:\(scale.device)/stable"), library: library)
        let model = try await scale.scaleModel()
        let records = try out.map { path in
            try ScaleRecordStore(store: try EventStore(path: path), device: scale.device, model: model)
        }
        let open = try await scale.open(model: model, recordStore: records)
        let session = open.session
        let printer = Task {
            for await event in session.events {
                switch event {
                case .unstableWeight(let sample):
                    liveOutlet?.publishNow([sample.payload])
                    print("live      \(WeightConversion.displayed(kilograms: sample.payload, in: unit))")
                case .stored(let record, let outcome): print("stored    \(record.weightKg) kg (\(outcome))")
                case .error(let error): print("error     \(error)")
                case .link(.linkLost(let reason)): print("link lost: \(reason)")
                default: break
                }
            }
        }
        do {
            try await open.start(scale.credentials)
            if session.model == .standard { open.simulated?.stepOn(weightKg: scale.weight) }
            let m = try await session.measure(unit: unit, seconds: timeout)
            stableOutlet?.publishNow([m.stableWeightKg])
            stableOutlet?.finishSending()
            print("stable    \(m.displayed)  (\(m.stableWeightKg) kg)")
            if let time = m.time { print("time      \(GATTDateTime(unixTime: time)) UTC") }
            if let kg = m.impedanceWeightKg {
                print("impedance \(WeightConversion.displayed(kilograms: kg, in: unit))")
            }
            if let c = m.bodyComposition { printComposition(c) }
            if session.wire == .hs3SerialPort {
                let s = session.hs3SerialStatistics
                print(
                    "stream    \(s.bytes) bytes: \(s.weightPackets) weight packets (\(s.repeatedWeights) repeats), "
                        + "\(s.timePackets) time packets, \(s.skippedBytes) bytes skipped")
            }
        } catch {
            await open.close()
            await printer.value
            throw error
        }
        await open.close()
        await printer.value
    }

    private func printComposition(_ c: BodyComposition) {
        func show(_ label: String, _ value: Double?, _ unit: String) {
            if let value {
                print(
                    "\(label.padding(toLength: 18, withPad: " ", startingAt: 0))\(String(format: "%.1f", value)) \(unit)"
                )
            }
        }
        show("body fat", c.fatPercent, "%")
        show("water", c.waterPercent, "%")
        show("muscle", c.musclePercent, "%")
        show("bone mass", c.boneMassKg, "kg")
        if let level = c.visceralFatLevel { print("visceral fat level \(level)") }
        if let dci = c.dciKcal { print("DCI               \(dci) kcal") }
        show("impedance", c.impedanceOhm, "Ω")
    }
}
