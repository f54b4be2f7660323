import AxonDevices

/// Where a Polar H10 keeps its data, as Polar's public BLE SDK (`polarofficial/polar-ble-sdk`, `BlePMDClient`) uses
/// it: the Polar Measurement Data (PMD) service and the standard Heart Rate service.
///
/// | characteristic | what |
/// |---|---|
/// | PMD `fb005c81-…` control point | read: the features; write: commands (``PolarCommand``), answered by an indication (``PolarControlPointResponse``) |
/// | PMD `fb005c82-…` data | notify: measurement frames (``PolarDataFrame``) |
/// | `0x2A37` Heart Rate Measurement (service `0x180D`) | notify: bpm and RR intervals (``AxonDevices/HeartRateMeasurement``) |
///
/// Threading: a namespace of constants; share freely.
public enum PolarGATTProfile {
    /// The Polar Measurement Data service.
    public static let pmdService: BluetoothUUID = "fb005c80-02e7-f387-1cad-8acd2d8df0c8"
    /// The PMD control point (read, write, indicate).
    public static let controlPoint: BluetoothUUID = "fb005c81-02e7-f387-1cad-8acd2d8df0c8"
    /// The PMD data characteristic (notify).
    public static let data: BluetoothUUID = "fb005c82-02e7-f387-1cad-8acd2d8df0c8"
    /// The Heart Rate service, which a Polar strap advertises; discovery filters on it.
    public static let heartRateService: BluetoothUUID = "180d"
    /// The Heart Rate Measurement characteristic.
    public static let heartRateMeasurement: BluetoothUUID = "2a37"

    /// The control point in its service.
    public static let controlPointID = GATTCharacteristicID(service: pmdService, characteristic: controlPoint)
    /// The data characteristic in its service.
    public static let dataID = GATTCharacteristicID(service: pmdService, characteristic: data)
    /// Heart Rate Measurement in its service.
    public static let heartRateID = GATTCharacteristicID(
        service: heartRateService, characteristic: heartRateMeasurement)
}
