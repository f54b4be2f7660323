extension BrainiacDecoder {
    /// Validates one notification completely and returns what it says, without writing or counting anything.
    ///
    /// Checks, in order: not empty, version 1, at least 18 bytes, a known type, an EEG sample count of 1…10,
    /// the exact length, the CRC-8, the battery range or status code (``BrainiacPacketLayout``).
    ///
    /// Threading: pure; any thread. Allocation-free.
    /// - Complexity: O(bytes).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(BrainiacPacketError) -> BrainiacNotification {
        typealias Layout = BrainiacPacketLayout
        guard bytes.count >= 1 else { throw .tooShort(length: 0, minimum: Layout.minimumSize) }
        let version = bytes[Layout.versionOffset]
        guard version == Layout.version else { throw .unsupportedVersion(version) }
        guard bytes.count >= Layout.minimumSize else {
            throw .tooShort(length: bytes.count, minimum: Layout.minimumSize)
        }
        let typeByte = bytes[Layout.typeOffset]
        guard let type = BrainiacPacketType(rawValue: typeByte) else { throw .unknownType(typeByte) }
        let body = bytes[Layout.bodyOffset]
        let expected: Int
        switch type {
        case .eeg:
            let sampleCount = Int(body)
            guard sampleCount >= 1, sampleCount <= Layout.maximumSamplesPerNotification else {
                throw .invalidSampleCount(sampleCount)
            }
            expected = Layout.eegSize(sampleCount: sampleCount)
        case .battery, .status:
            expected = Layout.eventSize
        }
        guard bytes.count == expected else { throw .lengthMismatch(expected: expected, actual: bytes.count) }
        let computed = Layout.crc8(UnsafeRawBufferPointer(rebasing: bytes[0..<(expected - 1)]))
        let received = bytes[expected - 1]
        guard computed == received else { throw .checksumMismatch(computed: computed, received: received) }

        let header = BrainiacNotificationHeader(
            hardwareOrderNumber: UInt16(littleEndian: bytes.loadUnaligned(
                fromByteOffset: Layout.orderNumberOffset, as: UInt16.self)),
            counter: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: Layout.counterOffset, as: UInt32.self)),
            timeMilliseconds: UInt64(littleEndian: bytes.loadUnaligned(
                fromByteOffset: Layout.timeOffset, as: UInt64.self)))
        switch type {
        case .eeg:
            return .eeg(header, sampleCount: Int(body))
        case .battery:
            guard Int(body) <= Layout.maximumBatteryLevel else { throw .batteryOutOfRange(Int(body)) }
            return .battery(header, level: Int(body))
        case .status:
            guard let status = BrainiacStatus(rawValue: body) else { throw .unknownStatusCode(body) }
            return .status(header, status)
        }
    }

    /// The EEG samples of one notification as records, for tools and tests (allocates; not for the real-time
    /// path). Battery and status notifications hold no samples: the result is empty.
    ///
    /// Threading: pure; any thread.
    public static func packets(in bytes: [UInt8]) throws(BrainiacPacketError) -> [BrainiacPacket] {
        let result = bytes.withUnsafeBytes { raw -> Result<[BrainiacPacket], BrainiacPacketError> in
            do throws(BrainiacPacketError) {
                return .success(try packets(in: raw))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The EEG samples of one notification as records; see the array form.
    public static func packets(in bytes: UnsafeRawBufferPointer) throws(BrainiacPacketError) -> [BrainiacPacket] {
        guard case .eeg(let header, let sampleCount) = try parse(bytes) else { return [] }
        var values = [Double](repeating: 0, count: BrainiacPacketLayout.channelCount)
        return (0..<sampleCount).map { sample in
            values.withUnsafeMutableBufferPointer { readSample(sample, of: bytes, into: $0) }
            return BrainiacPacket(
                hardwareOrderNumber: header.hardwareOrderNumber,
                timeMilliseconds: header.timeMilliseconds &+ UInt64(sample)
                    * BrainiacPacketLayout.samplePeriodMilliseconds,
                counter: header.counter &+ UInt32(truncatingIfNeeded: sample),
                ch1: values[0], ch2: values[1], ch3: values[2], ch4: values[3])
        }
    }

    /// Reads the four µV values of sample `sample` of a validated EEG notification into `values`.
    @inline(__always)
    static func readSample(
        _ sample: Int, of bytes: UnsafeRawBufferPointer, into values: UnsafeMutableBufferPointer<Double>
    ) {
        var offset = BrainiacPacketLayout.firstValueOffset + sample * BrainiacPacketLayout.bytesPerSample
        for channel in 0..<BrainiacPacketLayout.channelCount {
            let raw = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            let count = Int32(bitPattern: raw << 8) >> 8  // sign-extend 24 → 32 bits
            values[channel] = BrainiacPacketLayout.microvolts(fromCount: count)
            offset += BrainiacPacketLayout.bytesPerValue
        }
    }
}
