// AxonSensors — what a sensor description file says: a stream's shape, where its bytes come from, and how they are
// cut into samples.

import AxonDevices
import AxonStreams

/// A sensor described by a file instead of an adapter: the stream it makes, the transport its bytes come over, and
/// the layout that turns one packet (a notification, a line, a datagram, an OSC message) into samples.
///
/// Read one with ``init(json:)`` (every wrong or missing field is a ``SensorDescriptionError`` naming its path in
/// the file); `docs/sensors.md` documents the format and `examples/sensors/` holds worked files.
///
/// Threading: a value type; share freely.
public struct SensorDescription: Sendable, Hashable {
    /// The stream's name.
    public var name: String
    /// What the stream carries (`EEG`, `ECG`, …).
    public var contentType: StreamContentType
    /// Samples per second, or 0 for an irregular stream (every sample stamped when it arrives).
    public var nominalRate: Double
    /// The stream's channels, in order, each taken from one field of the layout.
    public var channels: [SensorChannel]
    /// Where the bytes come from.
    public var transport: SensorTransport
    /// How a packet becomes samples.
    public var layout: SensorLayout
    /// The device's counter, when it has one: its jumps become gap records.
    public var counter: SensorCounter?
    /// The device's clock, when its packets carry a timestamp: jumps in it become gap records too.
    public var deviceTime: SensorDeviceTime?

    /// A description from its parts; ``init(json:)`` checks a file's parts before calling this.
    public init(
        name: String, contentType: StreamContentType, nominalRate: Double, channels: [SensorChannel],
        transport: SensorTransport, layout: SensorLayout, counter: SensorCounter? = nil,
        deviceTime: SensorDeviceTime? = nil
    ) {
        self.name = name
        self.contentType = contentType
        self.nominalRate = nominalRate
        self.channels = channels
        self.transport = transport
        self.layout = layout
        self.counter = counter
        self.deviceTime = deviceTime
    }

    /// The stream this sensor makes (`sourceID` names the transport's endpoint unless given).
    public func descriptor(sourceID: String? = nil) -> StreamDescriptor {
        StreamDescriptor(
            name: name, contentType: contentType,
            channels: channels.map { ChannelInfo(label: $0.label, unit: $0.unit, range: $0.range) },
            nominalRate: nominalRate, format: .float64, sourceID: sourceID ?? "sensor-\(transport.endpoint)",
            metadata: ["sensor.transport": transport.endpoint])
    }
}

/// One channel of a described sensor: `value = field × scale + offset`.
///
/// Threading: a value type; share freely.
public struct SensorChannel: Sendable, Hashable {
    /// The channel's label.
    public var label: String
    /// Its physical unit after scaling.
    public var unit: String
    /// The layout field it is read from.
    public var field: String
    /// Multiplies the field's raw value.
    public var scale: Double
    /// Added after scaling.
    public var offset: Double
    /// The physical range the sensor can produce, if the file says (file writers scale from it).
    public var range: ClosedRange<Double>?

    /// A channel read from `field`.
    public init(
        label: String, unit: String, field: String, scale: Double = 1, offset: Double = 0,
        range: ClosedRange<Double>? = nil
    ) {
        self.label = label
        self.unit = unit
        self.field = field
        self.scale = scale
        self.offset = offset
        self.range = range
    }
}

/// Where a described sensor's bytes come from.
///
/// Threading: a value type; share freely.
public enum SensorTransport: Sendable, Hashable {
    /// A Bluetooth LE peripheral through BlueZ (``BLESensorLink``): each notification of its characteristic is one
    /// packet.
    case ble(BLESensorLink)
    /// A serial line (a USB serial adapter, a pty) in raw mode at `baud`, cut into packets by `framing`.
    case serial(path: String, baud: Int, framing: SerialFraming)
    /// UDP datagrams to 127.0.0.1:`port`, each one packet (for a text layout, each line of it).
    case udp(port: UInt16)
    /// OSC 1.0 messages to `address` in UDP datagrams to 127.0.0.1:`port`; each message is one packet.
    case osc(port: UInt16, address: String)

    /// The endpoint in words (`ble:Polar H10 …`, `serial:/dev/ttyACM0`, `udp:5000`, `osc:5000/muse/eeg`).
    public var endpoint: String {
        switch self {
        case .ble(let link): "ble:\(link.device)"
        case .serial(let path, _, _): "serial:\(path)"
        case .udp(let port): "udp:\(port)"
        case .osc(let port, let address): "osc:\(port)\(address)"
        }
    }
}

/// How a described BLE sensor is reached and started.
///
/// Threading: a value type; share freely.
public struct BLESensorLink: Sendable, Hashable {
    /// The device's name or address.
    public var device: String
    /// The characteristic whose notifications are the packets (with its service).
    public var notify: GATTCharacteristicID
    /// The service the device advertises, which discovery filters on (the notify characteristic's service unless
    /// the file says otherwise: a Polar H10 advertises Heart Rate, not its measurement service).
    public var advertised: BluetoothUUID
    /// Characteristics whose notifications or indications must be on too (a control point answering the commands;
    /// their values are not samples).
    public var subscribe: [GATTCharacteristicID]
    /// Written in order once notifications are on.
    public var commands: [SensorCommand]
    /// Written before the link is closed.
    public var stopCommands: [SensorCommand]

    /// A link.
    public init(
        device: String, notify: GATTCharacteristicID, advertised: BluetoothUUID, subscribe: [GATTCharacteristicID] = [],
        commands: [SensorCommand] = [], stopCommands: [SensorCommand] = []
    ) {
        self.device = device
        self.notify = notify
        self.advertised = advertised
        self.subscribe = subscribe
        self.commands = commands
        self.stopCommands = stopCommands
    }
}

/// A command a described BLE sensor is sent: bytes written to a characteristic.
///
/// Threading: a value type; share freely.
public struct SensorCommand: Sendable, Hashable {
    /// The characteristic written to.
    public var characteristic: GATTCharacteristicID
    /// The bytes.
    public var bytes: [UInt8]
    /// Whether the write waits for the peripheral's response (a GATT write request, not a command).
    public var withResponse: Bool

    /// A command.
    public init(characteristic: GATTCharacteristicID, bytes: [UInt8], withResponse: Bool = true) {
        self.characteristic = characteristic
        self.bytes = bytes
        self.withResponse = withResponse
    }
}

/// How bytes from a serial line are cut into packets.
///
/// Threading: a value type; share freely.
public enum SerialFraming: Sendable, Hashable {
    /// One packet per line, ended by LF (a CR before it is dropped).
    case lines
    /// Binary packets of `length` bytes, each starting with `sync`; bytes before a sync are skipped and counted.
    case sync(bytes: [UInt8], length: Int)
}

/// How one packet becomes samples, and which named fields each sample has.
///
/// Threading: a value type; share freely.
public enum SensorLayout: Sendable, Hashable {
    /// Binary packets: fields at fixed places.
    case binary(BinaryPacketLayout)
    /// Text lines: delimited columns or a regular expression's named groups, each parsed as a number.
    case text(TextLineLayout)
    /// OSC messages: the numeric arguments, named in order.
    case osc(arguments: [String])

    /// Every field name a sample has, in the layout's order.
    public var fieldNames: [String] {
        switch self {
        case .binary(let layout): layout.packetFields.map(\.name) + layout.sample.fields.map(\.name)
        case .text(let layout): layout.fieldNames
        case .osc(let arguments): arguments
        }
    }
}

/// A binary packet: fields read once per packet (a header, a counter) and a group of fields repeated for each sample.
///
/// Threading: a value type; share freely.
public struct BinaryPacketLayout: Sendable, Hashable {
    /// Fields at fixed places in the packet, the same for every sample of it.
    public var packetFields: [BinaryField]
    /// The repeated sample group.
    public var sample: SampleGroup
    /// The least bytes a packet may have; shorter packets are rejected.
    public var minimumLength: Int

    /// A layout; `minimumLength` defaults to the end of the last fixed field and of the first sample.
    public init(packetFields: [BinaryField], sample: SampleGroup, minimumLength: Int? = nil) {
        self.packetFields = packetFields
        self.sample = sample
        let fieldsEnd = packetFields.map(\.endByte).max() ?? 0
        let samplesEnd = sample.offset + (sample.count ?? 1) * sample.stride
        self.minimumLength = minimumLength ?? max(fieldsEnd, samplesEnd)
    }

    /// The samples repeated in a packet: `count` of them (or as many as fill the packet) every `stride` bytes from
    /// `offset`, each with `fields` at offsets relative to its start.
    public struct SampleGroup: Sendable, Hashable {
        /// Where the first sample starts.
        public var offset: Int
        /// Bytes from one sample's start to the next.
        public var stride: Int
        /// Samples per packet; `nil`: as many whole samples as the packet holds (a partial one is rejected).
        public var count: Int?
        /// The fields of one sample.
        public var fields: [BinaryField]

        /// A sample group.
        public init(offset: Int, stride: Int, count: Int?, fields: [BinaryField]) {
            self.offset = offset
            self.stride = stride
            self.count = count
            self.fields = fields
        }
    }
}

/// A number at a fixed place in a binary packet: `bits` bits starting `bit` bits into byte `offset`, read as an
/// integer of the given signedness and byte order, or an IEEE float.
///
/// Bit fields count their `bit` from the first bit of the bytes as the byte order reads them: for big-endian fields
/// from the most significant bit of byte `offset` (how a packed 12-bit big-endian stream is laid out), for
/// little-endian fields from the least significant bit of byte `offset`.
///
/// Threading: a value type; share freely.
public struct BinaryField: Sendable, Hashable {
    /// How the bits are read.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Two's complement integer.
        case signed
        /// Unsigned integer.
        case unsigned
        /// IEEE 754 float (32 or 64 bits, byte-aligned).
        case float
    }

    /// The field's name (channels and the counter refer to it).
    public var name: String
    /// Byte offset (in the packet, or in the sample for sample fields).
    public var offset: Int
    /// First bit within the bytes, 0…7.
    public var bit: Int
    /// Width in bits, 1…64.
    public var bits: Int
    /// How the bits are read.
    public var kind: Kind
    /// Whether the bytes are read big-endian.
    public var bigEndian: Bool
    /// The value a packet field must have for the packet to be this stream's (a measurement type); a packet with
    /// another is rejected. Sample fields have none.
    public var expected: Double?

    /// A field.
    public init(
        name: String, offset: Int, bit: Int = 0, bits: Int, kind: Kind, bigEndian: Bool, expected: Double? = nil
    ) {
        self.name = name
        self.offset = offset
        self.bit = bit
        self.bits = bits
        self.kind = kind
        self.bigEndian = bigEndian
        self.expected = expected
    }

    /// Bytes the field touches from `offset`.
    public var byteCount: Int { (bit + bits + 7) / 8 }
    /// The byte after the field's last.
    public var endByte: Int { offset + byteCount }
    /// The field's bits as a half-open range of bit positions from the start of its bytes' frame (offset × 8).
    var bitSpan: Range<Int> { (offset * 8 + bit)..<(offset * 8 + bit + bits) }
}

/// A text line: columns split by a delimiter, or a regular expression whose named groups are the fields.
///
/// Threading: a value type; share freely.
public struct TextLineLayout: Sendable, Hashable {
    /// How a line is cut.
    public enum Splitting: Sendable, Hashable {
        /// Columns between `delimiter` bytes (an ASCII character), named in order; extra columns are ignored.
        case delimited(delimiter: UInt8, columns: [String])
        /// A regular expression; each named group is a field.
        case pattern(String, groups: [String])
    }

    /// How a line is cut.
    public var splitting: Splitting
    /// Lines to skip at the start (a header line).
    public var skipLines: Int

    /// A layout.
    public init(splitting: Splitting, skipLines: Int = 0) {
        self.splitting = splitting
        self.skipLines = skipLines
    }

    /// The field names (empty column names excluded).
    public var fieldNames: [String] {
        switch splitting {
        case .delimited(_, let columns): columns.filter { !$0.isEmpty }
        case .pattern(_, let groups): groups
        }
    }
}

/// A device counter in a described sensor's packets: consecutive packets (or samples) count up by one, so a jump
/// means samples were lost (a gap record) and the counter wraps to 0 after `modulus − 1`.
///
/// Threading: a value type; share freely.
public struct SensorCounter: Sendable, Hashable {
    /// The field holding it.
    public var field: String
    /// The count after which it wraps to 0; `nil` when it does not wrap.
    public var modulus: UInt64?
    /// Whether it counts packets (each of `count` samples) rather than samples.
    public var countsPackets: Bool

    /// A counter.
    public init(field: String, modulus: UInt64?, countsPackets: Bool) {
        self.field = field
        self.modulus = modulus
        self.countsPackets = countsPackets
    }
}

/// A device clock in a described sensor's packets: a field holding the time of one sample of the packet (the first
/// or the last), in units of `secondsPerUnit` seconds. Each sample gets its device time from it at the nominal rate,
/// so the timeline can tell lost packets from late ones.
///
/// Threading: a value type; share freely.
public struct SensorDeviceTime: Sendable, Hashable {
    /// The field holding the time.
    public var field: String
    /// Seconds per unit of the field (1e-9 for nanoseconds).
    public var secondsPerUnit: Double
    /// Whether the time is the packet's last sample's (else its first's).
    public var ofLastSample: Bool

    /// A device clock.
    public init(field: String, secondsPerUnit: Double, ofLastSample: Bool) {
        self.field = field
        self.secondsPerUnit = secondsPerUnit
        self.ofLastSample = ofLastSample
    }
}
