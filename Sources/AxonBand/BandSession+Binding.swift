import AxonDevices

extension BandSession {
    /// Whether the band is bound — paired with this host — through the transport (the seed's `isBinded`): BlueZ's
    /// `Paired` property over Bluetooth. `nil` when the transport cannot pair (``AxonDevices/DevicePairing``).
    public func isBound() async -> Bool? {
        guard let pairing = transport as? any DevicePairing else { return nil }
        return await pairing.isPaired()
    }

    /// Binds the band: pairs with it through the transport (`Device1.Pair` over BlueZ). A bound band stays bound.
    ///
    /// - Throws: ``BandError/pairingUnavailable(transport:)``; ``BandError/transport(_:)`` when the band cannot be
    ///   reached or refuses.
    public func bind() async throws(BandError) {
        guard let pairing = transport as? any DevicePairing else {
            throw .pairingUnavailable(transport: transport.deviceDescription)
        }
        do { try await pairing.pair() } catch { throw .transport(error) }
    }

    /// Forgets the band (the seed's `debind`): closes the session, then drops the pairing (`Adapter1.RemoveDevice`
    /// over BlueZ: disconnected, keys forgotten, to be found and bound again). Records still on the band stay there.
    ///
    /// - Throws: ``BandError/pairingUnavailable(transport:)`` (the session is left open then);
    ///   ``BandError/transport(_:)``.
    public func debind() async throws(BandError) {
        guard let pairing = transport as? any DevicePairing else {
            throw .pairingUnavailable(transport: transport.deviceDescription)
        }
        await close()
        do { try await pairing.unpair() } catch { throw .transport(error) }
    }
}
