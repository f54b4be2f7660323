import AxonDevices
import AxonStreams
import Foundation

/// Decodes what a scale sends, on the transport's delivery thread: Axon framing on the response characteristic,
/// Weight Measurement and Body Composition Measurement indications from a standard scale. Live weights go to the
/// session's event stream; everything goes to the inbox the command in progress reads.
///
/// A standard scale's successful weight is written to the record store (when the session has one) before it is
/// reported: one SQLite transaction on this thread, milliseconds, for a value that arrives at most every few
/// seconds.
final class ScaleReceiver: TransportReceiver, @unchecked Sendable {
    // Sendable invariant: `assembler` and `lastComposition` are touched only on the transport's delivery thread
    // (one call at a time); everything else is immutable or Sendable.
    private let inbox: ScaleInbox
    private let events: AsyncStream<ScaleEvent>.Continuation
    private let recordStore: ScaleRecordStore?
    private var assembler = BodyCompositionAssembler()
    private var lastComposition: BodyComposition?

    init(inbox: ScaleInbox, events: AsyncStream<ScaleEvent>.Continuation, recordStore: ScaleRecordStore?) {
        self.inbox = inbox
        self.events = events
        self.recordStore = recordStore
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        do throws(ScaleError) {
            switch characteristic.characteristic {
            case ScaleGATT.weightMeasurement.characteristic:
                handle(try WeightMeasurement(decoding: value), arrivalTime: arrivalTime)
            case ScaleGATT.bodyCompositionMeasurement.characteristic:
                if let measurement = try assembler.feed(value) {
                    let composition = measurement.bodyComposition()
                    lastComposition = composition
                    events.yield(
                        .bodyComposition(
                            EventSample(
                                payload: composition, arrivalTime: arrivalTime,
                                deviceTime: measurement.timestamp?.unixTime.map(Double.init))))
                    inbox.push(.composition(measurement))
                }
            default:
                let response = try ScaleResponse(decoding: value)
                publishLive(response, arrivalTime: arrivalTime)
                inbox.push(.response(response))
            }
        } catch {
            events.yield(.error(error))
        }
    }

    func transport(didChange event: LinkEvent) {
        if case .linkLost = event { assembler.reset() }
        events.yield(.link(event))
        inbox.push(.link(event))
    }

    private func publishLive(_ response: ScaleResponse, arrivalTime: Double) {
        switch response {
        case .unstableWeight(let kg): events.yield(.unstableWeight(EventSample(payload: kg, arrivalTime: arrivalTime)))
        case .stableWeight(let kg): events.yield(.stableWeight(EventSample(payload: kg, arrivalTime: arrivalTime)))
        case .impedanceWeight(let kg):
            events.yield(.impedanceWeight(EventSample(payload: kg, arrivalTime: arrivalTime)))
        case .bodyComposition(let c): events.yield(.bodyComposition(EventSample(payload: c, arrivalTime: arrivalTime)))
        default: break
        }
    }

    private func handle(_ measurement: WeightMeasurement, arrivalTime: Double) {
        guard let kg = measurement.kilograms else {
            events.yield(.error(.measurementUnsuccessful))
            inbox.push(.weight(measurement))
            return
        }
        let deviceTime = measurement.timestamp?.unixTime
        if let recordStore {
            let record = ScaleRecord(time: deviceTime ?? Int(Date().timeIntervalSince1970), weightKg: kg)
            do throws(ScaleError) {
                events.yield(.stored(record, try recordStore.store(record)))
            } catch {
                events.yield(.error(error))
            }
        }
        events.yield(
            .stableWeight(EventSample(payload: kg, arrivalTime: arrivalTime, deviceTime: deviceTime.map(Double.init))))
        inbox.push(.weight(measurement))
    }
}
