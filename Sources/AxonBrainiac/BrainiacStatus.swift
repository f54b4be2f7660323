/// A status message of the Brainiac headset and its link: the vendor SDK's `CBManagerMessage`, code for code.
///
/// The raw value is the SDK's code (`CBManagerMessage_ScanningStarted = 0` … `CBManagerMessage_PeripheralDisconnected
/// = 15`); a status notification carries it in one byte.
///
///     if let status = BrainiacStatus(code: 8) { print(status.message) }   // "Data transfer started"
///
/// Threading: a value type; share freely.
public enum BrainiacStatus: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `CBManagerMessage_ScanningStarted`: scanning for the headset started.
    case scanningStarted = 0
    /// `CBManagerMessage_ScanningStopped`: scanning stopped.
    case scanningStopped = 1
    /// `CBManagerMessage_ConnectingToPeripheral`: connecting to the headset.
    case connectingToPeripheral = 2
    /// `CBManagerMessage_ConnectToPeripheralFailed`: the connection to the headset failed.
    case connectToPeripheralFailed = 3
    /// `CBManagerMessage_ConnectToPeripheralSuccessful`: connected to the headset.
    case connectToPeripheralSuccessful = 4
    /// `CBManagerMessage_ConnectingToService`: connecting to the EEG service.
    case connectingToService = 5
    /// `CBManagerMessage_ConnectToServiceFailed`: the connection to the EEG service failed.
    case connectToServiceFailed = 6
    /// `CBManagerMessage_ConnectToServiceSuccessful`: connected to the EEG service.
    case connectToServiceSuccessful = 7
    /// `CBManagerMessage_DataTransferStarted`: samples are flowing.
    case dataTransferStarted = 8
    /// `CBManagerMessage_DataTransferAborted`: the data transfer was aborted.
    case dataTransferAborted = 9
    /// `CBManagerMessage_DataTransferError`: the data transfer failed.
    case dataTransferError = 10
    /// `CBManagerMessage_CharacteristicDiscovered`: the data characteristic was found.
    case characteristicDiscovered = 11
    /// `CBManagerMessage_CharacteristicDiscoveringFailed`: the data characteristic was not found.
    case characteristicDiscoveringFailed = 12
    /// `CBManagerMessage_Ready`: ready to transfer data.
    case ready = 13
    /// `CBManagerMessage_UnknownError`: an error the device could not name.
    case unknownError = 14
    /// `CBManagerMessage_PeripheralDisconnected`: the headset disconnected.
    case peripheralDisconnected = 15

    /// The status with the SDK's integer code, or `nil` for a code the SDK does not define.
    public init?(code: Int) {
        guard let byte = UInt8(exactly: code) else { return nil }
        self.init(rawValue: byte)
    }

    /// The SDK's integer code.
    public var code: Int { Int(rawValue) }

    /// The SDK's constant name (`CBManagerMessage_DataTransferStarted`).
    public var vendorName: String {
        switch self {
        case .scanningStarted: "CBManagerMessage_ScanningStarted"
        case .scanningStopped: "CBManagerMessage_ScanningStopped"
        case .connectingToPeripheral: "CBManagerMessage_ConnectingToPeripheral"
        case .connectToPeripheralFailed: "CBManagerMessage_ConnectToPeripheralFailed"
        case .connectToPeripheralSuccessful: "CBManagerMessage_ConnectToPeripheralSuccessful"
        case .connectingToService: "CBManagerMessage_ConnectingToService"
        case .connectToServiceFailed: "CBManagerMessage_ConnectToServiceFailed"
        case .connectToServiceSuccessful: "CBManagerMessage_ConnectToServiceSuccessful"
        case .dataTransferStarted: "CBManagerMessage_DataTransferStarted"
        case .dataTransferAborted: "CBManagerMessage_DataTransferAborted"
        case .dataTransferError: "CBManagerMessage_DataTransferError"
        case .characteristicDiscovered: "CBManagerMessage_CharacteristicDiscovered"
        case .characteristicDiscoveringFailed: "CBManagerMessage_CharacteristicDiscoveringFailed"
        case .ready: "CBManagerMessage_Ready"
        case .unknownError: "CBManagerMessage_UnknownError"
        case .peripheralDisconnected: "CBManagerMessage_PeripheralDisconnected"
        }
    }

    /// A human message for a status line ("Connecting to the headset").
    public var message: String {
        switch self {
        case .scanningStarted: "Scanning for the Brainiac headset"
        case .scanningStopped: "Scanning stopped"
        case .connectingToPeripheral: "Connecting to the headset"
        case .connectToPeripheralFailed: "Could not connect to the headset"
        case .connectToPeripheralSuccessful: "Connected to the headset"
        case .connectingToService: "Connecting to the headset's EEG service"
        case .connectToServiceFailed: "Could not connect to the headset's EEG service"
        case .connectToServiceSuccessful: "Connected to the headset's EEG service"
        case .dataTransferStarted: "Data transfer started"
        case .dataTransferAborted: "Data transfer aborted"
        case .dataTransferError: "Data transfer error"
        case .characteristicDiscovered: "Found the headset's data characteristic"
        case .characteristicDiscoveringFailed: "Could not find the headset's data characteristic"
        case .ready: "Ready"
        case .unknownError: "Unknown error in the headset"
        case .peripheralDisconnected: "The headset disconnected"
        }
    }

    /// Whether the status reports a failure (failed connects, aborted or failed transfers, unknown errors).
    public var isFailure: Bool {
        switch self {
        case .connectToPeripheralFailed, .connectToServiceFailed, .dataTransferAborted, .dataTransferError,
            .characteristicDiscoveringFailed, .unknownError:
            true
        default:
            false
        }
    }

    /// `"<code> <message>"`, for logs.
    public var description: String { "\(rawValue) \(message)" }
}
