/// Where driving events get their position header from (the seed's message header: latitude, longitude, time).
///
/// Threading contract: implementations are `Sendable`; the gateway reads ``latestPosition`` from its event poller
/// thread when an event ends.
public protocol OBDPositionSource: Sendable {
    /// The most recent fix, or `nil` while there is none.
    var latestPosition: OBDPosition? { get }
}
