/// The OpenBCI boards whose BrainFlow-format files ``BrainFlowCSVReader`` reads, with BrainFlow's board description
/// of each: which row of BrainFlow's data array (column of the file) holds what.
///
/// | board | BrainFlow id | columns | rate | EEG | accel | timestamp | marker |
/// |---|---|---|---|---|---|---|---|
/// | ``cyton`` | 0 | 24 | 250 Hz | 1–8 | 9–11 | 22 | 23 |
/// | ``ganglion`` | 1 | 15 | 200 Hz | 1–4 | 5–7 | 13 | 14 |
/// | ``cytonDaisy`` | 2 | 32 | 125 Hz | 1–16 | 17–19 | 30 | 31 |
/// | ``ganglionWifi`` | 4 | 25 | 1600 Hz | 1–4 | 5–7 | 23 | 24 |
/// | ``cytonWifi`` | 5 | 24 | 1000 Hz | 1–8 | 9–11 | 22 | 23 |
/// | ``cytonDaisyWifi`` | 6 | 32 | 1000 Hz | 1–16 | 17–19 | 30 | 31 |
///
/// Column 0 is BrainFlow's package number; the columns between accel and timestamp are "other", analog and (Ganglion)
/// resistance channels.
///
/// Threading: a value type; share freely.
public enum BrainFlowBoard: String, Sendable, CaseIterable, CustomStringConvertible {
    /// OpenBCI Cyton over its USB dongle.
    case cyton
    /// OpenBCI Ganglion over BLE.
    case ganglion
    /// OpenBCI Cyton with the Daisy module: 16 channels at 125 Hz.
    case cytonDaisy = "cyton-daisy"
    /// OpenBCI Ganglion through the WiFi Shield.
    case ganglionWifi = "ganglion-wifi"
    /// OpenBCI Cyton through the WiFi Shield.
    case cytonWifi = "cyton-wifi"
    /// OpenBCI Cyton + Daisy through the WiFi Shield.
    case cytonDaisyWifi = "cyton-daisy-wifi"

    /// BrainFlow's board id.
    public var brainFlowID: Int {
        switch self {
        case .cyton: return 0
        case .ganglion: return 1
        case .cytonDaisy: return 2
        case .ganglionWifi: return 4
        case .cytonWifi: return 5
        case .cytonDaisyWifi: return 6
        }
    }

    /// BrainFlow's board name.
    public var description: String {
        switch self {
        case .cyton: return "Cyton"
        case .ganglion: return "Ganglion"
        case .cytonDaisy: return "CytonDaisy"
        case .ganglionWifi: return "GanglionWifi"
        case .cytonWifi: return "CytonWifi"
        case .cytonDaisyWifi: return "CytonDaisyWifi"
        }
    }

    /// Columns per row (BrainFlow's `num_rows`).
    public var columnCount: Int {
        switch self {
        case .cyton, .cytonWifi: return 24
        case .ganglion: return 15
        case .cytonDaisy, .cytonDaisyWifi: return 32
        case .ganglionWifi: return 25
        }
    }

    /// BrainFlow's default sampling rate in Hz.
    public var sampleRate: Double {
        switch self {
        case .cyton: return 250
        case .ganglion: return 200
        case .cytonDaisy: return 125
        case .ganglionWifi: return 1600
        case .cytonWifi, .cytonDaisyWifi: return 1000
        }
    }

    /// Number of EEG channels; they are columns `1...eegChannelCount`.
    public var eegChannelCount: Int {
        switch self {
        case .cyton, .cytonWifi: return 8
        case .ganglion, .ganglionWifi: return 4
        case .cytonDaisy, .cytonDaisyWifi: return 16
        }
    }

    /// The accelerometer's three columns (g).
    public var accelColumns: ClosedRange<Int> { (eegChannelCount + 1)...(eegChannelCount + 3) }

    /// The timestamp column (Unix seconds, host time).
    public var timestampColumn: Int { columnCount - 2 }

    /// The marker column (0 = no marker).
    public var markerColumn: Int { columnCount - 1 }

    /// The board a file with this many columns is taken for when none is named: the dongle/BLE board, which is
    /// what the OpenBCI GUI records most; the WiFi Shield boards share their column counts (except the Ganglion's).
    public static func assumed(columnCount: Int) -> BrainFlowBoard? {
        switch columnCount {
        case 24: return .cyton
        case 15: return .ganglion
        case 32: return .cytonDaisy
        case 25: return .ganglionWifi
        default: return nil
        }
    }

    /// The boards with this column count, for messages.
    public static func candidates(columnCount: Int) -> [BrainFlowBoard] {
        allCases.filter { $0.columnCount == columnCount }
    }
}
