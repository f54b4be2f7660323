// AxonSensors — one packet of a described sensor into samples: fields read, channels scaled, the counter found.

import AxonMemory

#if canImport(Glibc)
    import Glibc
#endif

/// Why a packet did not fit its sensor's layout. The packet is counted as rejected and dropped; decoding goes on.
///
/// Threading: a value type; share freely.
public enum SensorPacketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A binary packet shorter than the layout needs.
    case tooShort(length: Int, minimum: Int)
    /// A binary packet whose samples (as many as fill it) end in part of one.
    case partialSample(length: Int, stride: Int)
    /// A text line with fewer columns than the layout names.
    case missingColumns(expected: Int, found: Int)
    /// A field whose text (or float bits) is not a finite number, or an OSC argument that is not numeric.
    case notANumber(field: String)
    /// A text line the layout's regular expression does not match.
    case noMatch
    /// An OSC message with fewer arguments than the layout names.
    case missingArguments(expected: Int, found: Int)
    /// A counter field holding a negative or fractional value, or one not below the counter's modulus.
    case badCounter(Double)
    /// A line longer than the framer holds (``SensorPacketDecoder/maximumLineLength``).
    case lineTooLong
    /// A packet field that picks the stream's packets holds another value (another measurement's packet).
    case otherPacket(field: String, value: Double)
    /// A datagram to an OSC sensor that is not an OSC packet.
    case notOSC(OSCDecodingError)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .tooShort(let length, let minimum): "a \(length)-byte packet is shorter than the layout's \(minimum) bytes"
        case .partialSample(let length, let stride):
            "a \(length)-byte packet ends inside a sample (\(stride) bytes each)"
        case .missingColumns(let expected, let found): "a line with \(found) columns; the layout reads \(expected)"
        case .notANumber(let field): "field \"\(field)\" is not a number"
        case .noMatch: "a line the pattern does not match"
        case .missingArguments(let expected, let found): "an OSC message with \(found) arguments; the layout reads \(expected)"
        case .badCounter(let value): "counter value \(value) is not a whole number from 0 to the modulus − 1"
        case .lineTooLong: "a line longer than \(SensorPacketDecoder.maximumLineLength) bytes"
        case .notOSC(let error): "not an OSC packet: \(error)"
        case .otherPacket(let field, let value): "field \"\(field)\" is \(value), not this stream's"
        }
    }
}

/// What a ``SensorPacketDecoder`` has made of its packets.
///
/// Threading: a value type; share freely.
public struct SensorDecodingStatistics: Sendable, Hashable {
    /// Packets decoded into samples.
    public var packets = 0
    /// Samples made.
    public var samples = 0
    /// Packets rejected (``lastRejection`` says why the last was).
    public var rejected = 0
    /// Header lines skipped (a text layout's `skipLines`).
    public var skippedLines = 0
    /// Why the last rejected packet was rejected.
    public var lastRejection: SensorPacketError?
}

/// Turns a described sensor's packets into samples: each binary packet, text line or OSC message is checked
/// against the layout, its fields read, each channel scaled (`field × scale + offset`) and the device counter
/// worked out per sample (a packet counter × samples per packet + the sample's place).
///
///     let decoder = SensorPacketDecoder(description)
///     try bytes.withUnsafeBytes { packet in
///         try decoder.decode(packet) { values, counter, deviceTime in
///             writer.write(values, deviceTime: deviceTime, counter: counter)
///         }
///     }
///
/// Threading: single owner (the thread receiving the packets). Binary and delimited-text packets are decoded in
/// place without allocating; a regular-expression layout allocates per line.
public final class SensorPacketDecoder {
    /// The longest text line read; longer lines are rejected.
    public static let maximumLineLength = 4096

    /// The sensor.
    public let sensor: SensorDescription
    /// What has been decoded so far.
    public private(set) var statistics = SensorDecodingStatistics()

    private let fieldNames: [String]
    private let fields: OwnedBuffer<Double>
    private let values: OwnedBuffer<Double>
    private let channelFields: [Int]
    private let scales: [Double]
    private let offsets: [Double]
    private let counterField: Int?
    private let timeField: Int?
    /// Text columns (or OSC arguments) → field index, -1 for one not read.
    private let columnFields: [Int]
    private let lastColumn: Int
    private let number = OwnedBuffer<CChar>(repeating: 0, count: 128)
    private let regex: Regex<AnyRegexOutput>?
    private var linesToSkip: Int

    /// A decoder for `sensor`'s layout (a description read by ``SensorDescription/init(json:)`` is consistent; one
    /// built by hand whose channels name missing fields stops the program).
    public init(_ sensor: SensorDescription) {
        self.sensor = sensor
        let names = sensor.layout.fieldNames
        fieldNames = names
        fields = OwnedBuffer(repeating: 0, count: max(names.count, 1))
        values = OwnedBuffer(repeating: 0, count: sensor.channels.count)
        channelFields = sensor.channels.map { channel in
            guard let index = names.firstIndex(of: channel.field) else {
                preconditionFailure("channel \(channel.label) reads a field the layout lacks: \(channel.field)")
            }
            return index
        }
        scales = sensor.channels.map(\.scale)
        offsets = sensor.channels.map(\.offset)
        counterField = sensor.counter.map { counter in
            guard let index = names.firstIndex(of: counter.field) else {
                preconditionFailure("the counter reads a field the layout lacks: \(counter.field)")
            }
            return index
        }
        timeField = sensor.deviceTime.map { time in names.firstIndex(of: time.field)! }
        switch sensor.layout {
        case .text(let text):
            linesToSkip = text.skipLines
            if case .delimited(_, let columns) = text.splitting {
                columnFields = columns.map { $0.isEmpty ? -1 : names.firstIndex(of: $0)! }
                regex = nil
            } else if case .pattern(let pattern, _) = text.splitting {
                columnFields = []
                regex = try? Regex(pattern)
            } else {
                columnFields = []
                regex = nil
            }
        case .osc(let arguments):
            linesToSkip = 0
            columnFields = arguments.map { $0.isEmpty ? -1 : names.firstIndex(of: $0)! }
            regex = nil
        case .binary:
            linesToSkip = 0
            columnFields = []
            regex = nil
        }
        lastColumn = columnFields.lastIndex { $0 >= 0 } ?? -1
    }

    /// The counter's modulus as the stream's timeline needs it: per sample (a packet counter's × samples per packet).
    public var sampleCounterModulus: UInt64? {
        guard let counter = sensor.counter, let modulus = counter.modulus else { return nil }
        guard counter.countsPackets, case .binary(let layout) = sensor.layout, let count = layout.sample.count else {
            return modulus
        }
        return modulus * UInt64(count)
    }

    /// Decodes one packet — a binary packet, or one text line (without its line end) — calling `emit` with each
    /// sample's channel values, counter and device time (in seconds), when the sensor has them.
    ///
    /// - Throws: ``SensorPacketError`` when the packet does not fit the layout (counted; nothing emitted).
    public func decode(
        _ packet: UnsafeRawBufferPointer, _ emit: (UnsafeBufferPointer<Double>, UInt64?, Double?) -> Void
    ) throws(SensorPacketError) {
        do throws(SensorPacketError) {
            switch sensor.layout {
            case .binary(let layout): try decodeBinary(packet, layout, emit)
            case .text:
                if linesToSkip > 0 {
                    linesToSkip -= 1
                    statistics.skippedLines += 1
                    return
                }
                if regex != nil { try decodePattern(packet) } else { try decodeDelimited(packet) }
                try emitSample(0, of: 1, emit)
            case .osc: preconditionFailure("an OSC layout decodes OSC messages: decode(_:_:) with an OSCMessageView")
            }
        } catch {
            reject(error)
            throw error
        }
        statistics.packets += 1
    }

    /// Decodes one OSC message of an OSC layout: its arguments in order are the named fields.
    ///
    /// - Throws: ``SensorPacketError/missingArguments(expected:found:)`` or ``SensorPacketError/notANumber(field:)``.
    public func decode(
        _ message: OSCMessageView, _ emit: (UnsafeBufferPointer<Double>, UInt64?, Double?) -> Void
    ) throws(SensorPacketError) {
        var index = 0
        var failure: SensorPacketError?
        message.forEachArgument { argument in
            defer { index += 1 }
            guard failure == nil, index < columnFields.count, columnFields[index] >= 0 else { return }
            guard let value = argument.number, value.isFinite else {
                failure = .notANumber(field: fieldNames[columnFields[index]])
                return
            }
            fields[columnFields[index]] = value
        }
        if failure == nil, index <= lastColumn { failure = .missingArguments(expected: lastColumn + 1, found: index) }
        do throws(SensorPacketError) {
            if let failure { throw failure }
            try emitSample(0, of: 1, emit)
        } catch {
            reject(error)
            throw error
        }
        statistics.packets += 1
    }

    /// What one OSC datagram held for an OSC sensor.
    public struct OSCDatagramOutcome: Sendable, Hashable {
        /// Messages to other addresses (ignored).
        public var otherMessages = 0
        /// Why the last message to the address that did not fit the layout was rejected.
        public var lastRejection: SensorPacketError?
    }

    /// Decodes one OSC datagram of an OSC sensor: every message to the sensor's address (`address`, its UTF-8
    /// bytes), alone or in bundles, is one packet.
    ///
    /// - Throws: ``OSCDecodingError`` when the datagram is not OSC (nothing emitted).
    public func decode(
        oscDatagram datagram: UnsafeRawBufferPointer, address: UnsafeBufferPointer<UInt8>,
        _ emit: (UnsafeBufferPointer<Double>, UInt64?, Double?) -> Void
    ) throws(OSCDecodingError) -> OSCDatagramOutcome {
        var outcome = OSCDatagramOutcome()
        try OSCPacketReader.forEachMessage(in: datagram) { message in
            guard address.count == message.address.count, address.elementsEqual(message.address) else {
                outcome.otherMessages += 1
                return
            }
            do throws(SensorPacketError) { try decode(message, emit) } catch { outcome.lastRejection = error }
        }
        return outcome
    }

    /// Counts a packet rejected before it reached the decoder (a line too long for the framer).
    public func reject(_ error: SensorPacketError) {
        statistics.rejected += 1
        statistics.lastRejection = error
    }

    // MARK: Binary

    private func decodeBinary(
        _ packet: UnsafeRawBufferPointer, _ layout: BinaryPacketLayout,
        _ emit: (UnsafeBufferPointer<Double>, UInt64?, Double?) -> Void
    ) throws(SensorPacketError) {
        guard packet.count >= layout.minimumLength else {
            throw .tooShort(length: packet.count, minimum: layout.minimumLength)
        }
        let group = layout.sample
        let count: Int
        if let fixed = group.count {
            let needed = group.offset + fixed * group.stride
            guard packet.count >= needed else { throw .tooShort(length: packet.count, minimum: needed) }
            count = fixed
        } else {
            let room = packet.count - group.offset
            guard room > 0, room % group.stride == 0 else { throw .partialSample(length: packet.count, stride: group.stride) }
            count = room / group.stride
        }
        for (index, field) in layout.packetFields.enumerated() {
            let value = Self.read(field, in: packet, at: field.offset)
            if let expected = field.expected, value != expected { throw .otherPacket(field: field.name, value: value) }
            fields[index] = value
        }
        let first = layout.packetFields.count
        // A packet is taken whole or not at all: what could fail in a later sample (a float that is NaN or ±∞, a
        // negative sample counter) is checked before the first sample is emitted.
        for sample in 0..<count {
            let base = group.offset + sample * group.stride
            for (index, field) in group.fields.enumerated() where field.kind != .unsigned || counterField == first + index {
                let value = Self.read(field, in: packet, at: base + field.offset)
                if !value.isFinite { throw .notANumber(field: field.name) }
                if counterField == first + index, !isCounterValue(value) { throw .badCounter(value) }
            }
        }
        for sample in 0..<count {
            let base = group.offset + sample * group.stride
            for (index, field) in group.fields.enumerated() {
                fields[first + index] = Self.read(field, in: packet, at: base + field.offset)
            }
            try emitSample(sample, of: count, emit)
        }
    }

    /// The field's value in `packet` with its bytes from `offset` (in bounds: the layout's checks guarantee it).
    static func read(_ field: BinaryField, in packet: UnsafeRawBufferPointer, at offset: Int) -> Double {
        let byteCount = field.byteCount
        var word: UInt64 = 0
        if field.bigEndian {
            for k in 0..<byteCount { word = word << 8 | UInt64(packet[offset + k]) }
            word >>= UInt64(byteCount * 8 - field.bit - field.bits)
        } else {
            for k in 0..<byteCount { word |= UInt64(packet[offset + k]) << UInt64(8 * k) }
            word >>= UInt64(field.bit)
        }
        let mask: UInt64 = field.bits == 64 ? .max : (1 << UInt64(field.bits)) - 1
        word &= mask
        switch field.kind {
        case .unsigned: return Double(word)
        case .signed:
            if field.bits < 64, word & (1 << UInt64(field.bits - 1)) != 0 { word |= ~mask }
            return Double(Int64(bitPattern: word))
        case .float:
            return field.bits == 32 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: word))) : Double(bitPattern: word)
        }
    }

    // MARK: Text

    private func decodeDelimited(_ line: UnsafeRawBufferPointer) throws(SensorPacketError) {
        guard case .text(let layout) = sensor.layout, case .delimited(let delimiter, _) = layout.splitting else { return }
        var column = 0
        var start = 0
        var position = 0
        while column <= lastColumn {
            while position < line.count, line[position] != delimiter { position += 1 }
            let target = columnFields[column]
            if target >= 0 { fields[target] = try parseNumber(line, start..<position, field: target) }
            column += 1
            guard position < line.count else { break }
            position += 1
            start = position
        }
        guard column > lastColumn else { throw .missingColumns(expected: lastColumn + 1, found: column) }
    }

    /// The number in `line[range]`, spaces around it allowed; parsed in place with `strtod` (C locale).
    private func parseNumber(_ line: UnsafeRawBufferPointer, _ range: Range<Int>, field: Int) throws(SensorPacketError) -> Double {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high, line[low] == 0x20 || line[low] == 0x09 { low += 1 }
        while high > low, line[high - 1] == 0x20 || line[high - 1] == 0x09 { high -= 1 }
        let length = high - low
        guard length > 0, length < number.count else { throw .notANumber(field: fieldNames[field]) }
        let parsed: Double? = number.withUnsafeMutableBufferPointer { text in
            for k in 0..<length { text[k] = CChar(bitPattern: line[low + k]) }
            text[length] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(text.baseAddress!, &end)
            guard let end, end == text.baseAddress! + length, value.isFinite else { return nil }
            return value
        }
        guard let parsed else { throw .notANumber(field: fieldNames[field]) }
        return parsed
    }

    private func decodePattern(_ line: UnsafeRawBufferPointer) throws(SensorPacketError) {
        guard let regex else { return }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.wholeMatch(of: regex) else { throw .noMatch }
        for (index, name) in fieldNames.enumerated() {
            guard let captured = match.output[name]?.substring, let value = Double(captured.trimmingSpaces),
                value.isFinite
            else { throw .notANumber(field: name) }
            fields[index] = value
        }
    }

    // MARK: Output

    /// Whether `value` can be the counter's: a whole number from 0 to the modulus − 1 (or below 2⁶⁴).
    private func isCounterValue(_ value: Double) -> Bool {
        guard value >= 0, value == value.rounded() else { return false }
        guard let modulus = sensor.counter?.modulus else { return value < 18_446_744_073_709_551_616 }
        return value < Double(modulus)
    }

    /// Emits sample `place` of a packet of `count`: its channels, its counter and its device time.
    private func emitSample(
        _ place: Int, of count: Int, _ emit: (UnsafeBufferPointer<Double>, UInt64?, Double?) -> Void
    ) throws(SensorPacketError) {
        var counter: UInt64?
        if let counterField, let described = sensor.counter {
            let raw = fields[counterField]
            guard isCounterValue(raw) else { throw .badCounter(raw) }
            // A packet counter comes with a fixed sample count (the description's check), `count` here.
            counter = described.countsPackets ? UInt64(raw) &* UInt64(count) &+ UInt64(place) : UInt64(raw)
        }
        var deviceTime: Double?
        if let timeField, let time = sensor.deviceTime {
            let stamped = fields[timeField] * time.secondsPerUnit
            let offset = time.ofLastSample ? place - (count - 1) : place
            deviceTime = stamped + Double(offset) / sensor.nominalRate
        }
        for channel in 0..<channelFields.count {
            values[channel] = fields[channelFields[channel]] * scales[channel] + offsets[channel]
        }
        statistics.samples += 1
        values.withUnsafeBufferPointer { emit($0, counter, deviceTime) }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
