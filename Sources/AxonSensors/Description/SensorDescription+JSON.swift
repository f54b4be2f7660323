// AxonSensors — reading a sensor description file: every field checked, every problem reported with its path.

import AxonDevices
import AxonStreams
import Foundation

extension SensorDescription {
    /// Reads and checks a description file (`docs/sensors.md` documents the format).
    ///
    /// - Throws: ``SensorDescriptionError``.
    public init(contentsOf path: String) throws(SensorDescriptionError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        try self.init(json: data)
    }

    /// Reads and checks a description from its JSON bytes. Every problem is collected before throwing, so one run
    /// names them all.
    ///
    /// - Throws: ``SensorDescriptionError/notJSON(reason:)`` or ``SensorDescriptionError/invalid(_:)``.
    public init(json: Data) throws(SensorDescriptionError) {
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: json) } catch {
            throw .notJSON(reason: Self.decodingReason(error))
        }
        var reader = DescriptionReader()
        guard let description = reader.description(root), reader.problems.isEmpty else {
            throw .invalid(reader.problems.isEmpty ? [.init(path: "", .invalid(reason: "not a description"))] : reader.problems)
        }
        self = description
    }

    private static func decodingReason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return String(describing: error)
    }
}

/// Walks a description's JSON, collecting problems with their paths; returns `nil` for a part it could not build.
private struct DescriptionReader {
    var problems: [SensorDescriptionProblem] = []

    mutating func note(_ path: String, _ problem: SensorDescriptionProblem.Problem) {
        problems.append(.init(path: path, problem))
    }

    // MARK: Generic fields

    /// The object at `path`, with its unknown members reported.
    mutating func object(_ value: JSONValue, _ path: String, known: Set<String>) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            note(path, .wrongType(expected: "an object", found: value.kindName))
            return nil
        }
        for key in members.keys.sorted() where !known.contains(key) { note(join(path, key), .unknownField) }
        return members
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func string(_ members: [String: JSONValue], _ key: String, _ path: String, required: Bool = true) -> String? {
        guard let value = members[key] else {
            if required { note(join(path, key), .missing) }
            return nil
        }
        guard case .string(let text) = value else {
            note(join(path, key), .wrongType(expected: "a string", found: value.kindName))
            return nil
        }
        guard !text.isEmpty else {
            note(join(path, key), .invalid(reason: "must not be empty"))
            return nil
        }
        return text
    }

    mutating func number(_ members: [String: JSONValue], _ key: String, _ path: String, required: Bool = true) -> Double? {
        guard let value = members[key] else {
            if required { note(join(path, key), .missing) }
            return nil
        }
        guard case .number(let number) = value, number.isFinite else {
            note(join(path, key), .wrongType(expected: "a number", found: value.kindName))
            return nil
        }
        return number
    }

    mutating func integer(
        _ members: [String: JSONValue], _ key: String, _ path: String, in range: ClosedRange<Int>, required: Bool = true
    ) -> Int? {
        guard let number = number(members, key, path, required: required) else { return nil }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            note(join(path, key), .invalid(reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(number)"))
            return nil
        }
        return Int(number)
    }

    mutating func bool(_ members: [String: JSONValue], _ key: String, _ path: String) -> Bool? {
        guard let value = members[key] else { return nil }
        guard case .bool(let flag) = value else {
            note(join(path, key), .wrongType(expected: "true or false", found: value.kindName))
            return nil
        }
        return flag
    }

    mutating func list(_ members: [String: JSONValue], _ key: String, _ path: String, required: Bool = true) -> [JSONValue]? {
        guard let value = members[key] else {
            if required { note(join(path, key), .missing) }
            return nil
        }
        guard case .array(let elements) = value else {
            note(join(path, key), .wrongType(expected: "a list", found: value.kindName))
            return nil
        }
        return elements
    }

    /// A list of distinct non-empty names (`allowEmpty`: "" marks a column to skip).
    mutating func names(_ members: [String: JSONValue], _ key: String, _ path: String, allowEmpty: Bool = false) -> [String]? {
        guard let elements = list(members, key, path) else { return nil }
        guard !elements.isEmpty else {
            note(join(path, key), .invalid(reason: "must name at least one field"))
            return nil
        }
        var names: [String] = []
        var ok = true
        for (index, element) in elements.enumerated() {
            let place = "\(join(path, key))[\(index)]"
            guard case .string(let name) = element else {
                note(place, .wrongType(expected: "a string", found: element.kindName))
                ok = false
                continue
            }
            if name.isEmpty && !allowEmpty {
                note(place, .invalid(reason: "must not be empty"))
                ok = false
            } else if !name.isEmpty && names.contains(name) {
                note(place, .invalid(reason: "\"\(name)\" is named twice"))
                ok = false
            }
            names.append(name)
        }
        return ok ? names : nil
    }

    // MARK: The description

    mutating func description(_ root: JSONValue) -> SensorDescription? {
        guard let members = object(
            root, "", known: ["name", "type", "rate", "channels", "transport", "layout", "counter", "time", "about"])
        else { return nil }
        let name = string(members, "name", "")
        let type = string(members, "type", "", required: false) ?? "Misc"
        let rate = rate(members["rate"])
        let transport = members["transport"].flatMap { self.transport($0, "transport") }
        if members["transport"] == nil { note("transport", .missing) }
        let layout = members["layout"].flatMap { self.layout($0, "layout") }
        if members["layout"] == nil { note("layout", .missing) }
        if let transport, let layout { check(layout, fits: transport) }
        let fields = layout.map(fieldKinds) ?? [:]
        let channels = list(members, "channels", "").flatMap { self.channels($0, fields: layout == nil ? nil : fields) }
        let counter = members["counter"].flatMap { self.counter($0, layout: layout, fields: fields) }
        let time = members["time"].flatMap { self.deviceTime($0, layout: layout, fields: fields, rate: rate) }
        guard let name, let rate, let transport, let layout, let channels else { return nil }
        if members["counter"] != nil && counter == nil { return nil }
        if members["time"] != nil && time == nil { return nil }
        return SensorDescription(
            name: name, contentType: StreamContentType(type), nominalRate: rate, channels: channels,
            transport: transport, layout: layout, counter: counter, deviceTime: time)
    }

    mutating func rate(_ value: JSONValue?) -> Double? {
        switch value {
        case nil:
            note("rate", .missing)
        case .string("irregular"):
            return 0
        case .number(let rate) where rate.isFinite && rate > 0 && rate <= 1_000_000:
            return rate
        case .number(let rate):
            note("rate", .invalid(reason: "must be more than 0 and at most 1000000 samples per second, not \(rate)"))
        case let other?:
            note("rate", .wrongType(expected: "samples per second or \"irregular\"", found: other.kindName))
        }
        return nil
    }

    /// An object holding exactly one of `kinds` (a transport, a layout): the kind, its body and its path.
    mutating func oneOf(_ value: JSONValue, _ path: String, kinds: [String]) -> (String, JSONValue, String)? {
        guard let members = object(value, path, known: Set(kinds)) else { return nil }
        let given = members.keys.filter { kinds.contains($0) }.sorted()
        let choices = kinds.dropLast().joined(separator: ", ") + " or " + kinds.last!
        guard given.count == 1, let kind = given.first, let body = members[kind] else {
            note(path, .invalid(reason: given.isEmpty
                ? "needs one of \(choices)"
                : "needs exactly one of \(choices), not \(given.joined(separator: " and "))"))
            return nil
        }
        return (kind, body, join(path, kind))
    }

    // MARK: Transport

    mutating func transport(_ value: JSONValue, _ path: String) -> SensorTransport? {
        guard let (kind, body, place) = oneOf(value, path, kinds: ["ble", "serial", "udp", "osc"]) else { return nil }
        switch kind {
        case "ble":
            guard let fields = object(
                body, place,
                known: ["device", "service", "characteristic", "advertised", "subscribe", "commands", "stopCommands"])
            else { return nil }
            let device = string(fields, "device", place)
            let service = uuid(fields, "service", place)
            let characteristic = uuid(fields, "characteristic", place)
            let advertised = uuid(fields, "advertised", place, required: false)
            var subscribe: [GATTCharacteristicID]? = []
            if let listed = list(fields, "subscribe", place, required: false) {
                for (index, element) in listed.enumerated() {
                    let at = "\(join(place, "subscribe"))[\(index)]"
                    guard case .string(let text) = element, let uuid = BluetoothUUID(parsing: text) else {
                        note(at, .invalid(reason: "not a Bluetooth UUID (4 or 8 hex digits, or 8-4-4-4-12)"))
                        subscribe = nil
                        continue
                    }
                    subscribe?.append(GATTCharacteristicID(service: service, characteristic: uuid))
                }
            } else if fields["subscribe"] != nil {
                subscribe = nil
            }
            let commands = self.commands(fields, "commands", place, service: service)
            let stops = self.commands(fields, "stopCommands", place, service: service)
            guard let device, let service, let characteristic, let subscribe, let commands, let stops else { return nil }
            if fields["advertised"] != nil && advertised == nil { return nil }
            return .ble(BLESensorLink(
                device: device, notify: GATTCharacteristicID(service: service, characteristic: characteristic),
                advertised: advertised ?? service, subscribe: subscribe, commands: commands, stopCommands: stops))
        case "serial":
            guard let fields = object(body, place, known: ["path", "baud", "framing"]) else { return nil }
            let device = string(fields, "path", place)
            let baud = integer(fields, "baud", place, in: 50...4_000_000, required: false) ?? 115_200
            let framing = fields["framing"].map { self.framing($0, join(place, "framing")) } ?? .lines
            guard let device, let framing else { return nil }
            return .serial(path: device, baud: baud, framing: framing)
        case "udp":
            guard let fields = object(body, place, known: ["port"]),
                let port = integer(fields, "port", place, in: 0...65_535)
            else { return nil }
            return .udp(port: UInt16(port))
        default:
            guard let fields = object(body, place, known: ["port", "address"]) else { return nil }
            let port = integer(fields, "port", place, in: 0...65_535)
            let address = string(fields, "address", place)
            if let address, !address.hasPrefix("/") {
                note(join(place, "address"), .invalid(reason: "an OSC address starts with /, not \"\(address)\""))
                return nil
            }
            guard let port, let address else { return nil }
            return .osc(port: UInt16(port), address: address)
        }
    }

    mutating func uuid(_ members: [String: JSONValue], _ key: String, _ path: String, required: Bool = true) -> BluetoothUUID? {
        guard let text = string(members, key, path, required: required) else { return nil }
        guard let uuid = BluetoothUUID(parsing: text) else {
            note(join(path, key), .invalid(reason: "not a Bluetooth UUID (4 or 8 hex digits, or 8-4-4-4-12): \"\(text)\""))
            return nil
        }
        return uuid
    }

    mutating func commands(
        _ members: [String: JSONValue], _ key: String, _ path: String, service: BluetoothUUID?
    ) -> [SensorCommand]? {
        guard let elements = list(members, key, path, required: false) else {
            return members[key] == nil ? [] : nil
        }
        var commands: [SensorCommand] = []
        var ok = true
        for (index, element) in elements.enumerated() {
            let place = "\(join(path, key))[\(index)]"
            guard let fields = object(element, place, known: ["characteristic", "service", "hex", "response"]) else {
                ok = false
                continue
            }
            let characteristic = uuid(fields, "characteristic", place)
            let own = uuid(fields, "service", place, required: false)
            let bytes = hex(fields, "hex", place)
            let response = bool(fields, "response", place) ?? true
            guard let characteristic, let bytes else {
                ok = false
                continue
            }
            commands.append(SensorCommand(
                characteristic: GATTCharacteristicID(service: own ?? service, characteristic: characteristic),
                bytes: bytes, withResponse: response))
        }
        return ok ? commands : nil
    }

    /// Hex bytes, spaces allowed between them (`"02 00 00 01"`).
    mutating func hex(_ members: [String: JSONValue], _ key: String, _ path: String) -> [UInt8]? {
        guard let text = string(members, key, path) else { return nil }
        guard let bytes = SensorHex.bytes(text), !bytes.isEmpty else {
            note(join(path, key), .invalid(reason: "not hex bytes (pairs of 0-9 a-f, spaces between allowed): \"\(text)\""))
            return nil
        }
        return bytes
    }

    mutating func framing(_ value: JSONValue, _ path: String) -> SerialFraming? {
        if case .string("lines") = value { return .lines }
        guard case .object = value else {
            note(path, .wrongType(expected: "\"lines\" or an object with sync and length", found: value.kindName))
            return nil
        }
        guard let fields = object(value, path, known: ["sync", "length"]) else { return nil }
        let sync = hex(fields, "sync", path)
        let length = integer(fields, "length", path, in: 1...65_536)
        guard let sync, let length else { return nil }
        guard sync.count <= length else {
            note(join(path, "sync"), .invalid(reason: "the sync bytes are longer than the packet (\(length) bytes)"))
            return nil
        }
        return .sync(bytes: sync, length: length)
    }

    // MARK: Layout

    mutating func layout(_ value: JSONValue, _ path: String) -> SensorLayout? {
        guard let (kind, body, place) = oneOf(value, path, kinds: ["binary", "text", "osc"]) else { return nil }
        switch kind {
        case "binary": return binary(body, place).map(SensorLayout.binary)
        case "text": return text(body, place).map(SensorLayout.text)
        default:
            guard let fields = object(body, place, known: ["arguments"]),
                let arguments = names(fields, "arguments", place, allowEmpty: true)
            else { return nil }
            return .osc(arguments: arguments)
        }
    }

    mutating func binary(_ value: JSONValue, _ path: String) -> BinaryPacketLayout? {
        guard let members = object(value, path, known: ["fields", "samples", "minimumLength"]) else { return nil }
        let packetFields = list(members, "fields", path, required: false).flatMap {
            self.fields($0, join(path, "fields"), limit: nil)
        } ?? (members["fields"] == nil ? [] : nil)
        let samplesPath = join(path, "samples")
        var group: BinaryPacketLayout.SampleGroup?
        if let body = members["samples"] {
            if let fields = object(body, samplesPath, known: ["offset", "stride", "count", "fields"]) {
                let offset = integer(fields, "offset", samplesPath, in: 0...65_535, required: false) ?? 0
                let stride = integer(fields, "stride", samplesPath, in: 1...65_535)
                let count = sampleCount(fields["count"], join(samplesPath, "count"))
                let sampleFields = list(fields, "fields", samplesPath).flatMap {
                    self.fields($0, join(samplesPath, "fields"), limit: stride)
                }
                for (index, field) in (sampleFields ?? []).enumerated() where field.expected != nil {
                    note("\(join(samplesPath, "fields"))[\(index)].equals", .invalid(reason:
                        "only a packet field (layout.binary.fields) can pick the packets of this stream"))
                }
                if let offset = Optional(offset), let stride, let count, let sampleFields {
                    if sampleFields.isEmpty {
                        note(join(samplesPath, "fields"), .invalid(reason: "must have at least one field"))
                    } else {
                        group = .init(offset: offset, stride: stride, count: count == 0 ? nil : count, fields: sampleFields)
                    }
                }
            }
        } else {
            note(samplesPath, .missing)
        }
        let minimum = integer(members, "minimumLength", path, in: 1...65_536, required: false)
        guard let packetFields, let group else { return nil }
        let names = packetFields.map(\.name) + group.fields.map(\.name)
        for (index, name) in names.enumerated() where names[..<index].contains(name) {
            note(path, .invalid(reason: "the field name \"\(name)\" is used twice"))
            return nil
        }
        return BinaryPacketLayout(packetFields: packetFields, sample: group, minimumLength: minimum)
    }

    /// `"fill"` → 0 (as many as the packet holds), else a count of 1…4096.
    mutating func sampleCount(_ value: JSONValue?, _ path: String) -> Int? {
        switch value {
        case nil, .string("fill"): return 0
        case .number(let count) where count == count.rounded() && count >= 1 && count <= 4096: return Int(count)
        case .number(let count):
            note(path, .invalid(reason: "must be \"fill\" or a whole number from 1 to 4096, not \(count)"))
        case let other?:
            note(path, .wrongType(expected: "\"fill\" or a number", found: other.kindName))
        }
        return nil
    }

    /// A list of fields; within one sample of `limit` bytes when given. Overlapping fields are refused.
    mutating func fields(_ elements: [JSONValue], _ path: String, limit: Int?) -> [BinaryField]? {
        var fields: [BinaryField] = []
        var ok = true
        for (index, element) in elements.enumerated() {
            let place = "\(path)[\(index)]"
            guard let field = field(element, place) else {
                ok = false
                continue
            }
            if let limit, field.endByte > limit {
                note(place, .invalid(reason: "ends at byte \(field.endByte) of a \(limit)-byte sample (stride)"))
                ok = false
                continue
            }
            if let other = fields.firstIndex(where: { $0.bitSpan.overlaps(field.bitSpan) }) {
                note(place, .invalid(reason: "overlaps \(path)[\(other)] (\"\(fields[other].name)\")"))
                ok = false
                continue
            }
            fields.append(field)
        }
        return ok ? fields : nil
    }

    mutating func field(_ value: JSONValue, _ path: String) -> BinaryField? {
        guard let members = object(
            value, path, known: ["name", "offset", "type", "bits", "bit", "signed", "endian", "equals"])
        else { return nil }
        let name = string(members, "name", path)
        let offset = integer(members, "offset", path, in: 0...65_535)
        var kind: BinaryField.Kind?
        var bits: Int?
        var bigEndian: Bool?
        if let type = string(members, "type", path, required: false) {
            for key in ["bits", "signed"] where members[key] != nil {
                note(join(path, key), .invalid(reason: "give either type or bits and signed, not both"))
            }
            guard let parsed = SensorFieldType(type) else {
                note(join(path, "type"), .invalid(reason:
                    "unknown type \"\(type)\": int8, uint8, int16le … uint64be, float32le, float64be (docs/sensors.md)"))
                return nil
            }
            (kind, bits, bigEndian) = (parsed.kind, parsed.bits, parsed.bigEndian)
        } else if members["type"] == nil {
            if members["bits"] == nil {
                note(join(path, "type"), .missing)
                return nil
            }
            bits = integer(members, "bits", path, in: 1...64)
            if members["bits"].flatMap({ if case .number(let n) = $0 { n } else { nil } }) == 0 {
                problems.removeLast()
                note(join(path, "bits"), .invalid(reason: "a field is at least 1 bit wide, not 0"))
            }
            kind = (bool(members, "signed", path) ?? false) ? .signed : .unsigned
        } else {
            return nil
        }
        let bit = integer(members, "bit", path, in: 0...7, required: false) ?? 0
        if let endian = string(members, "endian", path, required: false) {
            guard endian == "big" || endian == "little" else {
                note(join(path, "endian"), .invalid(reason: "must be \"big\" or \"little\", not \"\(endian)\""))
                return nil
            }
            if bigEndian != nil && members["type"] != nil {
                note(join(path, "endian"), .invalid(reason: "the type already says the byte order"))
                return nil
            }
            bigEndian = endian == "big"
        }
        let expected = number(members, "equals", path, required: false)
        guard let name, let offset, let kind, let bits else { return nil }
        let field = BinaryField(
            name: name, offset: offset, bit: bit, bits: bits, kind: kind, bigEndian: bigEndian ?? false,
            expected: expected)
        if bigEndian == nil && field.byteCount > 1 {
            note(join(path, "endian"), .invalid(reason: "missing: the field spans \(field.byteCount) bytes, so say \"big\" or \"little\""))
            return nil
        }
        if bit + bits > 64 {
            note(join(path, "bit"), .invalid(reason: "bit + bits must be at most 64 (\(bit) + \(bits))"))
            return nil
        }
        if kind == .float && (bit != 0 || (bits != 32 && bits != 64)) {
            note(join(path, "bits"), .invalid(reason: "a float is 32 or 64 bits from a byte boundary"))
            return nil
        }
        return field
    }

    mutating func text(_ value: JSONValue, _ path: String) -> TextLineLayout? {
        guard let members = object(value, path, known: ["delimiter", "columns", "pattern", "skipLines"]) else {
            return nil
        }
        let skip = integer(members, "skipLines", path, in: 0...1000, required: false) ?? 0
        if members["pattern"] != nil {
            for key in ["delimiter", "columns"] where members[key] != nil {
                note(join(path, key), .invalid(reason: "give either pattern or delimiter and columns, not both"))
            }
            guard let pattern = string(members, "pattern", path) else { return nil }
            let groups: [String]
            do { groups = try TextLinePattern.groupNames(pattern) } catch {
                note(join(path, "pattern"), .invalid(reason: "not a regular expression: \(error)"))
                return nil
            }
            guard !groups.isEmpty else {
                note(join(path, "pattern"), .invalid(reason: "has no named groups ((?<name>…)) to read fields from"))
                return nil
            }
            return TextLineLayout(splitting: .pattern(pattern, groups: groups), skipLines: skip)
        }
        let delimiter = string(members, "delimiter", path, required: false) ?? ","
        let columns = names(members, "columns", path, allowEmpty: true)
        let bytes = Array(delimiter.utf8)
        guard bytes.count == 1, bytes[0] != 0x0A, bytes[0] != 0x0D, bytes[0] < 0x80 else {
            note(join(path, "delimiter"), .invalid(reason: "must be one ASCII character other than a line end, not \"\(delimiter)\""))
            return nil
        }
        guard let columns else { return nil }
        return TextLineLayout(splitting: .delimited(delimiter: bytes[0], columns: columns), skipLines: skip)
    }

    mutating func deviceTime(_ value: JSONValue, layout: SensorLayout?, fields: [String: Bool], rate: Double?) -> SensorDeviceTime? {
        let path = "time"
        guard let members = object(value, path, known: ["field", "unit", "sample"]) else { return nil }
        let field = string(members, "field", path)
        let unit = string(members, "unit", path)
        let sample = string(members, "sample", path, required: false) ?? "first"
        guard let field, let unit, layout != nil else { return nil }
        guard fields[field] != nil else {
            note(join(path, "field"), .invalid(reason: "no field \"\(field)\" in the layout"))
            return nil
        }
        let units: [String: Double] = ["s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9]
        guard let seconds = units[unit] else {
            note(join(path, "unit"), .invalid(reason: "must be s, ms, us or ns, not \"\(unit)\""))
            return nil
        }
        guard sample == "first" || sample == "last" else {
            note(join(path, "sample"), .invalid(reason: "must be \"first\" or \"last\", not \"\(sample)\""))
            return nil
        }
        guard let rate, rate > 0 else {
            note(path, .invalid(reason: "a device clock needs a regular stream (a rate, not irregular)"))
            return nil
        }
        return SensorDeviceTime(field: field, secondsPerUnit: seconds, ofLastSample: sample == "last")
    }

    /// Layouts that a transport cannot carry: OSC goes with OSC, a serial line with text, synced packets with binary.
    mutating func check(_ layout: SensorLayout, fits transport: SensorTransport) {
        switch (transport, layout) {
        case (.osc, .osc), (.udp, .binary), (.udp, .text), (.ble, .binary), (.ble, .text),
            (.serial(_, _, .lines), .text), (.serial(_, _, .sync), .binary):
            return
        case (.osc, _): note("layout", .invalid(reason: "an osc transport needs an osc layout"))
        case (_, .osc): note("layout.osc", .invalid(reason: "an osc layout needs an osc transport"))
        case (.serial(_, _, .lines), _):
            note("layout", .invalid(reason: "a serial line framed as lines needs a text layout (binary needs framing with sync and length)"))
        case (.serial, _): note("layout", .invalid(reason: "a serial line framed by sync and length needs a binary layout"))
        }
    }

    /// Each field name and whether it holds an integer (a counter must).
    func fieldKinds(_ layout: SensorLayout) -> [String: Bool] {
        switch layout {
        case .binary(let binary):
            Dictionary(
                (binary.packetFields + binary.sample.fields).map { ($0.name, $0.kind != .float) },
                uniquingKeysWith: { first, _ in first })
        case .text, .osc: Dictionary(layout.fieldNames.map { ($0, true) }, uniquingKeysWith: { first, _ in first })
        }
    }

    // MARK: Channels and counter

    mutating func channels(_ elements: [JSONValue], fields: [String: Bool]?) -> [SensorChannel]? {
        guard !elements.isEmpty else {
            note("channels", .invalid(reason: "must list at least one channel"))
            return nil
        }
        var channels: [SensorChannel] = []
        var ok = true
        for (index, element) in elements.enumerated() {
            let place = "channels[\(index)]"
            guard let members = object(element, place, known: ["label", "field", "unit", "scale", "offset", "range"])
            else {
                ok = false
                continue
            }
            let label = string(members, "label", place)
            let field = string(members, "field", place)
            let unit: String
            if case .string(let given)? = members["unit"] { unit = given } else {
                unit = ""
                if let other = members["unit"] { note(join(place, "unit"), .wrongType(expected: "a string", found: other.kindName)) }
            }
            let scale = number(members, "scale", place, required: false) ?? 1
            let offset = number(members, "offset", place, required: false) ?? 0
            let range = members["range"].flatMap { self.range($0, join(place, "range")) }
            if let field, let fields, fields[field] == nil {
                note(join(place, "field"), .invalid(reason:
                    "no field \"\(field)\" in the layout (it has \(fields.keys.sorted().joined(separator: ", ")))"))
                ok = false
            }
            if let label, channels.contains(where: { $0.label == label }) {
                note(join(place, "label"), .invalid(reason: "\"\(label)\" labels two channels"))
                ok = false
            }
            if scale == 0 { note(join(place, "scale"), .invalid(reason: "must not be 0")) }
            guard let label, let field, scale != 0, members["range"] == nil || range != nil else {
                ok = false
                continue
            }
            channels.append(SensorChannel(label: label, unit: unit, field: field, scale: scale, offset: offset, range: range))
        }
        return ok ? channels : nil
    }

    mutating func range(_ value: JSONValue, _ path: String) -> ClosedRange<Double>? {
        guard case .array(let bounds) = value, bounds.count == 2, case .number(let low) = bounds[0],
            case .number(let high) = bounds[1]
        else {
            note(path, .wrongType(expected: "[low, high]", found: value.kindName))
            return nil
        }
        guard low.isFinite, high.isFinite, low < high else {
            note(path, .invalid(reason: "low must be below high, not [\(low), \(high)]"))
            return nil
        }
        return low...high
    }

    mutating func counter(_ value: JSONValue, layout: SensorLayout?, fields: [String: Bool]) -> SensorCounter? {
        let path = "counter"
        guard let members = object(value, path, known: ["field", "modulus", "counts"]) else { return nil }
        guard let field = string(members, "field", path) else { return nil }
        guard let layout else { return nil }
        guard let integral = fields[field] else {
            note(join(path, "field"), .invalid(reason: "no field \"\(field)\" in the layout"))
            return nil
        }
        guard integral else {
            note(join(path, "field"), .invalid(reason: "\"\(field)\" is a float; a counter is an integer"))
            return nil
        }
        var modulus: UInt64?
        if let given = number(members, "modulus", path, required: false) {
            guard given == given.rounded(), given >= 2, given <= 9_007_199_254_740_992 else {
                note(join(path, "modulus"), .invalid(reason: "must be a whole number of at least 2, not \(given)"))
                return nil
            }
            modulus = UInt64(given)
        }
        var countsPackets = false
        if case .binary(let binary) = layout {
            let packetField = binary.packetFields.first { $0.name == field }
            let bits = (packetField ?? binary.sample.fields.first { $0.name == field })!.bits
            if modulus == nil, bits < 64 { modulus = UInt64(1) << UInt64(bits) }
            countsPackets = packetField != nil
        }
        if let counts = string(members, "counts", path, required: false) {
            guard counts == "packets" || counts == "samples" else {
                note(join(path, "counts"), .invalid(reason: "must be \"packets\" or \"samples\", not \"\(counts)\""))
                return nil
            }
            countsPackets = counts == "packets"
        }
        if countsPackets {
            guard case .binary(let binary) = layout, binary.sample.count != nil else {
                note(join(path, "counts"), .invalid(reason:
                    "a packet counter needs a fixed number of samples per packet (layout.binary.samples.count)"))
                return nil
            }
        }
        return SensorCounter(field: field, modulus: modulus, countsPackets: countsPackets)
    }
}

/// The shorthand field types: `int8`, `uint8`, `int16le`, `uint24be`, `float32le`, … .
struct SensorFieldType {
    var kind: BinaryField.Kind
    var bits: Int
    var bigEndian: Bool

    init?(_ text: String) {
        var rest = Substring(text)
        if rest.hasPrefix("uint") {
            kind = .unsigned
            rest = rest.dropFirst(4)
        } else if rest.hasPrefix("int") {
            kind = .signed
            rest = rest.dropFirst(3)
        } else if rest.hasPrefix("float") {
            kind = .float
            rest = rest.dropFirst(5)
        } else {
            return nil
        }
        let digits = rest.prefix { $0.isNumber }
        guard let width = Int(digits) else { return nil }
        let order = rest.dropFirst(digits.count)
        let widths = kind == .float ? [32, 64] : [8, 16, 24, 32, 64]
        guard widths.contains(width) else { return nil }
        switch order {
        case "le": bigEndian = false
        case "be": bigEndian = true
        case "" where width == 8: bigEndian = false
        default: return nil
        }
        bits = width
    }
}

/// Hex text to bytes, as description files and captures write them.
///
/// Threading: stateless; call from anywhere.
public enum SensorHex {
    /// `"02 00 0a"` or `"02000A"` → bytes; `nil` for anything else.
    public static func bytes(_ text: String) -> [UInt8]? {
        let digits = text.filter { !$0.isWhitespace }
        guard digits.count.isMultiple(of: 2), digits.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
