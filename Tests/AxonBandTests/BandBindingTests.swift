import AxonBand
import AxonBluetooth
import AxonDevices
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// The seed's `isBinded` and `debind` through BlueZ: `Device1.Pair`, the `Paired` property and
/// `Adapter1.RemoveDevice`, against the mock bluetoothd's band.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct BandBindingTests {
    static let address = "C0:FF:EE:00:00:19"

    static func session(_ central: BluetoothCentral) -> BandSession {
        let transport = BlueZTransport(
            central: central,
            configuration: .init(
                device: address, discovery: DiscoveryFilter(serviceUUIDs: [BandGATTProfile.serviceUUID]),
                connectTimeout: 5, openTimeout: 15))
        return BandSession(transport: transport, store: nil, configuration: .init(idleTimeout: 20))
    }

    /// A test bed with one band (`options` appended to its spec), a central on its bus and a session connected to
    /// the band. The caller closes the central and stops the bed.
    static func connected(options: String = "") async throws -> (BlueZTestBed, BluetoothCentral, BandSession) {
        let bed = try BlueZTestBed(devices: ["band,\(address),Smartee-0019" + options])
        let central: BluetoothCentral
        do { central = try await BluetoothCentral.open(bus: .address(bed.address)) } catch {
            bed.stop()
            throw error
        }
        let session = Self.session(central)
        do { try await session.connect() } catch {
            central.close()
            bed.stop()
            throw error
        }
        return (bed, central, session)
    }

    @Test func bindPairsDebindForgetsAndTheBandComesBackUnbound() async throws {
        let (bed, central, session) = try await Self.connected()
        defer {
            central.close()
            bed.stop()
        }
        #expect(await session.isBound() == false)

        try await session.bind()
        #expect(await session.isBound() == true)
        var stats = try await bed.stats(Self.address)
        #expect(stats["paired"]?.boolValue == true)
        // Bound already: BlueZ's AlreadyExists is no failure.
        try await session.bind()
        #expect(await session.isBound() == true)
        stats = try await bed.stats(Self.address)
        #expect(stats["pairCalls"]?.integerValue == 2)

        try await session.debind()
        #expect(await session.connectionState == .disconnected)
        #expect(await central.knownDevices().allSatisfy { $0.address != Self.address }, "BlueZ forgot the band")
        stats = try await bed.stats(Self.address)
        #expect(stats["connected"]?.boolValue == false)
        #expect(stats["paired"]?.boolValue == false)

        // Found again by a new session, the band is there but not bound.
        let again = Self.session(central)
        try await again.connect()
        #expect(await again.isConnected)
        #expect(await again.isBound() == false)
        await again.close()

        // The same from the command line, each run a process of its own.
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let device = ["band", "pairing", "ble:\(Self.address)", "--bus", bed.address]
        let bound = try await AxonExecutable.runOffPool(axon, device + ["--bind"])
        #expect(bound.status == 0 && bound.output.contains("bound yes"), "\(bound.output)")
        let asked = try await AxonExecutable.runOffPool(axon, device)
        #expect(asked.status == 0 && asked.output.contains("bound yes"), "\(asked.output)")
        let forgotten = try await AxonExecutable.runOffPool(axon, device + ["--debind"])
        #expect(forgotten.status == 0 && forgotten.output.contains("forgotten"), "\(forgotten.output)")
        #expect(try await bed.stats(Self.address)["paired"]?.boolValue == false)
    }

    @Test func aBandThatRefusesPairingIsATypedErrorAndStaysUnbound() async throws {
        let (bed, central, session) = try await Self.connected(options: ",pairing=reject")
        defer {
            central.close()
            bed.stop()
        }
        let error = await #expect(throws: BandError.self) { try await session.bind() }
        guard case .transport(.operationFailed(let reason, _))? = error else {
            Issue.record("not BlueZ's refusal: \(String(describing: error))")
            return
        }
        #expect(reason.contains("AuthenticationRejected"), "\(reason)")
        #expect(await session.isBound() == false)
        await session.close()
    }

    @Test func aTransportThatCannotPairSaysSo() async throws {
        let band = SimulatedBand(configuration: .init(today: BandSyncTests.today))
        let session = BandSession(transport: band, store: nil, configuration: .init(idleTimeout: 5))
        #expect(await session.isBound() == nil)
        await #expect(throws: BandError.pairingUnavailable(transport: band.deviceDescription)) {
            try await session.bind()
        }
        await #expect(throws: BandError.pairingUnavailable(transport: band.deviceDescription)) {
            try await session.debind()
        }
    }
}
