// AxonBrainiac — one notification as the headset sent it: the SDK's `rawdata` bytes and `rawvalues` records.

/// One notification of the headset exactly as it arrived, with what the decoder made of it: the SDK's `rawdata`
/// (the unprocessed bytes) and, for an EEG notification, its `rawvalues` (each sample with the notification's
/// hardware order number, the device's time and counter, and the four channels).
///
/// ``EEGHeadset/notifications`` carries one per notification received, accepted or rejected. The engine's stream
/// carries the same samples without the order number (`EEGSample.counter` is the device's sample counter, so a
/// sample of ``EEGHeadset/samples`` is found here by its counter).
///
/// Threading: a value type; share freely.
public struct BrainiacRawNotification: Sendable, Hashable {
    /// The notification's bytes, as the transport delivered them.
    public var bytes: [UInt8]
    /// Host monotonic time the notification arrived, seconds.
    public var arrivalTime: Double
    /// What the decoder made of it: the notification (EEG, battery or status), or why it was rejected.
    public var decoded: Result<BrainiacNotification, BrainiacPacketError>
    /// The EEG samples it carried, each with its hardware order number (empty for battery, status and rejected
    /// notifications).
    public var samples: [BrainiacPacket]

    /// The hardware order number of an accepted notification (the SDK's `hardware_order_number`).
    public var hardwareOrderNumber: UInt16? {
        if case .success(let notification) = decoded { notification.header.hardwareOrderNumber } else { nil }
    }

    /// Records a notification and its decoding; an accepted EEG notification's samples are parsed from `bytes`.
    /// Allocates (the bytes and the samples): taken off the EEG path only when someone asked for it.
    public init(bytes: [UInt8], arrivalTime: Double, decoded: Result<BrainiacNotification, BrainiacPacketError>) {
        self.bytes = bytes
        self.arrivalTime = arrivalTime
        self.decoded = decoded
        if case .success(.eeg) = decoded {
            samples = (try? BrainiacDecoder.packets(in: bytes)) ?? []
        } else {
            samples = []
        }
    }
}
