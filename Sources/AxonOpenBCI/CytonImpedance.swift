import AxonDevices
import AxonMemory
import AxonStreams

/// One channel's lead-off measurement (``CytonBoard/measureImpedance(channel:seconds:)``).
///
/// Threading: a value type; share freely.
public struct CytonImpedanceReading: Sendable, Hashable {
    /// The channel, 1…16.
    public var channel: Int
    /// σ of the 31.25 Hz drive component, µV.
    public var stddevMicrovolts: Double
    /// Frames the σ was taken over.
    public var frames: Int

    /// The GUI's impedance, Ω (``CytonLeadOff/impedanceOhms(stddevMicrovolts:)``).
    public var ohms: Double { CytonLeadOff.impedanceOhms(stddevMicrovolts: stddevMicrovolts) }

    /// The reading as the GUI shows it: kΩ and its band (``ElectrodeImpedance/cytonGrade(kiloohms:)``).
    public var electrode: ElectrodeImpedance {
        let kiloohms = ohms / 1000
        return ElectrodeImpedance(
            channel: String(channel), kiloohms: kiloohms, grade: ElectrodeImpedance.cytonGrade(kiloohms: kiloohms))
    }
}

extension CytonBoard {
    /// Measures `channel`'s impedance as the GUI's Cyton impedance widget does for an N input: the test current on
    /// its N input (`z C 0 1 Z`), `seconds` of stream (the first 0.1 s dropped while the channel settles), the
    /// current off (`z C 0 0 Z`). The board must be connected and not streaming.
    public func measureImpedance(channel: Int, seconds: Double) throws(CytonError) -> CytonImpedanceReading {
        try setLeadOff(channel: channel, p: false, n: true)
        var samples: [Double] = []
        let settle = Int((0.1 * sampleRate).rounded())
        let wanted = settle + Int((seconds * sampleRate).rounded())
        var seen = 0
        let decoder = makeDecoder()
        try startStreaming()
        let readBuffer = OwnedBuffer<UInt8>(repeating: 0, count: 1024)
        let deadline = HostClock.now() + seconds + max(2, replyTimeout)
        var failure: CytonError?
        readBuffer.withUnsafeMutableBufferPointer { bytes in
            let buffer = UnsafeMutableRawBufferPointer(bytes)
            while seen < wanted, HostClock.now() < deadline {
                let count: Int
                do throws(ByteLinkError) {
                    count = try port.read(into: buffer, deadline: HostClock.now() + 0.05)
                } catch .timeout {
                    continue
                } catch {
                    failure = .link(error)
                    break
                }
                decoder.consume(UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)) { values, _ in
                    if seen >= settle, seen < wanted { samples.append(values[channel - 1]) }
                    seen += 1
                }
            }
        }
        if let failure { throw failure }
        try stopStreamingAndDrain()
        try setLeadOff(channel: channel, p: false, n: false)
        guard let stddev = CytonLeadOff.componentStddev(samples, sampleRate: sampleRate) else {
            throw .noAnswer(command: "b", received: "\(samples.count) samples of channel \(channel)")
        }
        return CytonImpedanceReading(channel: channel, stddevMicrovolts: stddev, frames: samples.count)
    }
}
