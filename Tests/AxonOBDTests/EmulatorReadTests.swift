import AxonOBD
import Foundation
import StreamTestSupport
import Testing

/// Acceptance 1 and 3 against the real ELM327 emulator (scenario `car`) over TCP.
extension EmulatorSuites {
    @Suite("OBD gateway: reads, scan, registration errors")
    struct EmulatorReadTests {
        @Test("speed, RPM, coolant and fuel level equal the formulas applied to the emulator's bytes; bitmap parsed")
        func basicReads() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway()
            let device = try gateway.connect(peer.endpoint)
            #expect(device.banner.hasPrefix("ELM327"))

            // The formulas, written here independently of OBDStandardPID.
            let formulas: [(Int, String, ([UInt8]) -> Double)] = [
                (0x0D, "km/h", { Double($0[0]) }),
                (0x0C, "rpm", { (256 * Double($0[0]) + Double($0[1])) / 4 }),
                (0x05, "°C", { Double($0[0]) - 40 }),
                (0x2F, "%", { Double($0[0]) * 100 / 255 }),
            ]
            for (pid, unit, formula) in formulas {
                let reading = try gateway.readBasic(pid: pid)
                let value = try #require(reading.value)
                print("OBD read PID 0x\(String(pid, radix: 16)): raw \(reading.raw) → \(value) \(reading.unit)")
                #expect(reading.unit == unit)
                #expect(reading.raw.count == (pid == 0x0C ? 2 : 1))
                #expect(value == formula(reading.raw))
            }

            // The bitmap: the gateway's set equals the bits of the emulator's 0100/0120/0140/… answers, decoded here.
            let client = ELM327Client(link: TCPLink(host: "127.0.0.1", port: peer.port))
            gateway.disconnect()
            try client.open()
            defer { client.close() }
            var expected: Set<UInt8> = []
            var base = 0
            repeat {
                let messages = try client.request(String(format: "01%02X", base), timeout: 10)
                let message = try #require(messages.first)
                #expect(Array(message.prefix(2)) == [0x41, UInt8(base)])
                let word = message[2...5].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                for bit in 0..<32 where word & (UInt32(1) << UInt32(31 - bit)) != 0 {
                    expected.insert(UInt8(base + bit + 1))
                }
                base += 0x20
            } while expected.contains(UInt8(base)) && base < 0xE0
            let reconnected = authenticatedGateway()
            client.close()
            try reconnected.connect(peer.endpoint)
            let supported = try reconnected.supportedPIDs()
            print("OBD supported PIDs: \(supported.count), ranges read up to 0x\(String(base, radix: 16))")
            #expect(supported == expected)
            #expect(supported.isSuperset(of: [0x05, 0x0C, 0x0D, 0x2F]))
        }

        @Test("six PIDs, a custom PID, an unsupported PID: typed errors naming the cause; the gateway stays usable")
        func registrationErrors() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway()
            try gateway.connect(peer.endpoint)
            #expect(throws: OBDGatewayError.tooManyPIDs(count: 6, limit: 5)) {
                try gateway.registerDataPIDs(
                    requestID: 1, pids: [0x0D, 0x0C, 0x05, 0x2F, 0x04, 0x11], rate: 5, sinks: [])
            }
            #expect(throws: OBDGatewayError.customPIDNotRegistrable(pid: 256, name: "vin")) {
                try gateway.registerDataPIDs(requestID: 2, pids: [0x0D, 256], rate: 5, sinks: [])
            }
            // The car's bitmap has no 0x5C (oil temperature): the whole request fails, naming it.
            #expect(throws: OBDGatewayError.unsupportedPID(pid: 0x5C, name: "oil_temperature")) {
                try gateway.registerDataPIDs(requestID: 3, pids: [0x0D, 0x5C], rate: 5, sinks: [])
            }
            #expect(throws: OBDGatewayError.unknownPID(999)) {
                try gateway.registerDataPIDs(requestID: 4, pids: [999], rate: 5, sinks: [])
            }
            #expect(gateway.registrations.isEmpty)
            // A basic read of the unsupported PID: the emulator's NO DATA, typed.
            #expect(throws: OBDGatewayError.adapter(.response(.noData(command: "015C")))) {
                try gateway.readBasic(pid: 0x5C)
            }
            // Still usable: a read, a custom PID read and a valid registration.
            #expect(try gateway.readBasic(pid: 0x0D).value != nil)
            let vin = try gateway.readBasic(pid: OBDCustomPID.vin.rawValue)
            #expect(vin.text?.count == 17)
            let sink = CollectingSink()
            try gateway.registerDataPIDs(requestID: 5, pids: [0x0D], rate: 10, sinks: [sink])
            guard waitUntil(seconds: 30, interval: 0.05, { sink.snapshot.timestamps.count >= 3 }) else { return }
            try gateway.unregisterDataPIDs(requestID: 5)
            #expect(sink.snapshot.closed)
            #expect(throws: OBDGatewayError.unknownRequestID(5)) { try gateway.unregisterDataPIDs(requestID: 5) }
        }

        @Test("the serial link: the emulator's pseudo-terminal in raw mode, read with poll(2)")
        func serialPty() throws {
            let peer = try EmulatorPeer(pty: true)
            defer { peer.stop() }
            let path = try #require(peer.ptyPath)
            let gateway = authenticatedGateway()
            let device = try gateway.connect(.serial(path: path, baudRate: 38_400))
            #expect(device.identifier == path)
            let rpm = try gateway.readBasic(pid: 0x0C)
            let value = try #require(rpm.value)
            #expect(value == (256 * Double(rpm.raw[0]) + Double(rpm.raw[1])) / 4)
            let vin = try gateway.readBasic(pid: OBDCustomPID.vin.rawValue)  // a multi-frame answer over the pty
            #expect(vin.text?.count == 17)
            print("OBD over pty \(path): \(value) rpm, VIN \(vin.text ?? "")")
            #expect(
                throws: OBDGatewayError.adapter(
                    .link(
                        .cannotOpen(
                            endpoint: "/nonexistent/tty", code: ENOENT, reason: "No such file or directory")))
            ) {
                try gateway.connect(.serial(path: "/nonexistent/tty", baudRate: 38_400))
            }
        }

        @Test("no service before authentication; a wrong key is refused with the validator's code")
        func authentication() throws {
            let gateway = OBDGateway(validator: LocalKeyValidator(keys: ["good": "axon"]))
            #expect(throws: OBDGatewayError.notAuthenticated) { try gateway.readBasic(pid: 0x0D) }
            #expect(throws: OBDGatewayError.notAuthenticated) { try gateway.scan([]) }
            #expect(gateway.authenticate(apiKey: "bad", issuedTo: "axon").code == 401)
            #expect(gateway.authenticate(apiKey: "good", issuedTo: "other").code == 403)
            let result = gateway.authenticate(apiKey: "good", issuedTo: "axon")
            #expect(result.code == 200)
            #expect(throws: OBDGatewayError.notConnected) { try gateway.readBasic(pid: 0x0D) }
        }

        @Test("scan finds the emulator by its banner and description; connect by that name")
        func scanAndConnectByName() throws {
            let peer = try EmulatorPeer()
            defer { peer.stop() }
            let gateway = authenticatedGateway()
            let silent = OBDEndpoint.tcp(host: "127.0.0.1", port: try EmulatorPeer.freePort())
            let found = try gateway.scan([silent, peer.endpoint])
            #expect(found.count == 1)
            let device = try #require(found.first)
            #expect(device.name == "OBDII to RS232 Interpreter (ELM327 v1.5)")
            #expect(device.identifier == "tcp:127.0.0.1:\(peer.port)")
            let connected = try gateway.connect(name: device.name)
            #expect(connected.identifier == device.identifier)
            #expect(throws: OBDGatewayError.unknownDevice(name: "nothing")) { try gateway.connect(name: "nothing") }
        }
    }
}
