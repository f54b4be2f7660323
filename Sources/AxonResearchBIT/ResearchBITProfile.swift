import AxonDevices

/// The GATT layout Axon uses for ResearchBIT sensors and Nordic dongles (docs/researchbit-protocol.md).
///
/// The vendor SDK names its service and characteristic UUIDs in a private file; Axon defines its own in the same
/// shape: one service per device family that a scan filters on, a command characteristic (write) and a summary
/// characteristic (notify).
///
/// Threading: a value type; share freely.
public struct ResearchBITProfile: Sendable, Hashable {
    /// The ResearchBIT sensor's service.
    public static let researchBITService: BluetoothUUID = "5242a000-7a3c-4e1d-9a51-52657362a000"
    /// The Nordic dongle's service (same characteristics).
    public static let nordicService: BluetoothUUID = "5242b000-7a3c-4e1d-9a51-52657362a000"
    /// Commands from the central (write with response).
    public static let commandUUID: BluetoothUUID = "5242a001-7a3c-4e1d-9a51-52657362a000"
    /// Summary events and status frames from the device (notify).
    public static let summaryUUID: BluetoothUUID = "5242a002-7a3c-4e1d-9a51-52657362a000"
    /// Nordic Semiconductor's Bluetooth SIG company identifier: the key of the advertised manufacturer data that
    /// carries battery percentage and the data-available flag.
    public static let companyID: UInt16 = 0x0059

    /// The service UUIDs a scan accepts.
    public static let serviceUUIDs: [BluetoothUUID] = [researchBITService, nordicService]

    /// The service this device uses.
    public var service: BluetoothUUID

    /// Creates a value from its fields.
    public init(service: BluetoothUUID = ResearchBITProfile.researchBITService) { self.service = service }

    /// The command characteristic.
    public var command: GATTCharacteristicID {
        GATTCharacteristicID(service: service, characteristic: Self.commandUUID)
    }
    /// The summary characteristic.
    public var summary: GATTCharacteristicID {
        GATTCharacteristicID(service: service, characteristic: Self.summaryUUID)
    }
}
