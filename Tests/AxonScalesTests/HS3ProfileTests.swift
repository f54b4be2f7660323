import AxonBluetooth
import AxonDevices
import AxonEventStore
import AxonRecording
import AxonStreams
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

@testable import AxonScales

#if canImport(Glibc)
    import Glibc
#endif

/// The HS3 over its serial port the way BlueZ hands a serial port to a program: a `Profile1` for UUID 0x1101
/// registered with `ProfileManager1.RegisterProfile` on the mock bluetoothd, `Device1.ConnectProfile`, the
/// connected socket passed as a D-Bus UNIX_FD in `Profile1.NewConnection`, the HS3 session over it with bytes
/// built from the published packet facts, then `RequestDisconnection` and `Release`.
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct HS3ProfileTests {
    static let address = "00:1A:7D:DA:71:13"
    static let serialPort = "00001101-0000-1000-8000-00805f9b34fb"

    @Test func anHS3SessionOverADescriptorFromNewConnection() async throws {
        let bed = try BlueZTestBed(devices: ["hs3spp,\(Self.address),iHealth HS3 0013"])
        defer { bed.stop() }
        let path = bed.directory.appendingPathComponent("hs3.sqlite").path
        let records = try ScaleRecordStore(store: try EventStore(path: path), device: "HS3-0013", model: .hs3)
        let central = try await BluetoothCentral.open(bus: .address(bed.address))
        defer { central.close() }
        // Paired before, as the HS3 must be: BlueZ knows it without a scan.
        let device = try #require(await central.knownDevices().first { $0.address == Self.address })
        #expect(device.isPaired && device.addressKind == .public)

        let profile = try await BlueZProfile.register(
            on: central.bus, options: ["Name": .string("Axon HS3"), "Role": .string("client")])
        #expect(try await bed.control("GetProfiles").first?.stringArrayValue == [Self.serialPort])
        await #expect(throws: BluetoothError.bluez(name: "org.bluez.Error.AlreadyExists", message: "Already Exists")) {
            _ = try await BlueZProfile.register(on: central.bus, path: "/org/axon/profile/second")
        }
        var events = profile.events.makeAsyncIterator()
        try await profile.connect(devicePath: device.path, timeout: 10)
        guard case .connection(let from, let descriptor, let properties)? = await events.next() else {
            Issue.record("no NewConnection")
            return
        }
        #expect(from == device.path && properties["Version"]?.integerValue == 0x0102)
        #expect(try await bed.stats(Self.address)["serialConnected"]?.boolValue == true)

        let (session, stored) = try await HS3SerialTests.validatedSession(
            ByteStreamTransport.descriptor(descriptor, name: "profile:\(Self.address)"), device: "HS3-0013",
            records: records, weights: 2)
        // From the published facts: A0 09 A6, kind 28 (weight), five unknown bytes, BCD tenths of a kg; 33 is time.
        let weight815: [UInt8] = [0xA0, 0x09, 0xA6, 0x28, 0x01, 0x02, 0x03, 0x04, 0x05, 0x08, 0x15]
        let weight723: [UInt8] = [0xA0, 0x09, 0xA6, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x23]
        let garbage: [UInt8] = [0x00, 0xFF, 0xA0, 0x09, 0x13]
        let time: [UInt8] = [0xA0, 0x09, 0xA6, 0x33]
        let chunks: [[UInt8]] = [
            garbage + Array(weight815[..<7]), Array(weight815[7...]) + garbage + time, weight815, weight723,
        ]
        for chunk in chunks {
            let sent = try await bed.control("SendSerial", [.string(Self.address), .bytes(chunk)])
            #expect(sent.first?.boolValue == true)
        }
        #expect(await stored.value == [81.5, 72.3])
        #expect(try records.records().map(\.weightKg) == [81.5, 72.3], "the repeat within 60 s is stored once")
        #expect(session.hs3SerialStatistics.repeatedWeights == 1)

        // BlueZ asks to let go (DisconnectProfile): the profile hears it, the session sees the channel close.
        let disconnecting = Task { try await profile.disconnect(devicePath: device.path) }
        #expect(await events.next() == .disconnectionRequested(device: device.path))
        var lost = false
        for await event in session.events {
            if case .link(.linkLost) = event {
                lost = true
                break
            }
        }
        #expect(lost)
        try await disconnecting.value
        await session.close()
        #expect(try await bed.stats(Self.address)["serialConnected"]?.boolValue == false)

        // bluetoothd stopping releases the profile.
        try await bed.control("ReleaseProfiles")
        #expect(await events.next() == .released)
        #expect(await events.next() == nil)
        #expect(try await bed.control("GetProfiles").first?.stringArrayValue == [])

        // Registered again and unregistered: BlueZ has nobody to hand the channel to.
        let again = try await BlueZProfile.register(on: central.bus)
        try await again.unregister()
        #expect(try await bed.control("GetProfiles").first?.stringArrayValue == [])
        var none = again.events.makeAsyncIterator()
        #expect(await none.next() == nil)
        await #expect(
            throws: BluetoothError.bluez(name: "org.bluez.Error.NotAvailable", message: "Operation currently not available")
        ) { try await again.connect(devicePath: device.path, timeout: 5) }
    }

    /// `axon scale measure profile:ADDRESS`: the command registers the profile, BlueZ hands it the channel, the
    /// scale (the mock's `send` option) writes garbage, a split weight packet, a time packet and the weight again;
    /// the weight is stored once, and the command unregisters the profile when it ends.
    @Test func theCommandMeasuresThroughTheProfile() async throws {
        guard let axon = AxonExecutable.path else {
            Issue.record("the axon executable is not built")
            return
        }
        let stream = ["00FFA00913A009A6280102", "0304050815A009A633", "A009A62801020304050815"].joined(separator: "+")
        let bed = try BlueZTestBed(devices: ["hs3spp,\(Self.address),iHealth HS3 0013,send=\(stream)"])
        defer { bed.stop() }
        let store = bed.directory.appendingPathComponent("hs3.sqlite").path
        let device = "profile:\(Self.address)"
        let run = try await AxonExecutable.runOffPool(
            axon, ["scale", "measure", device, "--bus", bed.address, "--out", store, "--seconds", "20"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("stable    81.5 kg"), "\(run.output)")
        #expect(run.output.contains("stored    81.5 kg (inserted)"), "\(run.output)")
        let records = try ScaleRecordStore(store: try EventStore(path: store), device: device, model: .hs3)
        #expect(try records.records().map(\.weightKg) == [81.5])
        #expect(try await bed.control("GetProfiles").first?.stringArrayValue == [], "unregistered on exit")
    }
}
