import AxonDevices
import AxonRecording
import AxonStreams
import Foundation
import Testing

@testable import AxonResearchBIT

/// A remembered device found again when its address changes: by BlueZ's identity address once bonded (and, right
/// after bonding, by the address BlueZ first knew it at), never by its name; an unbonded device at a new private
/// address is a new device, and looking for the old one says why.
struct ResearchBITAddressChangeTests {
    static let rpa = "4A:11:22:33:44:55"
    static let newRPA = "5B:66:77:88:99:AA"
    static let identity = "C0:FF:EE:00:00:20"

    struct Heard: AdvertisementSource {
        let advertisements: [ResearchBITAdvertisement]
        func advertisements(seconds: Double) async throws(TransportError) -> [ResearchBITAdvertisement] {
            advertisements
        }
    }

    static func advertisement(
        _ address: String, kind: BluetoothAddressKind, bonded: Bool = false, firstAddress: String? = nil
    ) -> ResearchBITAdvertisement {
        ResearchBITAdvertisement(
            name: "ResearchBIT-0020", address: address, serviceUUIDs: [ResearchBITProfile.researchBITService],
            manufacturerData: [ResearchBITProfile.companyID: [91, 1]], rssi: -50, addressKind: kind,
            isBonded: bonded, firstAddress: firstAddress)
    }

    @Test func addressKindsFromBlueZsAddressType() {
        #expect(BluetoothAddressKind(address: Self.identity, type: "random") == .staticRandom)
        #expect(BluetoothAddressKind(address: Self.rpa, type: "random") == .resolvablePrivate)
        #expect(BluetoothAddressKind(address: "3F:00:00:00:00:01", type: "random") == .nonResolvablePrivate)
        #expect(BluetoothAddressKind(address: "4A:11:22:33:44:55", type: "public") == .public)
        #expect(BluetoothAddressKind(address: "8A:11:22:33:44:55", type: "random") == nil, "0b10 is reserved")
        #expect(BluetoothAddressKind(address: "4A:11:22", type: "random") == nil)
        #expect(BluetoothAddressKind(address: Self.rpa, type: nil) == nil)
    }

    /// Found at a private address, fetched, then bonded: BlueZ reports the identity address on the same object, so
    /// the scan ties it to the remembered device through the object's first address; the data stays under one key,
    /// and later private addresses all resolve to the identity.
    @Test func bondingKeepsTheDeviceAndItsDataUnderOneKey() async throws {
        let fixture = try ResearchBITTests.Fixture()
        let scanner = ResearchBITScanner(store: fixture.store)
        let first = try #require(try scanner.devices(in: [Self.advertisement(Self.rpa, kind: .resolvablePrivate)]).first)
        #expect(first.storeKey == Self.rpa && !first.isBonded)
        let fetched = try await ResearchBITClient(
            transport: SimulatedResearchBIT(), store: fixture.store, address: first.storeKey, idleTimeout: 5
        ).fetch()
        #expect(fetched.inserted == 24)

        let bonded = try scanner.devices(in: [
            Self.advertisement(Self.identity, kind: .staticRandom, bonded: true, firstAddress: Self.rpa)
        ])
        #expect(bonded.map(\.storeKey) == [Self.rpa], "the same device")
        #expect(bonded.first?.lastSyncTime != nil, "its sync time came along")
        let known = try fixture.store.knownDevices()
        #expect(known.count == 1)
        #expect(known.first?.address == Self.identity && known.first?.isBonded == true)
        #expect(try fixture.store.knownDevice(Self.identity)?.storeKey == Self.rpa)
        #expect(try fixture.store.knownDevice("ResearchBIT-0020")?.address == Self.identity)

        // Later scans: BlueZ reports the identity address whatever the device advertises.
        let later = try await scanner.locate(
            try #require(try fixture.store.knownDevice("ResearchBIT-0020")),
            in: Heard(advertisements: [Self.advertisement(Self.identity, kind: .staticRandom, bonded: true)]),
            seconds: 1)
        #expect(later.storeKey == Self.rpa)
        #expect(try fixture.store.storedEvents(of: later.storeKey).count == 24)
        #expect(try fixture.store.knownDevices().count == 1, "nothing new remembered")
    }

    /// Unbonded at a new private address: nothing ties it to the remembered device (not even the same name), so
    /// it is remembered as a new one, and looking for the old one is a typed error that says why.
    @Test func anUnbondedDeviceAtANewPrivateAddressIsNotGuessed() async throws {
        let fixture = try ResearchBITTests.Fixture()
        let scanner = ResearchBITScanner(store: fixture.store)
        _ = try scanner.devices(in: [Self.advertisement(Self.rpa, kind: .resolvablePrivate)])
        let remembered = try #require(try fixture.store.knownDevice(Self.rpa))
        let moved = Heard(advertisements: [Self.advertisement(Self.newRPA, kind: .resolvablePrivate)])
        let error = await #expect(throws: ResearchBITError.self) {
            _ = try await scanner.locate(remembered, in: moved, seconds: 2)
        }
        #expect(
            error
                == .notHeard(name: "ResearchBIT-0020", address: Self.rpa, seconds: 2, addressChanges: true))
        #expect(error.map { "\($0)" }?.contains("not bonded") == true)
        #expect(try fixture.store.knownDevices().map(\.storeKey) == [Self.rpa, Self.newRPA])

        // A device with a stable address that is not heard is simply not heard.
        _ = try scanner.devices(in: [Self.advertisement(Self.identity, kind: .staticRandom)])
        let stable = try #require(try fixture.store.knownDevice(Self.identity))
        await #expect(
            throws: ResearchBITError.notHeard(
                name: "ResearchBIT-0020", address: Self.identity, seconds: 2, addressChanges: false)
        ) { _ = try await scanner.locate(stable, in: moved, seconds: 2) }
    }

    /// Devices remembered by an earlier build (name, address, kind only) decode, keyed by their address, and a
    /// scan that hears them again adds what is known now as a new revision.
    @Test func devicesRememberedByAnEarlierBuildStillDecode() async throws {
        let fixture = try ResearchBITTests.Fixture()
        let known = try fixture.store.store.register(
            StreamDescriptor(
                name: "Known devices", contentType: .status, channels: [], nominalRate: 0, format: .event,
                sourceID: "researchbit"))
        struct EarlierDevice: Codable, Sendable {
            var name: String, address: String, kind: String, dataIsAvailable: Bool
        }
        try fixture.store.store.insert(
            known, deviceRecordID: Self.identity,
            payload: EarlierDevice(name: "ResearchBIT-0020", address: Self.identity, kind: "researchBIT", dataIsAvailable: false))
        let old = try #require(try fixture.store.knownDevice("ResearchBIT-0020"))
        #expect(old.storeKey == Self.identity && old.addressKind == nil && !old.isBonded)
        let again = try ResearchBITScanner(store: fixture.store).devices(in: [
            Self.advertisement(Self.identity, kind: .staticRandom)
        ])
        #expect(again.first?.storeKey == Self.identity)
        #expect(try fixture.store.knownDevices().map(\.addressKind) == [.staticRandom])
        #expect(try fixture.store.store.deviceRecordIDs(in: known).sorted() == [Self.identity, Self.identity + "/2"])
    }
}
