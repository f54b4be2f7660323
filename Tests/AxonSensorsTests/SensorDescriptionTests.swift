import AxonDevices
import AxonSensors
import Foundation
import Testing

/// Description files: the examples read as documented, and each malformed file gives one problem naming its field.
struct SensorDescriptionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let malformed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")

    /// Each malformed file and the path of its one problem ("" for the whole file).
    static let malformedCases: [(file: String, path: String, mentions: String)] = [
        ("missing-transport", "transport", "missing"),
        ("bad-uuid", "transport.ble.characteristic", "not a Bluetooth UUID"),
        ("overlapping-fields", "layout.binary.samples.fields[1]", "overlaps"),
        ("width-zero", "layout.binary.samples.fields[0].bits", "at least 1 bit"),
        ("unknown-type", "layout.binary.samples.fields[0].type", "int12le"),
        ("unknown-field", "transport.serial.baudrate", "not a field"),
        ("channel-without-field", "channels[0].field", "a9"),
        ("negative-rate", "rate", "more than 0"),
        ("osc-address", "transport.osc.address", "starts with /"),
        ("packet-counter-without-count", "counter.counts", "fixed number of samples"),
        ("bad-hex", "transport.ble.commands[0].hex", "not hex"),
        ("layout-transport-mismatch", "layout", "text layout"),
        ("two-transports", "transport", "exactly one"),
        ("field-past-stride", "layout.binary.samples.fields[1]", "4-byte sample"),
        ("endian-missing", "layout.binary.samples.fields[0].endian", "big"),
        ("not-json", "", "JSON"),
    ]

    @Test("every malformed file gives exactly one problem, naming its field", arguments: malformedCases.map(\.file))
    func malformedFile(_ name: String) throws {
        let expected = try #require(Self.malformedCases.first { $0.file == name })
        do {
            _ = try SensorDescription(contentsOf: Self.malformed.appendingPathComponent(name + ".json").path)
            Issue.record("\(name) was accepted")
        } catch {
            let problems = error.problems
            #expect(problems.count == 1, "\(name): \(problems)")
            #expect(problems.first?.path == expected.path, "\(name): \(problems)")
            #expect(error.description.contains(expected.mentions), "\(name): \(error)")
        }
    }

    @Test("the malformed folder holds exactly the files the table checks")
    func malformedFolderMatchesTable() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.malformed.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(files == Self.malformedCases.map(\.file).sorted())
    }

    @Test("several problems are all reported, each with its path")
    func everyProblemReported() {
        let json = """
            {"name": "", "rate": "fast", "transport": {"udp": {"port": 70000}},
             "layout": {"text": {"columns": ["a", "a"]}}, "channels": [], "colour": 1}
            """
        do {
            _ = try SensorDescription(json: Data(json.utf8))
            Issue.record("accepted")
        } catch {
            let paths = Set(error.problems.map(\.path))
            #expect(paths == ["colour", "name", "rate", "transport.udp.port", "layout.text.columns[1]", "channels"],
                "\(error.problems)")
        }
    }

    @Test("the examples are valid and say what docs/sensors.md says they do")
    func examples() throws {
        let folder = Self.root.appendingPathComponent("examples/sensors")
        let arduino = try SensorDescription(contentsOf: folder.appendingPathComponent("arduino-csv.json").path)
        #expect(arduino.nominalRate == 500 && arduino.channels.map(\.label) == ["A0", "A1", "A2"])
        #expect(arduino.counter == SensorCounter(field: "counter", modulus: 65_536, countsPackets: false))
        guard case .serial(_, 115_200, .lines) = arduino.transport else {
            Issue.record("\(arduino.transport)")
            return
        }
        let mindMonitor = try SensorDescription(contentsOf: folder.appendingPathComponent("mind-monitor-osc.json").path)
        #expect(mindMonitor.transport == .osc(port: 5000, address: "/muse/eeg"))
        #expect(mindMonitor.channels.map(\.label) == ["TP9", "AF7", "AF8", "TP10"] && mindMonitor.nominalRate == 256)
        let polar = try SensorDescription(contentsOf: folder.appendingPathComponent("polar-h10-ecg.json").path)
        #expect(polar.nominalRate == 130 && polar.channels.map(\.unit) == ["µV"])
        #expect(polar.deviceTime == SensorDeviceTime(field: "timestamp", secondsPerUnit: 1e-9, ofLastSample: true))
        guard case .ble(let link) = polar.transport else {
            Issue.record("\(polar.transport)")
            return
        }
        #expect(link.notify.characteristic == BluetoothUUID(parsing: "fb005c82-02e7-f387-1cad-8acd2d8df0c8"))
        #expect(link.advertised == BluetoothUUID(parsing: "180d"), "an H10 advertises Heart Rate")
        #expect(link.subscribe.count == 1 && link.stopCommands.map(\.bytes) == [[0x03, 0x00]])
        #expect(link.commands.map(\.bytes) == [[0x02, 0x00, 0x00, 0x01, 0x82, 0x00, 0x01, 0x01, 0x0E, 0x00]])
    }
}
