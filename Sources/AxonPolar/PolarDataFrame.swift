/// One notification of the PMD data characteristic, decoded (Polar's SDK, `PmdDataFrame`, `EcgData`, `AccData`):
///
/// | bytes | what |
/// |---|---|
/// | 0 | measurement type (``PolarMeasurementType``) |
/// | 1–8 | timestamp, uint64 LE: nanoseconds since 2000-01-01T00:00:00Z (the strap's clock) of the frame's last sample |
/// | 9 | frame type; bit 7 set = compressed (delta) frame |
/// | 10… | samples |
///
/// Decoded here: ECG frame type 0 (int24 LE µV per sample: what the H10 sends), ACC frame types 0, 1, 2 (int8, int16,
/// int24 LE x, y, z in mG; the H10 sends type 1) and the compressed ACC frame type 0x81 (16-bit reference sample, then
/// delta blocks: ``PolarDeltaFrame``), whose values are multiplied by the start response's factor when it is not 1.
///
///     let frame = try PolarDataFrame(bytes: notification)
///     // frame.measurement == .ecg, frame.sampleCount == 73, frame.values[0] == first sample in µV
///
/// Threading: a value type; share freely. Decoding is O(n) in the frame's length and allocates the value array.
public struct PolarDataFrame: Sendable, Hashable {
    /// Bytes before the samples.
    public static let headerSize = 10

    /// The measurement.
    public var measurement: PolarMeasurementType
    /// The strap's time of the last sample, in nanoseconds since 2000-01-01T00:00:00Z.
    public var timestamp: UInt64
    /// The frame type byte as received (bit 7: compressed).
    public var frameType: UInt8
    /// Values per sample: 1 for ECG, 3 (x, y, z) for ACC.
    public var channelCount: Int
    /// The samples' values, sample-major (µV for ECG, mG for ACC).
    public var values: [Int]

    /// Samples in the frame.
    public var sampleCount: Int { values.count / channelCount }
    /// Whether the frame was compressed.
    public var isCompressed: Bool { frameType & 0x80 != 0 }

    /// Decodes a notification. `factor` scales a compressed ACC frame's values (the start response's factor, 1 when
    /// the strap sent none).
    ///
    /// - Throws: ``PolarFrameError`` for a frame shorter than its header, a measurement or frame type not decoded
    ///   here, a partial sample, a frame without samples or a malformed delta block.
    public init(bytes: [UInt8], factor: Double = 1) throws(PolarFrameError) {
        guard bytes.count >= Self.headerSize else { throw .tooShort(bytes.count) }
        guard let measurement = PolarMeasurementType(rawValue: bytes[0] & 0x3F) else {
            throw .unsupportedMeasurement(bytes[0])
        }
        self.measurement = measurement
        var stamp: UInt64 = 0
        for k in 0..<8 { stamp |= UInt64(bytes[1 + k]) << (8 * UInt64(k)) }
        timestamp = stamp
        frameType = bytes[9]
        let body = bytes[Self.headerSize...]
        switch (measurement, frameType) {
        case (.ecg, 0x00):
            channelCount = 1
            values = try Self.raw(body, channels: 1, width: 3)
        case (.accelerometer, 0x00), (.accelerometer, 0x01), (.accelerometer, 0x02):
            channelCount = 3
            values = try Self.raw(body, channels: 3, width: Int(frameType) + 1)
        case (.accelerometer, 0x81):
            channelCount = 3
            let decoded = try PolarDeltaFrame.decode(Array(body), channels: 3, resolution: 16)
            values = factor == 1 ? decoded : decoded.map { Int((Double($0) * factor).rounded(.towardZero)) }
        default:
            throw .unsupportedFrameType(measurement, frameType)
        }
    }

    /// The strap's time of sample `index` (0-based) in nanoseconds since 2000, counting back from the frame's
    /// timestamp at `rate` samples per second.
    public func sampleTime(_ index: Int, rate: Double) -> UInt64 {
        let back = Double(sampleCount - 1 - index) * 1e9 / rate
        return timestamp &- UInt64(max(0, back.rounded()))
    }

    /// Little-endian signed integers of `width` bytes, `channels` per sample.
    private static func raw(_ body: ArraySlice<UInt8>, channels: Int, width: Int) throws(PolarFrameError) -> [Int] {
        let size = channels * width
        guard !body.isEmpty else { throw .noSamples }
        guard body.count % size == 0 else { throw .partialSample(bytes: body.count, sampleSize: size) }
        var out: [Int] = []
        out.reserveCapacity(body.count / width)
        var index = body.startIndex
        while index < body.endIndex {
            var value = 0
            for k in 0..<width { value |= Int(body[index + k]) << (8 * k) }
            let bits = 8 * width
            if value & (1 << (bits - 1)) != 0 { value -= 1 << bits }
            out.append(value)
            index += width
        }
        return out
    }
}

/// Polar's compressed (delta) sample layout (Polar's SDK, `BlePMDClient.parseDeltaFramesAll`): a reference sample
/// (`channels` signed values of `resolution` bits, each in whole little-endian bytes), then blocks of
/// `[delta bit width, sample count, deltas…]`, the deltas packed least-significant bit first, `channels` per sample,
/// each a signed `width`-bit number added to the previous sample.
///
/// Threading: a namespace of pure functions; any thread.
public enum PolarDeltaFrame {
    /// Decodes a compressed frame's body into sample-major values (the reference sample first).
    ///
    /// - Throws: ``PolarFrameError/malformedDeltaFrame(_:)`` when the reference or a block runs past the end, or a
    ///   block's bit width is 0 or above 32.
    public static func decode(_ bytes: [UInt8], channels: Int, resolution: Int) throws(PolarFrameError) -> [Int] {
        let referenceWidth = (resolution + 7) / 8
        guard bytes.count >= channels * referenceWidth else {
            throw .malformedDeltaFrame("\(bytes.count) bytes hold no \(channels)-channel reference sample")
        }
        var previous: [Int] = []
        var offset = 0
        for _ in 0..<channels {
            var value = 0
            for k in 0..<referenceWidth { value |= Int(bytes[offset + k]) << (8 * k) }
            if value & (1 << (resolution - 1)) != 0 { value -= 1 << resolution }
            previous.append(value)
            offset += referenceWidth
        }
        var out = previous
        while offset < bytes.count {
            guard offset + 2 <= bytes.count else { throw .malformedDeltaFrame("a block header cut at byte \(offset)") }
            let width = Int(bytes[offset])
            let count = Int(bytes[offset + 1])
            offset += 2
            guard (1...32).contains(width) else { throw .malformedDeltaFrame("a delta width of \(width) bits") }
            let bitCount = width * count * channels
            let length = (bitCount + 7) / 8
            guard offset + length <= bytes.count else {
                throw .malformedDeltaFrame(
                    "a block of \(count) samples needs \(length) bytes, \(bytes.count - offset) left")
            }
            var bit = offset * 8
            for _ in 0..<count {
                for channel in 0..<channels {
                    var delta = 0
                    for k in 0..<width where bytes[(bit + k) >> 3] & (1 << UInt8((bit + k) & 7)) != 0 {
                        delta |= 1 << k
                    }
                    if delta & (1 << (width - 1)) != 0 { delta -= 1 << width }
                    bit += width
                    previous[channel] += delta
                }
                out += previous
            }
            offset += length
        }
        return out
    }
}
