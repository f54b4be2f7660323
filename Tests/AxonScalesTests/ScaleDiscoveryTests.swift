import AxonDevices
import AxonScales
import BlueZTestSupport
import Foundation
import StreamTestSupport
import Testing

/// Scales found by scanning (the seed's `getAllCurrentHSxInstance` knows each scale's model): the model from what
/// a scale advertises, `axon scan` naming the kind of every device the mock bluetoothd simulates, and an HS5 measured
/// by name alone.
struct ScaleDiscoveryTests {
    @Test("the model from the advertisement: standard services, or the iHealth service under an HS name")
    func advertisedModel() {
        #expect(ScaleModel.advertised(name: "HS5-0011", services: [ScaleGATT.service]) == .hs5)
        #expect(ScaleModel.advertised(name: "iHealth HS3 1234", services: [ScaleGATT.service]) == .hs3)
        #expect(ScaleModel.advertised(name: "hs4_2031", services: [ScaleGATT.service]) == .hs4)
        #expect(ScaleModel.advertised(name: "Bathroom", services: [ScaleGATT.service]) == nil)
        #expect(ScaleModel.advertised(name: nil, services: [ScaleGATT.service]) == nil)
        #expect(ScaleModel.advertised(name: "Scale-0010", services: ["181d", "181b"]) == .standard)
        #expect(ScaleModel.advertised(name: "Any", services: ["181b"]) == .standard)
        // An HS name without the service is not a scale Axon speaks to.
        #expect(ScaleModel.advertised(name: "HS5-0011", services: ["180d"]) == nil)
    }
}

@Suite(.enabled(if: BlueZTestBed.available, "needs dbus-daemon, python3-dbus and python3-gi (make test-deps)"), .serialized)
struct ScaleDiscoveryOverBluetoothTests {
    static let datasets = BlueZTestBed.root.appendingPathComponent("datasets").path

    /// Every kind of device the mock simulates, and the kind `axon scan` must give it (the recordings and the
    /// emulator address are only read once a device is connected, which a scan does not do).
    static let devices: [(spec: String, name: String, kind: String)] = [
        ("brainiac,C0:FF:EE:00:01:01,Brainiac-0101", "Brainiac-0101", "Brainiac"),
        ("heartrate,C0:FF:EE:00:01:02,Heart-0102", "Heart-0102", "heart-rate sensor"),
        ("band,C0:FF:EE:00:01:03,Band-0103", "Band-0103", "Iwown band"),
        ("researchbit,C0:FF:EE:00:01:04,RB-0104", "RB-0104", "ResearchBIT sensor"),
        ("researchbit,C0:FF:EE:00:01:05,Dongle-0105,family=nordic", "Dongle-0105", "Nordic dongle (ResearchBIT)"),
        ("wss,C0:FF:EE:00:01:06,Scale-0106", "Scale-0106", "weight scale"),
        ("hs3,C0:FF:EE:00:01:07,HS3-0107", "HS3-0107", "iHealth HS3 scale"),
        ("hs4,C0:FF:EE:00:01:08,HS4-0108", "HS4-0108", "iHealth HS4 scale"),
        ("hs5,C0:FF:EE:00:01:09,HS5-0109", "HS5-0109", "iHealth HS5 scale"),
        ("elm327,C0:FF:EE:00:01:0A,OBDII-010A,tcp=127.0.0.1:9", "OBDII-010A", "OBD-II dongle (ELM327)"),
        (
            "muse,C0:FF:EE:00:01:0B,Muse-010B,csv=\(datasets)/muse-p300/data_2017-02-04-15_45_13-first14s.csv",
            "Muse-010B", "Muse"
        ),
        (
            "ganglion,C0:FF:EE:00:01:0C,Ganglion-010C,recording=\(datasets)/openbci-cyton-eyes-closed/"
                + "OpenBCI_GUI-v6-blinks-jawClench-alpha.txt",
            "Ganglion-010C", "OpenBCI Ganglion"
        ),
        ("hs3spp,C0:FF:EE:00:01:0D,HS3-010D", "HS3-010D", "iHealth HS3 scale (serial port)"),
    ]

    @Test("axon scan names the kind of every simulated device")
    func scanLabelsEveryKind() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let bed = try BlueZTestBed(devices: Self.devices.map(\.spec))
        defer { bed.stop() }
        let run = try await AxonExecutable.runOffPool(axon, ["scan", "--bus", bed.address, "--seconds", "2"])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        for device in Self.devices {
            let line = lines.first { $0.hasPrefix(device.name + " ") }
            #expect(line?.contains("  \(device.kind)  ") == true, "\(device.name): \(line ?? "not listed")")
        }
    }

    @Test("axon scale measure ble:HS5-… needs no --model: the advertisement says HS5")
    func hs5WithoutModel() async throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        // The user the command validates by default (user@example.org) is on the scale.
        let bed = try BlueZTestBed(devices: ["hs5,C0:FF:EE:00:00:11,HS5-0011,users=47556360,weight=68.3"])
        defer { bed.stop() }
        let run = try await AxonExecutable.runOffPool(axon, ["scale", "measure", "ble:HS5-0011", "--bus", bed.address])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("scale HS5-0011: hs5 (from its advertisement)"), "\(run.output)")
        #expect(run.output.contains("stable    68.3 kg"), "\(run.output)")
        #expect(run.output.contains("impedance"), "\(run.output)")
    }
}
