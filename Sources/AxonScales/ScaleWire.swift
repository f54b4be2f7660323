/// What a ``ScaleSession`` speaks to its scale.
///
/// Threading: a value type; share freely.
public enum ScaleWire: String, Sendable, Hashable, CaseIterable {
    /// Axon's own framing over a custom GATT service (docs/scale-protocol.md): the simulated HS3, HS4 and HS5,
    /// because iHealth's over-the-air protocol for them is not public.
    case axonFraming
    /// The Bluetooth SIG Weight Scale and Body Composition services: any standard scale.
    case standardGATT
    /// The iHealth HS3's own serial-port stream (Bluetooth Classic SPP; ``HS3SerialPacket``), read over a
    /// ``AxonDevices/ByteStreamTransport``. Nothing is sent to the scale: it has no commands, no memory transfer
    /// and no Bluetooth switch, and user validation is local.
    case hs3SerialPort

    /// The wire a model speaks when none is named: the standard services for ``ScaleModel/standard``, Axon's
    /// framing otherwise.
    public static func `default`(for model: ScaleModel) -> ScaleWire {
        model == .standard ? .standardGATT : .axonFraming
    }
}
