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
    private var serial: HS3SerialReading?
    private let linkObserver: (@Sendable (LinkEvent) -> Void)?

    init(
        inbox: ScaleInbox, events: AsyncStream<ScaleEvent>.Continuation, recordStore: ScaleRecordStore?,
        serial: HS3SerialReading? = nil, linkObserver: (@Sendable (LinkEvent) -> Void)? = nil
    ) {
        self.inbox = inbox
        self.events = events
        self.recordStore = recordStore
        self.serial = serial
        self.linkObserver = linkObserver
    }

    func transport(didReceive value: [UInt8], from characteristic: GATTCharacteristicID, arrivalTime: Double) {
        if serial != nil, characteristic == ByteStreamTransport.stream {
            return receiveSerial(value, arrivalTime: arrivalTime)
        }
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
        if case .linkLost = event {
            assembler.reset()
            serial?.decoder.reset()
        }
        events.yield(.link(event))
        inbox.push(.link(event))
        linkObserver?(event)
    }

    /// An HS3's serial bytes: each new weight (not a repeat) is stored, then published and handed to a waiting
    /// ``ScaleSession/measure(unit:seconds:)``. Its time is the host's wall clock: the HS3's time packet is not
    /// published.
    private func receiveSerial(_ value: [UInt8], arrivalTime: Double) {
        guard var reading = serial else { return }
        var weights: [Int] = []
        reading.decoder.feed(value) { packet in
            if case .weight(let tenths, _) = packet { weights.append(tenths) }
        }
        // The counters are up to date before anything is published, so a reader woken by an event sees them.
        let now = Date().timeIntervalSince1970
        let taken = weights.filter { tenths in
            let isNew = reading.rule.take(tenthsOfKg: tenths, at: now)
            reading.decoder.count(weightIsNew: isNew)
            return isNew
        }
        let statistics = reading.decoder.statistics
        reading.statistics.withLock { $0 = statistics }
        serial = reading
        for tenths in taken {
            let record = ScaleRecord(time: Int(now), weightKg: Double(tenths) / 10)
            if let recordStore {
                do throws(ScaleError) {
                    events.yield(.stored(record, try recordStore.storeLive(record)))
                } catch {
                    events.yield(.error(error))
                }
            }
            events.yield(.stableWeight(EventSample(payload: record.weightKg, arrivalTime: arrivalTime)))
            inbox.push(.serialWeight(record))
        }
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

/// What the receiver keeps for an HS3's serial stream: the packet decoder, the repeat rule and where the session
/// reads the counters.
struct HS3SerialReading: Sendable {
    var decoder = HS3SerialDecoder()
    var rule: HS3RepeatRule
    let statistics: ThreadLocked<HS3SerialStatistics>
}
