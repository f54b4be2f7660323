import AxonBluetooth
import AxonDevices
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// The Brainiac SDK's `start` needs no device name: `onlyDevice(advertising:)` and `ble:` alone pick the one headset in
/// range, list them when there are several, and say so when there is none (other kinds of device do not count).
@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct OnlyHeadsetTests {
    static let service = BluetoothUUID(parsing: "8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0")!
    static let band = "heartrate,C0:FF:EE:00:00:02,Band-0002"
    static let second = "brainiac,C0:FF:EE:00:00:03,Brainiac-0003"

    @Test("one headset beside a band: found; two: both listed; none: an error")
    func onlyDevice() async throws {
        let one = try BlueZTestBed(devices: [
            "brainiac,\(BlueZTestBed.brainiacAddress),\(BlueZTestBed.brainiacName)", Self.band,
        ])
        do {
            defer { one.stop() }
            let central = try await BluetoothCentral.open(bus: .address(one.address))
            defer { central.close() }
            let headset = try await central.onlyDevice(advertising: Self.service, seconds: 5)
            #expect(headset.address == BlueZTestBed.brainiacAddress && headset.name == BlueZTestBed.brainiacName)
        }
        let two = try BlueZTestBed(devices: [
            "brainiac,\(BlueZTestBed.brainiacAddress),\(BlueZTestBed.brainiacName)", Self.second, Self.band,
        ])
        do {
            defer { two.stop() }
            let central = try await BluetoothCentral.open(bus: .address(two.address))
            defer { central.close() }
            let error = await #expect(throws: OnlyDeviceError.self) {
                try await central.onlyDevice(advertising: Self.service, seconds: 5)
            }
            guard case .several(let devices)? = error else { Issue.record("\(String(describing: error))"); return }
            #expect(devices.map(\.address) == [BlueZTestBed.brainiacAddress, "C0:FF:EE:00:00:03"])
        }
        let none = try BlueZTestBed(devices: [Self.band])
        defer { none.stop() }
        let central = try await BluetoothCentral.open(bus: .address(none.address))
        defer { central.close() }
        await #expect(throws: OnlyDeviceError.none(seconds: 1)) {
            try await central.onlyDevice(advertising: Self.service, seconds: 1)
        }
    }

    @Test("axon demo ble: streams from the one headset, and lists two instead of picking one")
    func demoWithoutAName() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let one = try BlueZTestBed()
        do {
            defer { one.stop() }
            let run = try await AxonExecutable.runOffPool(
                axon, ["demo", "ble:", "--bus", one.address, "--seconds", "4", "--baseline", "2", "--indicator", "1"])
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("found \(BlueZTestBed.brainiacName) (\(BlueZTestBed.brainiacAddress))"), "\(run.output)")
            #expect(run.output.contains("zone"), "indicators after the baseline: \(run.output)")
        }
        let two = try BlueZTestBed(devices: [
            "brainiac,\(BlueZTestBed.brainiacAddress),\(BlueZTestBed.brainiacName)", Self.second,
        ])
        defer { two.stop() }
        let run = try await AxonExecutable.runOffPool(axon, ["demo", "ble:", "--bus", two.address, "--seconds", "4"])
        #expect(run.status == 1, "\(run.output)")
        #expect(
            run.output.contains("2 Brainiac headsets are in range; name one as ble:NAME or ble:ADDRESS: "
                + "\(BlueZTestBed.brainiacName) (\(BlueZTestBed.brainiacAddress)), Brainiac-0003 (C0:FF:EE:00:00:03)"),
            "\(run.output)")
    }
}
