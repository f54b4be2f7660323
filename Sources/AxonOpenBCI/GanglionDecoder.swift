import AxonStreams

/// Rebuilds the Ganglion's 4 channels at 200 Hz from its notifications (``GanglionPacket``): a raw packet sets the
/// reference, and each compressed packet gives two samples, each the previous one minus its delta. Frames are in µV
/// with a device counter modulo 200 from the packet id (packet n of a 100-packet cycle holds samples 2n − 2 and
/// 2n − 1; the raw packet is sample 199, the one before the cycle starts), so lost packets become gap records.
///
/// A lost compressed packet also loses its deltas: the samples after it are offset by them until the next raw
/// packet. The decoder counts lost packets; it cannot undo the offset.
///
/// Threading contract: one owner thread (the transport's delivery thread). `decode` allocates only the packet's
/// small arrays (`GanglionPacket` values); it takes no lock.
public final class GanglionDecoder {
    /// The device counter's modulus.
    public static let counterModulus: UInt64 = 200
    /// Notifications decoded.
    public private(set) var packets = 0
    /// Frames emitted.
    public private(set) var frames = 0
    /// Compressed packets missing by their ids.
    public private(set) var lostPackets = 0
    /// Compressed packets that came before any raw packet (no reference yet): dropped.
    public private(set) var packetsWithoutReference = 0
    /// The latest impedance per channel 1–4 and reference (index 4), as the board sent them.
    public private(set) var impedance: [Int?] = [nil, nil, nil, nil, nil]
    /// Impedance packets decoded.
    public private(set) var impedanceReadings = 0
    /// The latest accelerometer counts X, Y, Z (int8 each; one axis per packet).
    public private(set) var accelerometer: [Int8] = [0, 0, 0]

    private var last: [Int32]?
    private var lastID: UInt8?
    private var frame = [Double](repeating: 0, count: 4)

    /// A decoder waiting for its first raw packet.
    public init() {}

    /// Decodes one notification, handing each sample (µV, 4 channels) and its counter to `emit`.
    public func decode(_ bytes: [UInt8], emit: ([Double], UInt64) -> Void) throws(GanglionPacketError) {
        let packet = try GanglionPacket(bytes: bytes)
        packets += 1
        switch packet {
        case .raw(let counts):
            last = counts
            lastID = 0
            publish(counts, counter: Self.counterModulus - 1, emit: emit)
        case .compressed(let id, let deltas, let axis):
            if let axis { accelerometer[axis.axis] = axis.count }
            guard var sample = last else {
                packetsWithoutReference += 1
                return
            }
            if let previous = lastID { lostPackets += Self.packetsBetween(previous, id) }
            lastID = id
            let cycle = Int(id <= 100 ? id - 1 : id - 101)
            for (k, delta) in deltas.enumerated() {
                for channel in 0..<4 { sample[channel] &-= delta[channel] }
                publish(sample, counter: UInt64(2 * cycle + k), emit: emit)
            }
            last = sample
        case .impedance(let channel, let value):
            impedance[channel - 1] = value
            impedanceReadings += 1
        }
    }

    /// Decodes into a stream.
    public func decode(_ bytes: [UInt8], arrivalTime: Double, into writer: FrameWriter) throws(GanglionPacketError) {
        try decode(bytes) { values, counter in writer.write(values, counter: counter, arrivalTime: arrivalTime) }
    }

    private func publish(_ counts: [Int32], counter: UInt64, emit: ([Double], UInt64) -> Void) {
        for channel in 0..<4 { frame[channel] = Double(counts[channel]) * GanglionPacket.microvoltsPerCount }
        frames += 1
        emit(frame, counter)
    }

    /// Compressed packets skipped between `previous` and `id` (ids cycle 1…100, or 101…200; 0 is the raw packet).
    static func packetsBetween(_ previous: UInt8, _ id: UInt8) -> Int {
        func position(_ id: UInt8) -> Int { id == 0 ? 0 : Int(id <= 100 ? id : id - 100) }
        let step = (position(id) - position(previous) + 100) % 100
        return max(0, step - 1)
    }
}
