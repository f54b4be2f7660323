import ArgumentParser
import AxonBluetooth
import AxonConnect
import AxonDevices
import AxonScales
import Foundation

/// The options every `axon scale` command shares: which scale, on which bus, for which user.
struct ScaleDeviceOptions: ParsableArguments {
    @Argument(
        help: """
            sim:hs3, sim:hs4, sim:hs5 or sim:wss (simulated in-process), ble:NAME / ble:ADDRESS, or an iHealth HS3 \
            over Bluetooth Classic: spp:ADDRESS[@CHANNEL] (RFCOMM, channel 1 by default), profile:ADDRESS (the \
            serial port from BlueZ through a registered Profile1) or a serial path (/dev/rfcomm0 bound with \
            rfcomm, a pty).
            """)
    var device: String

    @Option(help: ArgumentHelp(
        "For ble: devices: auto (from what the scale advertises: the Weight Scale or Body Composition service is a "
            + "standard scale, Axon's iHealth service under a name starting HS3/HS4/HS5 that model), standard, hs3, "
            + "hs4 or hs5."))
    var model: String = "auto"

    @Option(help: "The iHealth user id (an email address) validated before measuring.")
    var user: String = "user@example.org"

    @Option(help: "D-Bus address of the bus bluetoothd is on (default: the system bus).")
    var bus: String?

    @Option(help: "Simulated scales: records in memory (0…200).")
    var records: Int = 200

    @Option(help: "Simulated scales: what the person on it weighs, kg.")
    var weight: Double = 71.4

    @Option(help: "Simulated HS5: users already on the scale besides the current one (0…19).")
    var existingUsers: Int = 0

    func validate() throws {
        guard device.hasPrefix("sim:") || device.hasPrefix("ble:") || isSerialHS3, device.count > 4 else {
            throw ValidationError(
                "DEVICE is sim:hs3|hs4|hs5|wss, ble:NAME|ADDRESS, spp:ADDRESS, profile:ADDRESS or a path, not \(device)")
        }
        if device.hasPrefix("spp:") { _ = try sppEndpoint() }
        if device.hasPrefix("profile:") { _ = try profileAddress() }
        guard (0...ScaleModel.memoryCapacity).contains(records) else { throw ValidationError("--records takes 0…200") }
        guard (0...19).contains(existingUsers) else { throw ValidationError("--existing-users takes 0…19") }
    }

    /// Whether DEVICE is an HS3 read over its serial port (an RFCOMM address, BlueZ's profile, a serial path).
    var isSerialHS3: Bool { device.hasPrefix("spp:") || device.hasPrefix("profile:") || device.hasPrefix("/") }

    /// The address of `profile:ADDRESS`.
    func profileAddress() throws -> BluetoothAddress {
        do { return try BluetoothAddress(String(device.dropFirst("profile:".count))) } catch {
            throw ValidationError(error.description)
        }
    }

    /// The address and channel of `spp:ADDRESS[@CHANNEL]`.
    func sppEndpoint() throws -> (BluetoothAddress, UInt8) {
        let parts = device.dropFirst(4).split(separator: "@", maxSplits: 1).map(String.init)
        guard let text = parts.first else { throw ValidationError("spp: needs an address: spp:00:1A:7D:DA:71:13") }
        let address: BluetoothAddress
        do { address = try BluetoothAddress(text) } catch { throw ValidationError(error.description) }
        guard parts.count == 2 else { return (address, 1) }
        guard let channel = UInt8(parts[1]), (1...30).contains(channel) else {
            throw ValidationError("the RFCOMM channel is 1…30, not \(parts[1])")
        }
        return (address, channel)
    }

    /// The scale's model: a sim: device's, an HS3's on a serial port, `--model`'s, or, with `--model auto`, what a
    /// ble: scale advertises (``ScaleModel/advertised(name:services:)``; found within 30 s like every device).
    func scaleModel() async throws -> ScaleModel {
        if isSerialHS3 { return .hs3 }
        let name = device.hasPrefix("sim:") ? String(device.dropFirst(4)) : model
        switch name {
        case "wss", "standard": return .standard
        case "auto" where device.hasPrefix("ble:"): return try await advertisedModel()
        default:
            guard let model = ScaleModel(rawValue: name) else {
                throw ValidationError("unknown scale model \(name): auto, hs3, hs4, hs5, standard (sim:wss)")
            }
            return model
        }
    }

    /// The model the ble: scale advertises, once BlueZ knows it.
    private func advertisedModel() async throws -> ScaleModel {
        let selector = String(device.dropFirst(4))
        let bus = BluetoothOptions.busAddress(bus)
        try await DeviceSearch.locate(
            kind: "scale", selector: selector, bus: bus, seconds: 30, progress: DeviceOpeningProgress.print)
        let central = try await BluetoothCentral.open(bus: bus)
        defer { central.close() }
        let scale = await central.knownDevices().first { device in
            device.address.uppercased() == selector.uppercased() || device.name == selector || device.alias == selector
        }
        guard let scale, let model = ScaleModel.advertised(name: scale.name, services: scale.serviceUUIDs) else {
            throw CommandFailure(
                "\(TerminalText.safe(selector)) does not advertise which scale it is (no Weight Scale service, no iHealth "
                    + "service under an HS3/HS4/HS5 name); give --model standard, hs3, hs4 or hs5")
        }
        print("scale \(TerminalText.safe(scale.displayName)): \(model) (from its advertisement)")
        return model
    }

    var credentials: ScaleUserCredentials { ScaleUserCredentials(userID: user) }

    /// Opens a session: a simulated scale in this process, or a scale through BlueZ.
    func open(
        model known: ScaleModel? = nil, recordStore: ScaleRecordStore? = nil, linkLossAfterRecords: Int? = nil
    ) async throws -> OpenScale {
        let model: ScaleModel
        if let known { model = known } else { model = try await scaleModel() }
        if device.hasPrefix("sim:") {
            var users = HS5UserTable()
            if model == .hs5 {
                // The current user at position 0, others after it.
                try users.create(user(HS5User.serialNumber(forUserID: user), height: 170), at: 0)
                for position in 1...max(1, existingUsers) where position <= existingUsers {
                    try users.create(self.user(UInt32(10_000 + position), height: 160 + position), at: position)
                }
            }
            let scale = SimulatedScale(
                .init(
                    model: model,
                    // A standard scale has no memory to transfer; its records would be indicated on connect.
                    records: model == .standard ? [] : SimulatedScale.Configuration.records(records, model: model),
                    users: users,
                    weightKg: weight,
                    bodyComposition: model == .standard
                        ? SimulatedScale.Configuration.hs5Composition(weightKg: weight) : nil,
                    linkLossAfterRecords: linkLossAfterRecords),
                name: device)
            let session = ScaleSession(transport: scale, model: model, device: device, recordStore: recordStore)
            return OpenScale(session: session, simulated: scale, central: nil)
        }
        guard linkLossAfterRecords == nil else { throw ValidationError("--link-loss-after is for sim: devices") }
        if device.hasPrefix("profile:") { return try await openThroughProfile(recordStore: recordStore) }
        if isSerialHS3 {
            let transport: ByteStreamTransport
            if device.hasPrefix("spp:") {
                let (address, channel) = try sppEndpoint()
                transport = RFCOMMSocket.transport(address: address, channel: channel)
            } else {
                transport = ByteStreamTransport.serialPort(path: device)
            }
            let session = ScaleSession(
                transport: transport, model: .hs3, wire: .hs3SerialPort, device: device, recordStore: recordStore)
            return OpenScale(session: session, simulated: nil, central: nil)
        }
        let central = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
        let service = model == .standard ? ScaleGATT.weightScaleService : ScaleGATT.service
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: String(device.dropFirst(4)), discovery: DiscoveryFilter(serviceUUIDs: [service])))
        let session = ScaleSession(
            transport: transport, model: model, device: String(device.dropFirst(4)), recordStore: recordStore)
        return OpenScale(session: session, simulated: nil, central: central)
    }

    /// An HS3's serial port from BlueZ: registers a Serial Port `Profile1`, asks BlueZ to connect it to the paired
    /// scale (`Device1.ConnectProfile`) and runs the session over the descriptor `NewConnection` hands over.
    private func openThroughProfile(recordStore: ScaleRecordStore?) async throws -> OpenScale {
        let address = try profileAddress().description
        let central = try await BluetoothCentral.open(bus: BluetoothOptions.busAddress(bus))
        var profile: BlueZProfile?
        do {
            guard let scale = await central.knownDevices().first(where: { $0.address.uppercased() == address }) else {
                throw BluetoothError.unknownDevice("\(address) (pair the HS3 first: bluetoothctl pair \(address))")
            }
            let registered = try await BlueZProfile.register(
                on: central.bus, options: ["Name": .string("Axon HS3"), "Role": .string("client")])
            profile = registered
            var events = registered.events.makeAsyncIterator()
            try await registered.connect(devicePath: scale.path)
            guard case .connection(_, let descriptor, _)? = await events.next() else {
                throw BluetoothError.bluez(name: "org.bluez.Error.Failed", message: "the profile was released before it connected")
            }
            let session = ScaleSession(
                transport: ByteStreamTransport.descriptor(descriptor, name: device), model: .hs3, wire: .hs3SerialPort,
                device: device, recordStore: recordStore)
            return OpenScale(session: session, simulated: nil, central: central, profile: registered)
        } catch {
            try? await profile?.unregister()
            central.close()
            throw error
        }
    }

    func user(_ serial: UInt32, height: Int) -> HS5User {
        HS5User(
            serialNumber: serial, birthYear: 1990, birthMonth: 1, birthDay: 1, heightCM: height, isAthlete: false,
            sex: .female)
    }
}

/// A session and what must be closed with it.
struct OpenScale {
    let session: ScaleSession
    let simulated: SimulatedScale?
    let central: BluetoothCentral?
    var profile: BlueZProfile? = nil

    /// Connects and, for an iHealth model, validates the user.
    func start(_ credentials: ScaleUserCredentials) async throws {
        try await session.connect()
        if session.model != .standard {
            let result = try await session.validate(credentials)
            print("user \(credentials.userID): \(result)")
        }
    }

    func close() async {
        await session.close()
        try? await profile?.unregister()
        central?.close()
    }
}

extension Axon {
    /// Bathroom scales: iHealth HS3/HS4/HS5 semantics and standard Weight Scale / Body Composition scales.
    struct Scale: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Weigh, transfer a scale's memory into the event store, manage HS5 users.",
            discussion: """
                DEVICE is sim:hs3, sim:hs4, sim:hs5 or sim:wss for a simulated scale in this process, ble:NAME / \
                ble:ADDRESS for a scale through BlueZ (--model standard for any Weight Scale service scale), or a \
                paired iHealth HS3 over its serial port: spp:ADDRESS[@CHANNEL], profile:ADDRESS or /dev/rfcommN \
                (docs/hs3-serial.md). \
                Without a radio: scripts/bluez-mock/run.sh .build/debug/axon scale measure ble:Scale-0010
                """,
            subcommands: [ScaleMeasure.self, ScaleMemory.self, ScaleRecords.self, ScaleUsers.self])
    }
}
