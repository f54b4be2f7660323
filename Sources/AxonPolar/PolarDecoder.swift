import AxonStreams

/// Turns PMD data notifications into ECG frames and accelerometer samples, with sample indices from the strap's
/// clock: each frame's timestamp (its last sample, in nanoseconds) says how many samples passed since the first frame
/// of that measurement, so a lost notification — PMD frames carry no packet counter — is a jump of its sample count.
/// ECG frames are written with that index as device counter and the sample's strap time (seconds since 2000) as
/// device time; a malformed frame is counted and rejected whole, never written in part.
///
///     let decoder = PolarDecoder()
///     try decoder.decode(value, arrivalTime: now, into: writer) { acc in … }
///
/// Threading contract: one owner thread (the transport's delivery thread, the stream's producer).
public final class PolarDecoder {
    /// The ECG rate of an H10: 130 Hz.
    public static let ecgRate = 130.0
    /// What the decoder has seen.
    public private(set) var statistics = PolarDecoderStatistics()
    /// The accelerometer's rate, for its sample indices (the started setting).
    public var accelerometerRate: Double
    /// The factor of compressed ACC frames (from the start response; 1 when none was sent).
    public var accelerometerFactor: Double = 1

    private var ecgClock = SampleClock()
    private var accClock = SampleClock()
    private var frame: [Double] = [0]

    /// A decoder whose accelerometer runs at `accelerometerRate`.
    public init(accelerometerRate: Double = 200) { self.accelerometerRate = accelerometerRate }

    /// Decodes one data notification: ECG frames go to `writer`, an accelerometer frame to `accelerometer` (its
    /// values in mG, x y z per sample, each sample's strap time in seconds and the first sample's index).
    ///
    /// - Throws: ``PolarFrameError`` for a frame that cannot be decoded (counted in ``statistics``; nothing written).
    public func decode(
        _ value: [UInt8], arrivalTime: Double, into writer: FrameWriter,
        accelerometer: (_ frame: PolarDataFrame, _ deviceTimes: [Double], _ firstIndex: Int64) -> Void
    ) throws(PolarFrameError) {
        let decoded: PolarDataFrame
        do { decoded = try PolarDataFrame(bytes: value, factor: accelerometerFactor) } catch {
            statistics.rejected += 1
            statistics.lastRejection = error
            throw error
        }
        let n = decoded.sampleCount
        switch decoded.measurement {
        case .ecg:
            let last = ecgClock.index(ofLast: decoded.timestamp, count: n, rate: Self.ecgRate)
            if let expected = ecgClock.expected, last - Int64(n) + 1 > expected {
                statistics.missingECGSamples += Int(last - Int64(n) + 1 - expected)
            }
            ecgClock.expected = last + 1
            let lastTime = Double(decoded.timestamp) / 1e9
            for i in 0..<n {
                frame[0] = Double(decoded.values[i])
                let back = Double(n - 1 - i)
                writer.write(
                    frame, deviceTime: lastTime - back / Self.ecgRate, counter: UInt64(last - Int64(n - 1 - i)),
                    arrivalTime: arrivalTime)
            }
            statistics.ecgFrames += 1
            statistics.ecgSamples += n
        case .accelerometer:
            let last = accClock.index(ofLast: decoded.timestamp, count: n, rate: accelerometerRate)
            accClock.expected = last + 1
            let lastTime = Double(decoded.timestamp) / 1e9
            let times = (0..<n).map { lastTime - Double(n - 1 - $0) / accelerometerRate }
            statistics.accelerometerFrames += 1
            statistics.accelerometerSamples += n
            accelerometer(decoded, times, last - Int64(n) + 1)
        default:
            statistics.rejected += 1
            statistics.lastRejection = .unsupportedMeasurement(decoded.measurement.rawValue)
            throw .unsupportedMeasurement(decoded.measurement.rawValue)
        }
    }
}

/// Sample indices from a measurement's frame timestamps: the first frame fixes the origin; later frames count samples
/// at the nominal rate from it. A timestamp before the origin (the strap's clock was reset) starts a new origin that
/// continues the indices without a jump.
struct SampleClock {
    private var originStamp: UInt64?
    private var originIndex: Int64 = 0
    /// The index the next frame's first sample should have when nothing is lost.
    var expected: Int64?

    mutating func index(ofLast stamp: UInt64, count: Int, rate: Double) -> Int64 {
        guard let origin = originStamp, stamp >= origin else {
            originStamp = stamp
            originIndex = (expected ?? 0) + Int64(count) - 1
            return originIndex
        }
        return originIndex + Int64((Double(stamp - origin) * rate / 1e9).rounded())
    }
}

/// What a ``PolarDecoder`` has seen.
///
/// Threading: a value type; share freely.
public struct PolarDecoderStatistics: Sendable, Hashable {
    /// ECG frames decoded.
    public var ecgFrames = 0
    /// ECG samples written.
    public var ecgSamples = 0
    /// ECG samples the strap's clock counted that no frame brought (lost notifications, outages).
    public var missingECGSamples = 0
    /// Accelerometer frames decoded.
    public var accelerometerFrames = 0
    /// Accelerometer samples decoded.
    public var accelerometerSamples = 0
    /// Frames rejected (malformed, or of a type not decoded).
    public var rejected = 0
    /// Why the last frame was rejected.
    public var lastRejection: PolarFrameError?

    /// Empty statistics.
    public init() {}
}
