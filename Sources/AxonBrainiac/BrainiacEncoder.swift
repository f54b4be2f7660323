/// Builds valid Brainiac notifications (``BrainiacPacketLayout``): the exact inverse of ``BrainiacDecoder``.
///
/// The simulator uses the buffer forms (allocation-free); tests and tools use the array forms. EEG values are
/// rounded to the nearest 0.05 µV count and saturate at ±419 430.35 µV like the headset's ADC, so
/// `decode(encode(x))` is within 0.025 µV of `x` inside the range, and exact for multiples of 0.05 µV.
///
///     let encoder = BrainiacEncoder()
///     let header = BrainiacNotificationHeader(
///         hardwareOrderNumber: 7, counter: 70, timeMilliseconds: 1_700_000_000_000)
///     let bytes = try encoder.encodeEEG(header, values: [10, -20.5, 3.25, 0])   // one sample, 30 bytes
///
/// Threading: a stateless value; use from any thread.
public struct BrainiacEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Writes an EEG notification of `values.count / 4` samples (T3, O1, T4, O2 per sample) into `buffer`.
    ///
    /// - Returns: the notification's length, `18 + 12 × samples`.
    /// - Throws: ``BrainiacEncoderError`` for a value count that is not 4 × (1…10), a non-finite value, or a
    ///   buffer too small; nothing useful is in `buffer` then.
    /// - Complexity: O(values). Allocation-free.
    public func encodeEEG(
        _ header: BrainiacNotificationHeader, values: UnsafeBufferPointer<Double>,
        into buffer: UnsafeMutableRawBufferPointer
    ) throws(BrainiacEncoderError) -> Int {
        typealias Layout = BrainiacPacketLayout
        let sampleCount = values.count / Layout.channelCount
        guard values.count % Layout.channelCount == 0, sampleCount >= 1,
            sampleCount <= Layout.maximumSamplesPerNotification
        else { throw .invalidValueCount(values.count) }
        let length = Layout.eegSize(sampleCount: sampleCount)
        guard buffer.count >= length else { throw .bufferTooSmall(required: length, available: buffer.count) }
        writeHeader(header, type: .eeg, body: UInt8(sampleCount), into: buffer)
        var offset = Layout.firstValueOffset
        for (index, value) in values.enumerated() {
            guard let count = Layout.count(fromMicrovolts: value) else { throw .nonFiniteValue(index: index) }
            let raw = UInt32(bitPattern: count)
            buffer[offset] = UInt8(truncatingIfNeeded: raw)
            buffer[offset + 1] = UInt8(truncatingIfNeeded: raw >> 8)
            buffer[offset + 2] = UInt8(truncatingIfNeeded: raw >> 16)
            offset += Layout.bytesPerValue
        }
        Layout.seal(buffer, length: length)
        return length
    }

    /// Writes a battery notification into `buffer`.
    ///
    /// - Returns: the notification's length, 18.
    /// - Throws: ``BrainiacEncoderError/batteryOutOfRange(_:)`` outside 0…100, or a buffer too small.
    public func encodeBattery(
        _ header: BrainiacNotificationHeader, level: Int, into buffer: UnsafeMutableRawBufferPointer
    ) throws(BrainiacEncoderError) -> Int {
        guard level >= 0, level <= BrainiacPacketLayout.maximumBatteryLevel else { throw .batteryOutOfRange(level) }
        return try encodeEvent(header, type: .battery, body: UInt8(level), into: buffer)
    }

    /// Writes a status notification into `buffer`.
    ///
    /// - Returns: the notification's length, 18.
    /// - Throws: ``BrainiacEncoderError/bufferTooSmall(required:available:)``.
    public func encodeStatus(
        _ header: BrainiacNotificationHeader, status: BrainiacStatus, into buffer: UnsafeMutableRawBufferPointer
    ) throws(BrainiacEncoderError) -> Int {
        try encodeEvent(header, type: .status, body: status.rawValue, into: buffer)
    }

    private func encodeEvent(
        _ header: BrainiacNotificationHeader, type: BrainiacPacketType, body: UInt8,
        into buffer: UnsafeMutableRawBufferPointer
    ) throws(BrainiacEncoderError) -> Int {
        let length = BrainiacPacketLayout.eventSize
        guard buffer.count >= length else { throw .bufferTooSmall(required: length, available: buffer.count) }
        writeHeader(header, type: type, body: body, into: buffer)
        BrainiacPacketLayout.seal(buffer, length: length)
        return length
    }

    private func writeHeader(
        _ header: BrainiacNotificationHeader, type: BrainiacPacketType, body: UInt8,
        into buffer: UnsafeMutableRawBufferPointer
    ) {
        typealias Layout = BrainiacPacketLayout
        buffer[Layout.versionOffset] = Layout.version
        buffer[Layout.typeOffset] = type.rawValue
        buffer.storeBytes(of: header.hardwareOrderNumber.littleEndian, toByteOffset: Layout.orderNumberOffset,
                          as: UInt16.self)
        buffer.storeBytes(of: header.counter.littleEndian, toByteOffset: Layout.counterOffset, as: UInt32.self)
        buffer.storeBytes(of: header.timeMilliseconds.littleEndian, toByteOffset: Layout.timeOffset, as: UInt64.self)
        buffer[Layout.bodyOffset] = body
    }
}
