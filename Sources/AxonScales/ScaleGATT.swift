import AxonDevices

/// The GATT characteristics a scale session uses.
///
/// Threading: a value type; share freely.
public enum ScaleGATT {
    /// Axon's scale service for the simulated HS3/HS4/HS5 (docs/scale-protocol.md).
    public static let service: BluetoothUUID = "5ca1e000-a7e0-4d5c-8f00-000000000001"
    /// Commands are written here (write with response).
    public static let command = GATTCharacteristicID(
        service: service, characteristic: "5ca1e000-a7e0-4d5c-8f00-000000000002")
    /// Responses, live weights and records are notified here.
    public static let response = GATTCharacteristicID(
        service: service, characteristic: "5ca1e000-a7e0-4d5c-8f00-000000000003")

    /// Weight Scale service (0x181D).
    public static let weightScaleService: BluetoothUUID = "181d"
    /// Weight Measurement (0x2A9D, indicate).
    public static let weightMeasurement = GATTCharacteristicID(service: weightScaleService, characteristic: "2a9d")
    /// Weight Scale Feature (0x2A9E, read).
    public static let weightScaleFeature = GATTCharacteristicID(service: weightScaleService, characteristic: "2a9e")
    /// Body Composition service (0x181B).
    public static let bodyCompositionService: BluetoothUUID = "181b"
    /// Body Composition Measurement (0x2A9C, indicate).
    public static let bodyCompositionMeasurement = GATTCharacteristicID(
        service: bodyCompositionService, characteristic: "2a9c")
}
