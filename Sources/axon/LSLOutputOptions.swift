import ArgumentParser
import AxonLSL
import AxonStreams

/// `--lsl-out` and `--lsl-config` for the commands whose streams are not EEG: OBD PIDs, heart rate, weights. Each
/// stream goes out as an LSL outlet under its own descriptor (name, type, channels and units, stable source id).
struct LSLOutputOptions: ParsableArguments {
    @Flag(help: "Publish this command's streams (and its status) as LSL outlets (docs/lsl.md).")
    var lslOut = false

    @Option(help: "A liblsl configuration file for --lsl-out (default: this machine only).")
    var lslConfig: String?

    /// liblsl with the command's configuration when `--lsl-out` is given; nil otherwise.
    func library() throws -> LSLLibrary? {
        guard lslOut else { return nil }
        return try LSLCommandSupport.run(configuration: lslConfig) { $0 }
    }

    /// An outlet for `descriptor` when `--lsl-out` is given.
    func outlet(_ descriptor: StreamDescriptor, library: LSLLibrary?) throws -> LSLOutlet? {
        guard let library else { return nil }
        return try LSLCommandSupport.run { _ in try LSLOutlet(descriptor: descriptor, library: library) }
    }

    /// A status outlet for `descriptor`'s stream when `--lsl-out` is given.
    func statusOutlet(_ descriptor: StreamDescriptor, library: LSLLibrary?) throws -> StatusOutlet? {
        guard let library else { return nil }
        return try LSLCommandSupport.run { _ in try StatusOutlet(stream: descriptor, library: library) }
    }
}

extension LSLOutlet {
    /// Pushes one irregular sample stamped now; a failure is printed, never fatal to the command.
    func publishNow(_ values: [Double]) {
        do { try push(values, timestamp: now) } catch { print("lsl outlet \(descriptor.name): \(error)") }
    }
}

extension StatusOutlet {
    /// Publishes one status line stamped now; a failure is printed, never fatal to the command.
    func publishNow(_ text: String) {
        do { try publish(text) } catch { print("lsl status outlet: \(error)") }
    }
}
