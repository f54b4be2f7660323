/// One SOURCE argument, as every EEG command takes it: a recording's path, `simulator`, `test-sequence:HZ`,
/// `cyton:PATH`, `muse:NAME`, `ganglion:NAME`, `polar:NAME`, `ble:NAME`, `lsl:NAME|lsl:type=T|lsl:source_id=ID` or
/// `sensor:FILE.json` (a sensor description file).
///
/// Parsing only: what a command does with each kind (and which kinds it takes) is the command's business. A word
/// with a `kind:` prefix that names no kind is an error listing every kind, not a path that does not exist.
///
/// Threading: a value type; use it anywhere.
public enum SourceSpecifier: Sendable, Hashable, CustomStringConvertible {
    /// A recording file (any format Axon reads).
    case file(path: String)
    /// The simulated 4-channel 250 Hz source.
    case simulator
    /// The simulated Brainiac headset's test sequence at this dominant frequency, through its packet decoder.
    case testSequence(frequency: Double)
    /// An OpenBCI Cyton (+ Daisy) on a serial port.
    case cyton(port: String)
    /// A Muse headband through BlueZ, by name or address.
    case muse(selector: String)
    /// An OpenBCI Ganglion through BlueZ, by name or address.
    case ganglion(selector: String)
    /// A Polar H10 chest strap (ECG, accelerometer, RR intervals) through BlueZ, by name or address.
    case polar(selector: String)
    /// A Brainiac headset through BlueZ, by name or address; an empty selector (`ble:`) is the one headset in range,
    /// as the SDK's `start` needs no name.
    case brainiac(selector: String)
    /// A Lab Streaming Layer stream: `NAME`, `type=T` or `source_id=ID` (the text after `lsl:`).
    case lsl(query: String)
    /// A sensor described by a file (`AxonSensors`' `SensorDescription`): its transport, layout and channels.
    case sensor(description: String)

    /// Every form, as help texts and errors list them.
    public static let forms =
        "a recording's path, simulator, test-sequence:HZ, cyton:PATH, muse:NAME|ADDRESS, ganglion:NAME|ADDRESS, "
        + "polar:NAME|ADDRESS (a Polar H10), ble:NAME|ADDRESS (a Brainiac headset; ble: alone, the one in range), "
        + "lsl:NAME|lsl:type=T|lsl:source_id=ID, sensor:FILE.json (a sensor description, docs/sensors.md)"

    /// The prefixes of the kinds that are not paths.
    public static let kinds = ["test-sequence", "cyton", "muse", "ganglion", "polar", "ble", "lsl", "sensor"]

    /// Parses `text`.
    ///
    /// - Throws: ``SourceSpecifierError`` for an empty argument, an unknown `kind:` prefix, a kind without its
    ///   value, or a test sequence whose frequency is not a positive number.
    public init(parsing text: String) throws(SourceSpecifierError) {
        guard !text.isEmpty else { throw .empty }
        if text == "simulator" {
            self = .simulator
            return
        }
        guard let colon = text.firstIndex(of: ":") else {
            self = .file(path: text)
            return
        }
        let kind = String(text[..<colon])
        let value = String(text[text.index(after: colon)...])
        // `./take:2.edf` and `/data/a:b.csv` are paths: a kind is one word.
        guard kind.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }), !kind.isEmpty else {
            self = .file(path: text)
            return
        }
        guard Self.kinds.contains(kind) else { throw .unknownKind(text) }
        guard !value.isEmpty || kind == "ble" else { throw .missingValue(kind: kind) }
        switch kind {
        case "test-sequence":
            guard let frequency = Double(value), frequency.isFinite, frequency > 0 else {
                throw .badFrequency(value)
            }
            self = .testSequence(frequency: frequency)
        case "cyton": self = .cyton(port: value)
        case "muse": self = .muse(selector: value)
        case "ganglion": self = .ganglion(selector: value)
        case "polar": self = .polar(selector: value)
        case "ble": self = .brainiac(selector: value)
        case "sensor": self = .sensor(description: value)
        default: self = .lsl(query: value)
        }
    }

    /// Whether this is a file (the kinds without a `kind:` prefix other than `simulator`).
    public var isPath: Bool {
        if case .file = self { return true }
        return false
    }

    /// Whether this is a device reached through a radio or a port (not a file, a simulator or an LSL stream).
    public var isDevice: Bool {
        switch self {
        case .cyton, .muse, .ganglion, .polar, .brainiac, .sensor: true
        default: false
        }
    }

    /// The argument as it is written.
    public var description: String {
        switch self {
        case .file(let path): path
        case .simulator: "simulator"
        case .testSequence(let frequency): "test-sequence:\(frequency)"
        case .cyton(let port): "cyton:\(port)"
        case .muse(let selector): "muse:\(selector)"
        case .ganglion(let selector): "ganglion:\(selector)"
        case .polar(let selector): "polar:\(selector)"
        case .brainiac(let selector): "ble:\(selector)"
        case .lsl(let query): "lsl:\(query)"
        case .sensor(let path): "sensor:\(path)"
        }
    }
}

/// A SOURCE argument that names no source.
public enum SourceSpecifierError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case unknownKind(String)
    case missingValue(kind: String)
    case badFrequency(String)

    public var description: String {
        switch self {
        case .empty: "an empty SOURCE; expected \(SourceSpecifier.forms)"
        case .unknownKind(let text): "\(text) is no SOURCE Axon knows; expected \(SourceSpecifier.forms)"
        case .missingValue(let kind):
            "\(kind): needs a value (\(kind == "test-sequence" ? "test-sequence:10" : "\(kind):NAME")); "
                + "expected \(SourceSpecifier.forms)"
        case .badFrequency(let text): "test-sequence:\(text): the frequency must be a positive number of Hz, e.g. test-sequence:10"
        }
    }
}
