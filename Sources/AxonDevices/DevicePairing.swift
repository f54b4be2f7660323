/// Pairing with the device a transport reaches, for adapters whose vendor SDK has a "bound" state (the Iwown
/// bands' `isBinded` and `debind`). The adapter asks its transport whether it conforms; BlueZ's transport does
/// (`Device1.Pair`, the `Paired` property, `Adapter1.RemoveDevice`), and so do the simulators that model it.
///
/// Threading contract: `Sendable`; methods from any task.
public protocol DevicePairing: Sendable {
    /// Whether the device is paired with this host now; `false` when the stack does not know it.
    func isPaired() async -> Bool
    /// Pairs with the device (connecting first when needed); a device paired already stays paired.
    ///
    /// - Throws: ``TransportError`` when the device cannot be found or refuses.
    func pair() async throws(TransportError)
    /// Forgets the device: disconnects it and drops its pairing, so it must be found and paired again.
    ///
    /// - Throws: ``TransportError`` when the stack refuses.
    func unpair() async throws(TransportError)
}
