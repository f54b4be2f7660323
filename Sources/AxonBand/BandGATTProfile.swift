import AxonDevices

/// Where a band's characteristics are: Axon's band service (docs/band-protocol.md) with a command characteristic
/// (write with response) and a record characteristic (notify), plus the standard Heart Rate Measurement (0x2A37
/// in 0x180D) for live heart rate and the Battery service.
///
/// Threading: a value type; share freely.
public struct BandGATTProfile: Sendable, Hashable {
    /// Axon's band service.
    public static let serviceUUID: BluetoothUUID = "a10b0000-6d2c-4b8e-9f31-62616e640000"
    /// Commands, central to band.
    public static let commandUUID: BluetoothUUID = "a10b0001-6d2c-4b8e-9f31-62616e640000"
    /// Records and answers, band to central.
    public static let recordUUID: BluetoothUUID = "a10b0002-6d2c-4b8e-9f31-62616e640000"
    /// Heart Rate service 0x180D.
    public static let heartRateService: BluetoothUUID = "180d"
    /// Heart Rate Measurement 0x2A37.
    public static let heartRateMeasurementUUID: BluetoothUUID = "2a37"

    /// Creates a value from its fields.
    public init() {}

    /// Command.
    public var command: GATTCharacteristicID {
        GATTCharacteristicID(service: Self.serviceUUID, characteristic: Self.commandUUID)
    }
    /// Records.
    public var records: GATTCharacteristicID {
        GATTCharacteristicID(service: Self.serviceUUID, characteristic: Self.recordUUID)
    }
    /// Heart rate.
    public var heartRate: GATTCharacteristicID {
        GATTCharacteristicID(service: Self.heartRateService, characteristic: Self.heartRateMeasurementUUID)
    }
}
