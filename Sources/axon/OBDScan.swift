import ArgumentParser
import AxonOBD

extension Axon.OBD {
    /// `axon obd scan`: which endpoints answer as ELM327 dongles.
    struct OBDScan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract:
                "List the ELM327 dongles that answer: serial ports in /dev, Bluetooth LE dongles and the endpoints given.",
            discussion: """
                Tries /dev/ttyUSB*, /dev/ttyACM* and /dev/rfcomm* (Bluetooth classic dongles bound with rfcomm), \
                then every --port and --tcp given. An endpoint is listed when it answers ATZ with an ELM327 banner; \
                it is listed as its endpoint and the adapter's AT@1 description and banner. \
                Then BlueZ is scanned for --ble-seconds for Bluetooth LE devices advertising a serial-over-GATT \
                service of OBD dongles (0xFFF0, 0xFFE0, 0x18F0); each that answers ATZ is listed as ble:ADDRESS. \
                Without bluetoothd the Bluetooth LE part is reported as not scanned and the rest goes on. \
                `axon obd read`, `watch` and `events` reach a listed dongle with --port DEV, --tcp HOST:PORT or \
                --ble ADDRESS.
                """)

        @Option(help: ArgumentHelp("Also try this serial device (repeatable).", valueName: "DEV"))
        var port: [String] = []

        @Option(help: ArgumentHelp("Also try this TCP endpoint (repeatable).", valueName: "HOST:PORT"))
        var tcp: [String] = []

        @Option(help: "Serial line speed.")
        var baud: Int = 38_400

        @Flag(help: "Skip the serial ports in /dev.")
        var noSerial = false

        @Flag(help: "Skip the Bluetooth LE scan.")
        var noBle = false

        @Option(help: "Seconds to scan for Bluetooth LE dongles.")
        var bleSeconds: Double = 4

        @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).")
        var bus: String?

        func validate() throws {
            guard bleSeconds.isFinite, bleSeconds > 0 else { throw ValidationError("--ble-seconds must be > 0") }
        }

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
            var found = try gateway.scan(endpoints)
            if !noBle {
                let scanned: Result<[OBDDevice], OBDGatewayError>
                do { scanned = .success(try gateway.scanBluetooth(bus: bus, seconds: bleSeconds)) } catch {
                    scanned = .failure(error)
                }
                switch scanned {
                case .success(let dongles):
                    print("Bluetooth LE: \(dongles.count) dongle\(dongles.count == 1 ? "" : "s") answered")
                    found += dongles
                case .failure(.bluetoothScan(let reason)):
                    print("Bluetooth LE: not scanned (\(reason))")
                case .failure(.bluetoothScanFailed(let error)):
                    print("Bluetooth LE: not scanned (\(error))")
                case .failure(let error):
                    throw error
                }
            }
            for device in found { print("\(device.identifier)\t\(device.name)") }
            print("\(found.count) dongle\(found.count == 1 ? "" : "s") found")
        }
    }
}
