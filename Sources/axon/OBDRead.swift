import ArgumentParser
import AxonOBD
import AxonStreams
import Foundation

extension Axon.OBD {
    /// `axon obd read PID…`: one reading per PID, one request at a time.
    struct OBDRead: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            abstract: "Read PIDs once: value, unit and the answer's data bytes.",
            discussion: """
                Example: axon obd read speed rpm coolant fuel vin --tcp 127.0.0.1:35000. A PID the vehicle does not \
                answer prints its typed error (NO DATA, …) and the others are still read; the exit status is 1 when \
                any failed. --json prints one object: {"device", "supported", "readings": [{"pid", "name", "value", \
                "text", "unit", "raw", "time", "monotonic"}], "errors": [{"pid", "error"}]}: "time" is when the \
                answer arrived, wall clock in ISO 8601 (UTC, milliseconds); "monotonic" the same instant on the \
                host's monotonic clock in seconds, the clock Axon's streams are stamped with.
                """)

        @Argument(help: "PIDs: names, 0xHEX or the SDK's numbers.")
        var pids: [String]

        @OptionGroup var connection: OBDConnectionOptions
        @OptionGroup var access: OBDAccessOptions

        @Flag(help: "Print JSON.")
        var json = false

        struct Output: Encodable {
            struct Failure: Encodable {
                var pid: Int
                var error: String
            }
            /// A reading as printed: its fields, with the arrival on both clocks.
            struct Reading: Encodable {
                var pid: Int
                var name: String
                var value: Double?
                var text: String?
                var unit: String
                var raw: [UInt8]
                var time: String
                var monotonic: Double

                init(_ reading: OBDReading, wallClockOffset: Double) {
                    pid = reading.pid
                    name = reading.name
                    value = reading.value
                    text = reading.text
                    unit = reading.unit
                    raw = reading.raw
                    let formatter = ISO8601DateFormatter()
                    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                    time = formatter.string(from: Date(timeIntervalSince1970: reading.time + wallClockOffset))
                    monotonic = reading.time
                }
            }
            var device: String
            var supported: [String]
            var readings: [Reading]
            var errors: [Failure]
        }

        func run() throws {
            let pids = try parsePIDs(self.pids)
            let gateway = try access.gateway()
            let device = try gateway.connect(try connection.requiredEndpoint())
            defer { gateway.disconnect() }
            var output = Output(
                device: "\(device.name) at \(device.identifier)",
                supported: try gateway.supportedPIDs().sorted().map { String(format: "0x%02X", $0) }, readings: [],
                errors: [])
            if !json { print("\(output.device); \(output.supported.count) standard PIDs supported") }
            let wallClockOffset = HostClock.wallClockOffset()
            for pid in pids {
                do {
                    let reading = try gateway.readBasic(pid: pid.number)
                    output.readings.append(.init(reading, wallClockOffset: wallClockOffset))
                    if !json {
                        let value = reading.value.map { String(format: "%.2f", $0) } ?? ""
                        let text = reading.text.map { value.isEmpty ? $0 : "(\($0))" } ?? ""
                        let raw = reading.raw.map { String(format: "%02X", $0) }.joined(separator: " ")
                        print("\(pid)\t\(value) \(reading.unit) \(text)\traw \(raw)")
                    }
                } catch {
                    output.errors.append(.init(pid: pid.number, error: error.description))
                    if !json { print("\(pid)\terror: \(error)") }
                }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(output), as: UTF8.self))
            }
            if !output.errors.isEmpty { throw ExitCode(1) }
        }
    }
}
