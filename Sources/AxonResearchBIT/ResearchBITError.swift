import AxonDevices
import AxonEventStore
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
    /// A remembered device was not recognised in a scan of `seconds`. `addressChanges`: it is not bonded and uses
    /// a private address, so it may be in range under a new address that nothing ties to it.
    case notHeard(name: String, address: String, seconds: Double, addressChanges: Bool)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .transport(let e): "\(e)"
        case .store(let e): "event store: \(e)"
        case .timedOut(let s): "nothing from the device for \(s) s; fetch again to resume"
        case .malformed(let e): "malformed notifications: \(e)"
        case .unknownDevice(let s): "no ResearchBIT device \(s) was stored by a scan; run a scan first"
        case .notHeard(let name, let address, let seconds, false):
            "\(name) was not heard at \(address) in \(seconds) s: out of range, switched off or connected elsewhere"
        case .notHeard(let name, let address, let seconds, true):
            "\(name) was not heard at \(address) in \(seconds) s. It uses a private address, which it changes from "
                + "time to time, and it is not bonded, so it cannot be recognised at a new address (nothing it "
                + "advertises identifies it). Bond it once while it has a known address (axon researchbit pair) and "
                + "BlueZ resolves every later address to its identity address; or scan again and fetch it as a new "
                + "device"
        }
    }
}
