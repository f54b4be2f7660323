import ArgumentParser
import AxonOBD

extension Axon.OBD {
    /// `axon obd scan`: which endpoints answer as ELM327 dongles.
    struct OBDScan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "List the ELM327 dongles that answer: serial ports found in /dev and the endpoints given.",
            discussion: """
                Tries /dev/ttyUSB*, /dev/ttyACM* and /dev/rfcomm* (Bluetooth classic dongles bound with rfcomm), \
                then every --port and --tcp given. An endpoint is listed when it answers ATZ with an ELM327 banner; \
                its name is the adapter's AT@1 description and banner, the name `connect` and --name accept. \
                Bluetooth LE dongles are not scanned by this build.
                """)

        @Option(help: ArgumentHelp("Also try this serial device (repeatable).", valueName: "DEV"))
        var port: [String] = []

        @Option(help: ArgumentHelp("Also try this TCP endpoint (repeatable).", valueName: "HOST:PORT"))
        var tcp: [String] = []

        @Option(help: "Serial line speed.")
        var baud: Int = 38_400

        @Flag(help: "Skip the serial ports in /dev.")
        var noSerial = false

        @OptionGroup var access: OBDAccessOptions

        func run() throws {
            var endpoints = noSerial ? [] : OBDGateway.serialCandidates(baudRate: baud)
            endpoints += port.map { .serial(path: $0, baudRate: baud) }
            for text in tcp {
                guard let endpoint = OBDEndpoint.tcp(text) else { throw ValidationError("--tcp must be HOST:PORT") }
                endpoints.append(endpoint)
            }
            let gateway = try access.gateway()
            print("axon obd scan: trying \(endpoints.count) endpoint\(endpoints.count == 1 ? "" : "s")")
            let found = try gateway.scan(endpoints)
            for device in found { print("\(device.identifier)\t\(device.name)") }
            print("\(found.count) dongle\(found.count == 1 ? "" : "s") found")
        }
    }
}
