import AxonBluetooth
import AxonDevices
import AxonOBD
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Synchronization
import Testing

/// A ``DeviceTransportFactory`` that passes every request on to BlueZ's and keeps what it was asked for: the
/// gateway reaches Bluetooth only through the factory it was given.
final class RecordingTransportFactory: DeviceTransportFactory {
    struct Request: Hashable {
        var device: String
        var bus: String?
        var services: [BluetoothUUID]
    }
    let requests = Mutex<[Request]>([])

    func makeTransport(
        device: String, bus: String?, discovering services: [BluetoothUUID], connectTimeout: Double,
        openTimeout: Double
    ) throws(TransportError) -> any DeviceTransport {
        requests.withLock { $0.append(Request(device: device, bus: bus, services: services)) }
        return try BlueZTransportFactory().makeTransport(
            device: device, bus: bus, discovering: services, connectTimeout: connectTimeout, openTimeout: openTimeout)
    }
}

/// The OBD gateway over a Bluetooth LE dongle: BlueZ's D-Bus API (the mock bluetoothd on a private bus) in front
/// of the real ELM327 emulator, relayed through the dongle's serial-over-GATT service (0xFFF0/0xFFF1/0xFFF2).
extension EmulatorSuites {
    @Suite("OBD gateway over Bluetooth LE", .enabled(if: BlueZTestBed.available))
    struct BluetoothDongleTests {
        @Test("reads over BLE equal the formulas applied to the answer; the supported-PID bitmap comes through")
        func readsOverBluetooth() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let bed = try BlueZTestBed(devices: ["elm327,C0:FF:EE:00:00:0D,OBDII-BLE,tcp=127.0.0.1:\(peer.port)"])
            defer { bed.stop() }

            let factory = RecordingTransportFactory()
            let gateway = authenticatedGateway(bluetooth: factory)
            let device = try gateway.connect(.ble(device: "OBDII-BLE", bus: bed.address))
            defer { gateway.disconnect() }
            // The dongle's transport came from the factory the gateway was given, discovering by the serial services.
            #expect(
                factory.requests.withLock { $0 }
                    == [.init(device: "OBDII-BLE", bus: bed.address, services: ["fff0", "ffe0", "18f0"])])
            #expect(device.banner.hasPrefix("ELM327"))
            #expect(device.identifier == "ble:OBDII-BLE")
            let speed = try gateway.readBasic(pid: 0x0D)
            #expect(speed.unit == "km/h" && speed.value == Double(speed.raw[0]))
            let rpm = try gateway.readBasic(pid: 0x0C)
            #expect(rpm.value == (256 * Double(rpm.raw[0]) + Double(rpm.raw[1])) / 4)
            let vin = try gateway.readBasic(pid: 256)
            print("OBD over BLE: speed \(speed.value ?? -1) km/h, rpm \(rpm.value ?? -1), VIN \(vin.text ?? "?")")
            #expect(vin.text?.count == 17)
            // The multi-frame bitmap answers arrive in 20-byte notifications and are reassembled at the prompt.
            let supported = try gateway.supportedPIDs()
            #expect(supported.isSuperset(of: [0x05, 0x0C, 0x0D, 0x2F]))
        }

        @Test("a scan finds the BLE dongles by their serial service: each answers as an ELM327, others are not listed")
        func scanFindsBluetoothDongles() async throws {
            // One emulator behind each dongle: an ELM327 serves one client at a time.
            let peers = [try EmulatorPeer(), try EmulatorPeer()]
            defer { peers.forEach { $0.stop() } }
            let dongles = ["C0:FF:EE:00:00:0D", "C0:FF:EE:00:00:0E"]
            let bed = try BlueZTestBed(devices: [
                "elm327,\(dongles[0]),OBDII-BLE,tcp=127.0.0.1:\(peers[0].port)",
                "elm327,\(dongles[1]),Vgate-iCar,tcp=127.0.0.1:\(peers[1].port)",
                "wss,C0:FF:EE:00:00:0F,Scale-0001,weight=77.6",
            ])
            defer { bed.stop() }

            let gateway = authenticatedGateway(bluetooth: BlueZTransportFactory())
            let found = try gateway.scanBluetooth(bus: bed.address, seconds: 0.5)
            #expect(Set(found.map(\.identifier)) == Set(dongles.map { "ble:\($0)" }), "the two dongles, not the scale")
            #expect(found.allSatisfy { $0.banner.hasPrefix("ELM327") && $0.name.contains("ELM327") })
            #expect(found.allSatisfy { $0.endpoint == .ble(device: String($0.identifier.dropFirst(4)), bus: bed.address) })
            // Found devices are remembered: connect by identifier, and read through it.
            let device = try gateway.connect(name: "ble:\(dongles[1])")
            #expect(device.identifier == "ble:\(dongles[1])")
            #expect(try gateway.readBasic(pid: 0x0D).unit == "km/h")
            gateway.disconnect()

            // A stack that only makes transports cannot scan: a typed error that says so.
            let error = #expect(throws: OBDGatewayError.self) {
                try authenticatedGateway(bluetooth: RecordingTransportFactory()).scanBluetooth(bus: bed.address)
            }
            guard case .bluetoothScan(let reason)? = error else {
                Issue.record("not a Bluetooth scan error: \(String(describing: error))")
                return
            }
            #expect(reason.contains("cannot discover"), "\(reason)")

            // The command line lists them too.
            let axon = try #require(AxonExecutable.path, "the axon executable is not built")
            let run = try await AxonExecutable.runOffPool(
                axon, ["obd", "scan", "--no-serial", "--bus", bed.address, "--ble-seconds", "0.5"])
            #expect(run.status == 0, "\(run.output)")
            for address in dongles { #expect(run.output.contains("ble:\(address)\t"), "\(run.output)") }
            #expect(run.output.contains("2 dongles found"), "\(run.output)")
        }

        @Test("without a Bluetooth stack a BLE endpoint is a typed error that says so, and nothing is opened")
        func withoutABluetoothStackABLEEndpointIsATypedError() throws {
            let gateway = authenticatedGateway()
            #expect(gateway.bluetooth == nil)
            let error = #expect(throws: OBDGatewayError.self) {
                try gateway.connect(.ble(device: "OBDII-BLE", bus: "unix:path=/nonexistent"))
            }
            guard case .adapter(.link(.cannotOpen(let endpoint, _, let reason)))? = error else {
                Issue.record("not a link that cannot open: \(String(describing: error))")
                return
            }
            #expect(endpoint == "ble:OBDII-BLE")
            #expect(reason.contains("no Bluetooth stack was given"), "\(reason)")
        }
    }
}
