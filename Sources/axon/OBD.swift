import ArgumentParser
import AxonBluetooth
import AxonOBD
import AxonRecording
import Foundation

extension Axon {
    /// `axon obd …`: an OBD-II datalogger over an ELM327 dongle (serial line, pty or TCP).
    struct OBD: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "obd",
            abstract: "Read an OBD-II vehicle through an ELM327 dongle (serial port, pty, TCP or Bluetooth LE).",
            discussion: """
                The gateway has the Danlaw SmartConnect SDK's semantics: access validated before any service, basic \
                PID reads, continuous updates of up to 5 standard PIDs, hard-braking/acceleration events and event \
                batches acknowledged from a durable store. PIDs are names (speed, rpm, coolant, fuel, load, map, \
                intake, maf, throttle, runtime, ambient, oil, vin, dtc_list, fuel_economy, adapter_voltage, \
                supported_pids), hex (0x0C) or the SDK's numbers (12; custom PIDs from 256).
                """,
            subcommands: [OBDScan.self, OBDRead.self, OBDWatch.self, OBDLog.self, OBDEvents.self])
    }
}

/// Where the dongle is; shared by the OBD subcommands that connect.
struct OBDConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A serial device: /dev/ttyUSB0, /dev/rfcomm0, a pty.", valueName: "DEV"))
    var port: String?

    @Option(help: "Serial line speed.")
    var baud: Int = 38_400

    @Option(help: ArgumentHelp("A TCP dongle or emulator.", valueName: "HOST:PORT"))
    var tcp: String?

    @Option(help: ArgumentHelp("A Bluetooth LE dongle through BlueZ, by name or address.", valueName: "NAME"))
    var ble: String?

    @Option(help: "D-Bus address of the bus bluetoothd is on, for --ble (default: the system bus).")
    var bus: String?

    func validate() throws {
        guard [port, tcp, ble].compactMap({ $0 }).count <= 1 else {
            throw ValidationError("give one of --port DEV, --tcp HOST:PORT or --ble NAME")
        }
        if let tcp, OBDEndpoint.tcp(tcp) == nil { throw ValidationError("--tcp must be HOST:PORT") }
    }

    /// The endpoint given, if one was.
    var endpoint: OBDEndpoint? {
        if let port { return .serial(path: port, baudRate: baud) }
        if let ble { return .ble(device: ble, bus: bus) }
        return tcp.flatMap(OBDEndpoint.tcp)
    }

    /// The endpoint given; a command that needs one throws without it.
    func requiredEndpoint() throws -> OBDEndpoint {
        guard let endpoint else { throw ValidationError("give one of --port DEV, --tcp HOST:PORT or --ble NAME") }
        return endpoint
    }
}

/// How the command line authenticates with the gateway (a local key list, the default validator).
struct OBDAccessOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A local key list (lines `KEY APPLICATION`); with it --key (or AXON_OBD_KEY) must be in the list. "
                + "Without it the command line is the only holder of its own key.", valueName: "FILE"))
    var keys: String?

    @Option(help: "The API key to authenticate with (default: AXON_OBD_KEY).")
    var key: String?

    /// An authenticated gateway; throws the validator's code and message when refused.
    func gateway(eventLog: OBDEventLog? = nil, positionSource: (any OBDPositionSource)? = nil) throws -> OBDGateway {
        let ownKey = "axon-command-line"
        let validator: LocalKeyValidator
        if let keys {
            validator = LocalKeyValidator(contentsOf: try String(contentsOfFile: keys, encoding: .utf8))
        } else {
            validator = LocalKeyValidator(keys: [ownKey: "axon"])
        }
        // Bluetooth LE dongles (--ble, a favourite found over Bluetooth) through BlueZ.
        let gateway = OBDGateway(
            validator: validator, eventLog: eventLog, positionSource: positionSource,
            bluetooth: BlueZTransportFactory())
        let apiKey = key ?? ProcessInfo.processInfo.environment["AXON_OBD_KEY"] ?? ownKey
        let result = gateway.authenticate(apiKey: apiKey, issuedTo: "axon")
        guard result.isSuccess else { throw OBDGatewayError.accessDenied(code: result.code, message: result.message) }
        return gateway
    }
}

/// Parses PID arguments.
func parsePIDs(_ texts: [String]) throws -> [OBDPID] {
    try texts.map { text in
        guard let pid = OBDPID(parsing: text) else { throw ValidationError("unknown PID \"\(text)\"") }
        return pid
    }
}
