import AxonDevices

/// Where a Muse headband (2016, Muse 2, Muse S) keeps its data, as muse-lsl and the Muse apps use it: service 0xFE8D
/// (Interaxon), characteristics `273eXXXX-4c4d-454d-96be-f03bac821358`.
///
/// | characteristic | what |
/// |---|---|
/// | `273e0001` | control: commands written (``MuseCommand``), JSON replies notified |
/// | `273e0003` … `273e0006` | EEG TP9, AF7, AF8, TP10 (notify; ``MuseEEGPacket``) |
/// | `273e0007` | EEG right AUX (notify; with preset `p20`) |
/// | `273e000b` | telemetry: battery (notify) |
///
/// Threading: a value type; share freely.
public struct MuseGATTProfile: Sendable, Hashable {
    /// The service a Muse advertises; discovery filters on it.
    public static let service: BluetoothUUID = "fe8d"
    /// The control characteristic.
    public static let control: BluetoothUUID = uuid(0x0001)
    /// The EEG characteristics in channel order: TP9, AF7, AF8, TP10, right AUX.
    public static let eeg: [BluetoothUUID] = (3...7).map { uuid(UInt16($0)) }
    /// The telemetry characteristic.
    public static let telemetry: BluetoothUUID = uuid(0x000B)
    /// Channel labels in stream order.
    public static let channelLabels = ["TP9", "AF7", "AF8", "TP10", "Right AUX"]

    /// `273eXXXX-4c4d-454d-96be-f03bac821358`.
    public static func uuid(_ short: UInt16) -> BluetoothUUID {
        let hex = String(short, radix: 16)
        return BluetoothUUID(
            stringLiteral: "273e" + String(repeating: "0", count: 4 - hex.count) + hex
                + "-4c4d-454d-96be-f03bac821358")
    }

    /// Whether the right AUX channel is streamed (preset `p20`).
    public var includesAux: Bool

    /// A profile with or without the AUX channel.
    public init(includesAux: Bool) { self.includesAux = includesAux }

    /// Channels per frame: 4, or 5 with AUX.
    public var channelCount: Int { includesAux ? 5 : 4 }
    /// The EEG characteristics this profile subscribes, in channel order.
    public var eegCharacteristics: [GATTCharacteristicID] {
        Self.eeg.prefix(channelCount).map { GATTCharacteristicID(service: Self.service, characteristic: $0) }
    }
    /// The control characteristic in its service.
    public var controlCharacteristic: GATTCharacteristicID {
        GATTCharacteristicID(service: Self.service, characteristic: Self.control)
    }

    /// The channel (0-based) an EEG characteristic carries, `nil` for any other.
    public func channel(of characteristic: GATTCharacteristicID) -> Int? {
        guard let index = Self.eeg.firstIndex(of: characteristic.characteristic), index < channelCount else {
            return nil
        }
        return index
    }
}
