import AxonMemory
import AxonStreams
import Foundation

/// One of `axon fleet simulate`'s headsets: 4 channels (T3, O1, T4, O2) at 250 Hz with its own rhythm (alpha
/// between 8 and 12 Hz, theta and beta tones), noise seeded by its index, packets of 5 samples, and on every
/// fourth device about 1 % of packets lost (short losses, bridged by the engine). Deterministic: the same index
/// and duration give the same frames, so a fleet run can be checked against the engine run offline
/// (``offlineResults(seconds:settings:)``).
///
/// Threading: a plain value, `Sendable`.
public struct FleetSimulatedDevice: Sendable, Hashable {
    /// Samples per second.
    public static let rate = 250.0
    /// Samples per packet.
    public static let packetSamples = 5
    /// Device time of sample 0 (Unix seconds): fixed so results do not depend on when the run happened.
    public static let startTime = 1_767_225_600.0

    /// The device's index in the fleet.
    public let index: Int
    /// `sim-0001`, …
    public var id: String { String(format: "sim-%04d", index) }
    /// Whether it loses packets.
    public var losesPackets: Bool { index % 4 == 3 }

    /// Creates device `index` (≥ 0).
    public init(index: Int) {
        precondition(index >= 0)
        self.index = index
    }

    /// The simulated device of a `sim-NNNN` id, or `nil` for any other id.
    public init?(id: String) {
        guard id.hasPrefix("sim-"), let index = Int(id.dropFirst(4)), index >= 0, String(format: "sim-%04d", index) == id
        else { return nil }
        self.index = index
    }

    /// Its stream.
    public var descriptor: StreamDescriptor {
        StreamDescriptor(
            name: "Simulated headset \(id)", contentType: .eeg,
            channels: ["T3", "O1", "T4", "O2"].map { ChannelInfo(label: $0, unit: "µV") }, nominalRate: Self.rate,
            format: .float32, sourceID: id, metadata: ["simulated": "fleet"])
    }

    /// Whether packet `packet` is lost.
    public func isLost(packet: Int) -> Bool {
        guard losesPackets, packet > 0 else { return false }
        var mix = SplitMix64(seed: UInt64(index) &* 0x1_0000_0001 &+ UInt64(packet))
        return mix.next() % 100 == 0
    }

    /// Walks a device's frames in order, one at a time (a simulator paces it; the offline check runs it through).
    ///
    /// Threading: a value owned by one thread.
    public struct Cursor {
        /// The device.
        public let device: FleetSimulatedDevice
        /// Samples in the run.
        public let total: Int
        /// The next sample index.
        public private(set) var sample = 0
        private var random: SplitMix64
        private let alpha: Double
        private let theta: Double
        private let beta: Double

        /// A cursor over the first `seconds` of `device`.
        public init(device: FleetSimulatedDevice, seconds: Double) {
            self.device = device
            total = Int((seconds * FleetSimulatedDevice.rate).rounded())
            random = SplitMix64(seed: UInt64(device.index) + 1)
            alpha = 8 + Double(device.index % 9) * 0.5
            theta = 4 + Double(device.index % 5) * 0.5
            beta = 15 + Double(device.index % 7)
        }

        /// The next delivered frame into `values` (4 doubles): its sample index, its device time and the samples
        /// lost just before it; `nil` at the end.
        public mutating func next(into values: UnsafeMutableBufferPointer<Double>) -> (sample: Int, time: Double, lostBefore: Int)? {
            var lost = 0
            while sample < total {
                let index = sample
                sample += 1
                let t = Double(index) / FleetSimulatedDevice.rate
                // Noise is drawn for every sample, lost or not, so a loss changes nothing after it.
                for channel in 0..<4 {
                    let weight = 1 + 0.25 * Double(channel)
                    values[channel] = 20 * weight * sin(2 * .pi * alpha * t)
                        + 8 * sin(2 * .pi * theta * t + Double(channel)) + 4 * sin(2 * .pi * beta * t)
                        + 2 * random.gaussian()
                }
                if device.isLost(packet: index / FleetSimulatedDevice.packetSamples) {
                    lost += 1
                    continue
                }
                return (index, FleetSimulatedDevice.startTime + t, lost)
            }
            return nil
        }
    }

    /// What the engine makes of the first `seconds` run offline, on one thread, through the same stage a worker
    /// runs: spectrum rows and indicator rows in order.
    public func offlineResults(seconds: Double, settings: FleetEngineSettings) throws -> (spectra: [[Double]], zones: [[Double]]) {
        let engine = try FleetDeviceEngine(descriptor: descriptor, settings: settings)
        var spectra: [[Double]] = []
        var zones: [[Double]] = []
        var rows: [Double] = []
        var gaps: [FrameBatch.Gap] = []
        func flush() {
            engine.feed(rows: rows, gaps: gaps) { kind, row in
                if kind == .spectrum { spectra.append(Array(row)) } else { zones.append(Array(row)) }
            }
            rows.removeAll(keepingCapacity: true)
            gaps.removeAll()
        }
        var cursor = Cursor(device: self, seconds: seconds)
        let frameValues = OwnedBuffer<Double>(repeating: 0, count: 4)
        frameValues.withUnsafeMutableBufferPointer { values in
            while let frame = cursor.next(into: values) {
                if frame.lostBefore > 0 {
                    gaps.append(.init(beforeFrame: rows.count / 6, missing: frame.lostBefore, cause: .deviceCounter))
                }
                rows.append(frame.time)
                rows.append(Double(frame.sample))
                rows.append(contentsOf: values)
                if rows.count / 6 == 1000 { flush() }
            }
        }
        flush()
        return (spectra, zones)
    }
}
