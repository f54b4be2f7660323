import AxonEEG
import Foundation

/// `axon fleet results`: reads the results stream from its start and reports, per device, the spectra and zones
/// (indicators) received, the hops missing and duplicated, and the lag; optionally checks simulated devices
/// against the engine run offline on the same signal.
///
/// Missing and duplicated are counted on the engine's own counters (lane 0 of every spectrum and indicator row:
/// 0, 1, 2, … per device): a counter absent below the highest received is missing, one received twice is a
/// duplicate. Lag is a result's storage time minus the storage time of the raw batch it came from
/// (`Axon-Raw-Time`).
///
/// Threading: ``read(nats:device:checkSimulated:)`` blocks the caller while it reads.
public enum FleetResults {
    /// One device's results.
    public struct Device: Sendable, Codable, Hashable {
        /// The device.
        public var device: String
        /// Spectra received (distinct hops).
        public var spectra = 0
        /// Indicators received (distinct).
        public var zones = 0
        /// Counters of spectra missing below the highest received.
        public var missingSpectra: [Int] = []
        /// Counters of spectra received more than once.
        public var duplicateSpectra: [Int] = []
        /// Missing indicators' counters.
        public var missingZones: [Int] = []
        /// Indicators received more than once (counters).
        public var duplicateZones: [Int] = []
        /// Worst lag, seconds.
        public var maxLag = 0.0
        /// Median lag, seconds.
        public var medianLag = 0.0
        /// With a simulated check: spectra the offline engine makes.
        public var expectedSpectra: Int?
        /// With a simulated check: indicators the offline engine makes.
        public var expectedZones: Int?
        /// With a simulated check: rows whose values differ from the offline engine's (beyond 1e-9 relative), or
        /// that the offline engine does not make.
        public var mismatchedRows: Int?
        /// With a simulated check: which rows differ or are missing (`s<counter>` spectra, `z<counter>` zones).
        public var mismatchedCounters: [String]?
        /// With a simulated check: the largest relative difference of any value.
        public var maxRelativeDifference: Double?
        /// With a simulated check: the offline zones equal the received ones, in order.
        public var zonesMatch: Bool?

        /// Whether everything expected arrived once, with the offline values (when checked).
        public var complete: Bool {
            missingSpectra.isEmpty && duplicateSpectra.isEmpty && missingZones.isEmpty && duplicateZones.isEmpty
                && (expectedSpectra.map { $0 == spectra } ?? true) && (expectedZones.map { $0 == zones } ?? true)
                && (mismatchedRows.map { $0 == 0 } ?? true)
        }
    }

    /// The whole report.
    public struct Report: Sendable, Codable {
        /// Per device, by id.
        public var devices: [Device]
        /// Result messages read.
        public var messages: Int
        /// Devices with everything expected, once.
        public var completeDevices: Int
        /// Worst lag over all devices, seconds.
        public var maxLag: Double
    }

    struct Collected {
        var spectra: [Int: [Double]] = [:]
        var zones: [Int: [Double]] = [:]
        var spectrumCounts: [Int: Int] = [:]
        var zoneCounts: [Int: Int] = [:]
        var lags: [Double] = []
    }

    /// Reads every result stored now.
    ///
    /// - Parameters:
    ///   - device: only this device.
    ///   - checkSimulated: for `sim-NNNN` devices, also run the offline engine over `seconds` of the simulated
    ///     signal with these settings and compare.
    public static func read(
        nats: NATSConnection, device: String? = nil, checkSimulated: (seconds: Double, settings: FleetEngineSettings)? = nil
    ) throws -> Report {
        let last = try nats.streamState(FleetSubjects.resultsStream).lastSequence
        var collected: [String: Collected] = [:]
        var messages = 0
        if last > 0 {
            // JetStream 2.9 filters on one subject of the stream only: read all and keep the device's.
            let subscription = try nats.subscribeOrderedSync(
                stream: FleetSubjects.resultsStream, subject: "axon.>", startSequence: 1)
            defer { subscription.unsubscribe() }
            var idle = 0.0
            while idle < 5 {
                guard let message = try subscription.next(timeout: 0.5, headerKeys: ["Axon-Raw-Time"]) else {
                    idle += 0.5
                    continue
                }
                idle = 0
                if message.streamSequence >= last { idle = .infinity }
                let name = FleetSubjects.device(ofSubject: message.subject)
                if let device, device != name { continue }
                messages += 1
                let row = decodeRow(message.data)
                guard row.count >= 2 else { continue }
                let counter = Int(row[0])
                var entry = collected[name, default: Collected()]
                if message.subject.hasPrefix("axon.spectra.") {
                    entry.spectra[counter] = row
                    entry.spectrumCounts[counter, default: 0] += 1
                } else {
                    entry.zones[counter] = row
                    entry.zoneCounts[counter, default: 0] += 1
                }
                if let raw = message.headers["Axon-Raw-Time"].flatMap(Int64.init) {
                    entry.lags.append(Double(message.timestamp - raw) / 1e9)
                }
                collected[name] = entry
            }
        }
        var devices: [Device] = []
        for (name, entry) in collected.sorted(by: { $0.key < $1.key }) {
            var report = Device(device: name)
            report.spectra = entry.spectra.count
            report.zones = entry.zones.count
            let topSpectrum = entry.spectra.keys.max() ?? -1
            report.missingSpectra = (0..<(topSpectrum + 1)).filter { entry.spectra[$0] == nil }
            report.duplicateSpectra = entry.spectrumCounts.filter { $0.value > 1 }.map(\.key).sorted()
            let topZone = entry.zones.keys.max() ?? -1
            report.missingZones = (0..<(topZone + 1)).filter { entry.zones[$0] == nil }
            report.duplicateZones = entry.zoneCounts.filter { $0.value > 1 }.map(\.key).sorted()
            let lags = entry.lags.sorted()
            report.maxLag = lags.last ?? 0
            report.medianLag = lags.isEmpty ? 0 : lags[lags.count / 2]
            if let checkSimulated, let simulated = FleetSimulatedDevice(id: name) {
                let offline = try simulated.offlineResults(seconds: checkSimulated.seconds, settings: checkSimulated.settings)
                report.expectedSpectra = offline.spectra.count
                report.expectedZones = offline.zones.count
                var mismatched = 0
                var worst = 0.0
                var which: [String] = []
                for (kind, rows, received) in [("s", offline.spectra, entry.spectra), ("z", offline.zones, entry.zones)] {
                    for expected in rows {
                        guard let got = received[Int(expected[0])], got.count == expected.count else {
                            mismatched += 1
                            which.append("\(kind)\(Int(expected[0]))")
                            continue
                        }
                        let difference = relativeDifference(expected, got)
                        worst = max(worst, difference)
                        if difference > 1e-9 {
                            mismatched += 1
                            which.append("\(kind)\(Int(expected[0]))")
                        }
                    }
                    mismatched += max(0, received.count - rows.count)
                }
                report.mismatchedRows = mismatched
                report.mismatchedCounters = which
                report.maxRelativeDifference = worst
                let zoneLane = IndicatorLayout.Header.zone.rawValue
                report.zonesMatch =
                    offline.zones.map { $0[zoneLane] } == entry.zones.keys.sorted().map { entry.zones[$0]![zoneLane] }
            }
            devices.append(report)
        }
        return Report(
            devices: devices, messages: messages, completeDevices: devices.filter(\.complete).count,
            maxLag: devices.map(\.maxLag).max() ?? 0)
    }

    static func decodeRow(_ data: [UInt8]) -> [Double] { data.count % 8 == 0 ? Float64LE.decode(data) : [] }

    /// The largest |a − b| / max(1, |a|) over two rows (NaN equal to NaN; NaN against a number is 1).
    static func relativeDifference(_ a: [Double], _ b: [Double]) -> Double {
        var worst = 0.0
        for (x, y) in zip(a, b) {
            if x.isNaN || y.isNaN {
                if x.isNaN != y.isNaN { worst = max(worst, 1) }
                continue
            }
            worst = max(worst, abs(x - y) / max(1, abs(x)))
        }
        return worst
    }
}
