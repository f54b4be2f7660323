import AxonDevices
import AxonRecording

/// Why a ResearchBIT fetch failed. What was stored before the failure stays stored; the device keeps the rest.
///
/// Threading: a value type; share freely.
public enum ResearchBITError: Error, Sendable, Hashable, CustomStringConvertible {
    case transport(TransportError)
    case store(EventStoreError)
    /// Nothing arrived for `seconds` (the device went out of range mid-transfer, say).
    case timedOut(seconds: Double)
    /// Notifications kept arriving malformed.
    case malformed(ResearchBITDecodingError)
    /// No device with this address or name was stored by an earlier scan.
    case unknownDevice(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .transport(let e): "\(e)"
        case .store(let e): "event store: \(e)"
        case .timedOut(let s): "nothing from the device for \(s) s; fetch again to resume"
        case .malformed(let e): "malformed notifications: \(e)"
        case .unknownDevice(let s): "no ResearchBIT device \(s) was stored by a scan; run a scan first"
        }
    }
}
