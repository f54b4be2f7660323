import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import AxonResearchBIT
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// A remembered ResearchBIT found again after its address rotates, through `axon researchbit` against the mock
/// bluetoothd: two sensors advertise resolvable private addresses; one is bonded (BlueZ keeps one object with its
/// identity address), the other is not (its old object stays unanswered and it appears as a new object).
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct ResearchBITRotationOverBluetoothTests {
    static let bondedIdentity = "C0:FF:EE:00:00:20"
    static let bondedRPA = "4A:00:00:00:00:20"
    static let unbondedIdentity = "C0:FF:EE:00:00:24"
    static let unbondedRPA = "4A:00:00:00:00:24"

    @Test func aRotatingAddressThroughTheCommandLine() async throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let bed = try BlueZTestBed(devices: [
            "researchbit,\(Self.bondedIdentity),ResearchBIT-0020,rpa=\(Self.bondedRPA),sessions=3",
            "researchbit,\(Self.unbondedIdentity),ResearchBIT-0024,rpa=\(Self.unbondedRPA),sessions=2",
        ])
        defer { bed.stop() }
        let store = bed.directory.appendingPathComponent("rb.sqlite").path
        func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            try await AxonExecutable.runOffPool(axon, ["researchbit"] + arguments + ["--bus", bed.address, "--out", store])
        }

        let scan = try await run(["scan", "--seconds", "1.5"])
        #expect(scan.status == 0, "\(scan.output)")
        #expect(scan.output.contains(Self.bondedRPA) && scan.output.contains(Self.unbondedRPA), "\(scan.output)")
        let pair = try await run(["pair", "ResearchBIT-0020"])
        #expect(pair.status == 0, "\(pair.output)")
        #expect(pair.output.contains("identity address \(Self.bondedIdentity)"), "\(pair.output)")
        #expect(pair.output.contains("data kept under \(Self.bondedRPA)"), "\(pair.output)")
        let first = try await run(["fetch", "ResearchBIT-0020"])
        #expect(first.status == 0 && first.output.contains("6 new"), "\(first.output)")
        let unbondedFirst = try await run(["fetch", "ResearchBIT-0024", "--scan-timeout", "1.5"])
        #expect(unbondedFirst.status == 0 && unbondedFirst.output.contains("4 new"), "\(unbondedFirst.output)")

        // Both sensors move to new private addresses.
        try await bed.control("RotateAddress", [.string(Self.bondedIdentity), .string("5B:00:00:00:01:20")])
        try await bed.control("RotateAddress", [.string(Self.unbondedIdentity), .string("5B:00:00:00:01:24")])
        #expect(try await bed.stats(Self.bondedIdentity)["advertisingAddress"]?.stringValue == "5B:00:00:00:01:20")

        // Bonded: BlueZ resolves the new address to the identity, the fetch goes to the same device and store key.
        let again = try await run(["fetch", "ResearchBIT-0020"])
        #expect(again.status == 0, "\(again.output)")
        #expect(again.output.contains("0 new") && again.output.contains("3 sessions"), "\(again.output)")

        // Unbonded: not recognised at its new address, and the command says why instead of guessing by name.
        let lost = try await run(["fetch", "ResearchBIT-0024", "--scan-timeout", "1.5"])
        #expect(lost.status != 0, "\(lost.output)")
        #expect(lost.output.contains("not bonded"), "\(lost.output)")
        let rescan = try await run(["scan", "--seconds", "1.5"])
        #expect(rescan.output.contains("5B:00:00:00:01:24"), "a new device at the new address: \(rescan.output)")
        #expect(!rescan.output.contains("5B:00:00:00:01:20"), "the bonded one keeps its identity: \(rescan.output)")
        #expect(!rescan.output.contains(Self.unbondedRPA), "the old object is not heard: \(rescan.output)")

        let known = try ResearchBITStore(store: EventStore(path: store)).knownDevices()
        #expect(known.map(\.storeKey) == [Self.bondedRPA, Self.unbondedRPA, "5B:00:00:00:01:24"])
        #expect(known.first?.address == Self.bondedIdentity && known.first?.isBonded == true)

        // BlueZ's objects now, as the library's central sees them: one for the bonded sensor (its identity address,
        // its path still naming the address it was found at), two for the other, and nobody at its old address.
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central.close() }
        let objects = await central.knownDevices()
        #expect(objects.map(\.address).sorted() == [Self.unbondedRPA, "5B:00:00:00:01:24", Self.bondedIdentity])
        let bonded = try #require(objects.first { $0.isBonded })
        #expect(bonded.pathAddress == Self.bondedRPA && bonded.addressKind == .staticRandom)
        #expect(objects.filter { !$0.isBonded }.map(\.addressKind) == [.resolvablePrivate, .resolvablePrivate])
        await #expect(throws: BluetoothError.self) { try await central.connect(Self.unbondedRPA, timeout: 2) }
    }
}
