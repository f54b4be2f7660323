import AxonDevices

/// Where the Brainiac headset's data sits in its GATT database.
///
/// The vendor's UUIDs are not public, so Axon defines defaults (the ones its simulator and the test bluetoothd
/// use) and every one is configurable for real hardware:
///
/// | what | default UUID |
/// |---|---|
/// | Brainiac service | `8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0` |
/// | EEG data (notify; `docs/brainiac-packet.md`) | `8b5e0002-4c5a-4e1b-9a3e-6a78b7e1a0c0` |
/// | command (write) | `8b5e0003-4c5a-4e1b-9a3e-6a78b7e1a0c0` |
/// | battery level | the standard Battery service 0x180F, Battery Level 0x2A19 |
public struct BrainiacGATTProfile: Sendable, Hashable {
    /// The headset's primary service (also the discovery filter).
    public var service: BluetoothUUID
    /// The notifying characteristic that carries every packet (EEG, battery, status).
    public var data: BluetoothUUID
    /// The writable command characteristic.
    public var command: BluetoothUUID

    public init(
        service: BluetoothUUID = "8b5e0001-4c5a-4e1b-9a3e-6a78b7e1a0c0",
        data: BluetoothUUID = "8b5e0002-4c5a-4e1b-9a3e-6a78b7e1a0c0",
        command: BluetoothUUID = "8b5e0003-4c5a-4e1b-9a3e-6a78b7e1a0c0"
    ) {
        self.service = service
        self.data = data
        self.command = command
    }

    /// The data characteristic in its service.
    public var dataCharacteristic: GATTCharacteristicID { GATTCharacteristicID(service: service, characteristic: data) }
}

extension BrainiacStatus {
    /// The SDK's status messages that a transport's link event stands for, in order.
    public static func messages(for event: LinkEvent) -> [BrainiacStatus] {
        switch event {
        case .scanning(let on): [on ? .scanningStarted : .scanningStopped]
        case .found: []
        case .connecting: [.connectingToPeripheral]
        case .connectFailed: [.connectToPeripheralFailed]
        case .connected: [.connectToPeripheralSuccessful, .connectingToService]
        case .servicesResolved: [.connectToServiceSuccessful]
        case .characteristicMissing: [.characteristicDiscoveringFailed]
        case .notifying: [.characteristicDiscovered, .dataTransferStarted]
        case .ready: [.ready]
        case .linkLost: [.dataTransferAborted, .peripheralDisconnected]
        case .serviceVanished: [.peripheralDisconnected]
        case .serviceReturned: []
        case .error: [.dataTransferError]
        case .closed: [.peripheralDisconnected]
        }
    }
}
