import ArgumentParser
import AxonSensors
import Foundation

extension Axon {
    /// `axon sensor check`: sensor description files.
    struct Sensor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check sensor description files (a sensor without an adapter: docs/sensors.md).",
            subcommands: [Check.self])

        /// Validates a description and decodes packets from a capture with it.
        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Validate a sensor description and print the samples it makes of captured packets.",
                discussion: """
                    Every wrong or missing field is reported with its path in the file (exit 1). With --from-hex \
                    (binary and OSC layouts: a packet as hex, or a file of them one per line) or --from-text (text \
                    layouts: a file of lines), each packet is decoded as the sensor's source decodes it and its \
                    samples printed; a packet that does not fit the layout is printed with the reason.
                    """)

            @Argument(help: ArgumentHelp("The description file.", valueName: "file.json"))
            var file: String

            @Option(parsing: .singleValue, help: ArgumentHelp(
                "A captured packet as hex (`02 00 0a…`), or a file of them, one per line; repeat it for more.",
                valueName: "hex|file"))
            var fromHex: [String] = []

            @Option(help: ArgumentHelp("A file of captured text lines (a text layout).", valueName: "file"))
            var fromText: String?

            @Option(help: "Print at most this many packets.")
            var packets: Int = 10

            func validate() throws {
                guard packets > 0 else { throw ValidationError("--packets must be at least 1") }
                guard fromHex.isEmpty || fromText == nil else { throw ValidationError("give --from-hex or --from-text, not both") }
            }

            func run() throws {
                let sensor: SensorDescription
                do { sensor = try SensorDescription(contentsOf: file) } catch {
                    if case .invalid(let problems) = error {
                        print("\(file): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
                        for problem in problems { print("  \(problem)") }
                        flushStandardOutput()
                        throw CommandFailure("\(file) is not a valid sensor description")
                    }
                    throw CommandFailure("\(file): \(error)")
                }
                print("\(file): valid")
                for line in Self.summary(sensor) { print("  \(line)") }
                let captured = try capturedPackets(sensor)
                guard !captured.isEmpty else { return }
                let decoder = SensorPacketDecoder(sensor)
                for (number, packet) in captured.prefix(packets).enumerated() {
                    var lines: [String] = []
                    let outcome = Result { () throws(SensorPacketError) in
                        try decode(packet, sensor: sensor, decoder: decoder) { values, counter, time in
                            let channels = zip(sensor.channels, values).map { channel, value in
                                "\(channel.label) \(Self.number(value))\(channel.unit.isEmpty ? "" : " \(channel.unit)")"
                            }
                            lines.append(
                                (counter.map { "counter \($0): " } ?? "")
                                    + (time.map { "device time " + String(format: "%.6f", $0) + " s: " } ?? "")
                                    + channels.joined(separator: ", "))
                        }
                    }
                    let size = packet.isText ? "\(packet.bytes.count)-character line" : "\(packet.bytes.count) bytes"
                    switch outcome {
                    case .success:
                        print("packet \(number + 1) (\(size)): \(lines.count) sample\(lines.count == 1 ? "" : "s")")
                        for line in lines { print("  \(line)") }
                    case .failure(let error):
                        print("packet \(number + 1) (\(size)): rejected: \(error)")
                    }
                }
                let s = decoder.statistics
                print("\(s.packets) packets decoded, \(s.samples) samples, \(s.rejected) rejected"
                    + (s.skippedLines > 0 ? ", \(s.skippedLines) header lines skipped" : ""))
            }

            /// One captured packet: a binary packet or OSC datagram, or a text line.
            struct Captured {
                var bytes: [UInt8]
                var isText: Bool
            }

            private func capturedPackets(_ sensor: SensorDescription) throws -> [Captured] {
                if let fromText {
                    guard case .text = sensor.layout else {
                        throw ValidationError("--from-text is for text layouts; this sensor's packets are binary: --from-hex")
                    }
                    let text: String
                    do { text = try String(contentsOfFile: fromText, encoding: .utf8) } catch {
                        throw CommandFailure("cannot read \(fromText): \((error as NSError).localizedDescription)")
                    }
                    return text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
                        Captured(bytes: Array(line.utf8).filter { $0 != 0x0D }, isText: true)
                    }
                }
                var packets: [Captured] = []
                for given in fromHex {
                    let lines: [String]
                    if FileManager.default.fileExists(atPath: given) {
                        do { lines = try String(contentsOfFile: given, encoding: .utf8).split(separator: "\n").map(String.init) } catch {
                            throw CommandFailure("cannot read \(given): \((error as NSError).localizedDescription)")
                        }
                    } else {
                        lines = [given]
                    }
                    for line in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        guard let bytes = SensorHex.bytes(line) else {
                            throw ValidationError("not hex bytes (and no such file): \(line.prefix(60))")
                        }
                        packets.append(Captured(bytes: bytes, isText: false))
                    }
                }
                if case .text = sensor.layout, !packets.isEmpty {
                    // Hex of a text sensor's bytes: its lines.
                    let text = packets.flatMap(\.bytes)
                    return text.split(separator: 0x0A).map { Captured(bytes: Array($0).filter { $0 != 0x0D }, isText: true) }
                }
                return packets
            }

            private func decode(
                _ packet: Captured, sensor: SensorDescription, decoder: SensorPacketDecoder,
                _ emit: ([Double], UInt64?, Double?) -> Void
            ) throws(SensorPacketError) {
                if case .osc(_, let address) = sensor.transport {
                    // Array's pointer methods rethrow untyped errors: the typed ones travel in a Result.
                    let result = packet.bytes.withUnsafeBytes { raw in
                        Array(address.utf8).withUnsafeBufferPointer { address in
                            Result { () throws(OSCDecodingError) in
                                try decoder.decode(oscDatagram: raw, address: address) { values, counter, time in
                                    emit(Array(values), counter, time)
                                }
                            }
                        }
                    }
                    switch result {
                    case .success(let outcome): if let rejection = outcome.lastRejection { throw rejection }
                    case .failure(let error): throw .notOSC(error)
                    }
                } else {
                    try packet.bytes.withUnsafeBytes { raw in
                        Result { () throws(SensorPacketError) in
                            try decoder.decode(raw) { values, counter, time in emit(Array(values), counter, time) }
                        }
                    }.get()
                }
            }

            static func number(_ value: Double) -> String {
                value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.6g", value)
            }

            /// The description in a few lines.
            static func summary(_ sensor: SensorDescription) -> [String] {
                var lines = [
                    "\(sensor.name): \(sensor.contentType), \(sensor.channels.count) channel"
                        + (sensor.channels.count == 1 ? "" : "s")
                        + (sensor.nominalRate > 0 ? " at \(number(sensor.nominalRate)) Hz" : ", irregular")
                ]
                switch sensor.transport {
                case .ble(let link):
                    lines.append(
                        "transport: BLE device \"\(link.device)\" (found by its service \(link.advertised)), "
                            + "notifications of \(link.notify)"
                            + (link.subscribe.isEmpty
                                ? "" : " (also subscribed: \(link.subscribe.map(\.description).joined(separator: ", ")))")
                            + ", \(link.commands.count) command" + (link.commands.count == 1 ? "" : "s")
                            + " after subscribing, \(link.stopCommands.count) before closing")
                case .serial(let path, let baud, .lines): lines.append("transport: serial \(path) at \(baud) baud, lines")
                case .serial(let path, let baud, .sync(let bytes, let length)):
                    lines.append("transport: serial \(path) at \(baud) baud, \(length)-byte packets starting "
                        + bytes.map { String(format: "%02X", $0) }.joined(separator: " "))
                case .udp(let port): lines.append("transport: UDP 127.0.0.1:\(port)")
                case .osc(let port, let address): lines.append("transport: OSC \(address) on UDP 127.0.0.1:\(port)")
                }
                switch sensor.layout {
                case .binary(let layout):
                    let count = layout.sample.count.map { "\($0) samples" } ?? "as many samples as fill it"
                    lines.append(
                        "layout: binary, at least \(layout.minimumLength) bytes; \(count) of \(layout.sample.stride) "
                            + "bytes from byte \(layout.sample.offset)")
                    for field in layout.packetFields { lines.append("  packet field \(describe(field))") }
                    for field in layout.sample.fields { lines.append("  sample field \(describe(field))") }
                case .text(let layout):
                    switch layout.splitting {
                    case .delimited(let delimiter, let columns):
                        lines.append("layout: text, columns split by \"\(Character(Unicode.Scalar(delimiter)))\": "
                            + columns.map { $0.isEmpty ? "(skipped)" : $0 }.joined(separator: ", "))
                    case .pattern(let pattern, let groups):
                        lines.append("layout: text, pattern \(pattern) with fields \(groups.joined(separator: ", "))")
                    }
                    if layout.skipLines > 0 { lines.append("  the first \(layout.skipLines) lines skipped") }
                case .osc(let arguments):
                    lines.append("layout: OSC arguments " + arguments.map { $0.isEmpty ? "(skipped)" : $0 }.joined(separator: ", "))
                }
                if let time = sensor.deviceTime {
                    lines.append(
                        "device time: \(time.field) × \(number(time.secondsPerUnit)) s, of each packet's "
                            + (time.ofLastSample ? "last" : "first") + " sample")
                }
                if let counter = sensor.counter {
                    lines.append(
                        "counter: \(counter.field), counting \(counter.countsPackets ? "packets" : "samples")"
                            + (counter.modulus.map { ", wrapping at \($0)" } ?? ", not wrapping"))
                }
                for channel in sensor.channels {
                    var formula = channel.field
                    if channel.scale != 1 { formula += " × \(number(channel.scale))" }
                    if channel.offset != 0 { formula += (channel.offset < 0 ? " − " : " + ") + number(abs(channel.offset)) }
                    lines.append("channel \(channel.label) = \(formula)\(channel.unit.isEmpty ? "" : " \(channel.unit)")")
                }
                return lines
            }

            static func describe(_ field: BinaryField) -> String {
                let order = field.byteCount > 1 ? (field.bigEndian ? " big-endian" : " little-endian") : ""
                let bit = field.bit > 0 ? " bit \(field.bit)" : ""
                let expected = field.expected.map { ", must be \(number($0))" } ?? ""
                return "\(field.name): \(field.bits)-bit \(field.kind.rawValue)\(order) at byte \(field.offset)\(bit)\(expected)"
            }
        }
    }
}
