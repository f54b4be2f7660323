extension BrainiacEncoder {
    /// An EEG notification of `values.count / 4` samples (T3, O1, T4, O2 per sample), as bytes.
    ///
    /// Allocates the result; for tools and tests.
    /// - Throws: ``BrainiacEncoderError`` as the buffer form.
    public func encodeEEG(_ header: BrainiacNotificationHeader, values: [Double]) throws(BrainiacEncoderError)
        -> [UInt8]
    {
        try build { buffer throws(BrainiacEncoderError) in
            let result = values.withUnsafeBufferPointer { pointer -> Result<Int, BrainiacEncoderError> in
                do throws(BrainiacEncoderError) {
                    return .success(try encodeEEG(header, values: pointer, into: buffer))
                } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        }
    }

    /// One EEG notification carrying consecutive sample records (the vendor SDK's shape).
    ///
    /// The header comes from the first record; every record `i` must share its order number and have counter
    /// `+ i` and time `+ 4·i` ms, or the notification could not say it.
    /// - Throws: ``BrainiacEncoderError/nonConsecutivePackets(index:)``, or the errors of the values form.
    public func encode(_ packets: [BrainiacPacket]) throws(BrainiacEncoderError) -> [UInt8] {
        guard let first = packets.first else { throw .invalidValueCount(0) }
        for (index, packet) in packets.enumerated() {
            let consecutive = packet.hardwareOrderNumber == first.hardwareOrderNumber
                && packet.counter == first.counter &+ UInt32(truncatingIfNeeded: index)
                && packet.timeMilliseconds
                    == first.timeMilliseconds &+ UInt64(index) * BrainiacPacketLayout.samplePeriodMilliseconds
            guard consecutive else { throw .nonConsecutivePackets(index: index) }
        }
        let header = BrainiacNotificationHeader(
            hardwareOrderNumber: first.hardwareOrderNumber, counter: first.counter,
            timeMilliseconds: first.timeMilliseconds)
        return try encodeEEG(header, values: packets.flatMap(\.values))
    }

    /// A battery notification, as bytes.
    /// - Throws: ``BrainiacEncoderError/batteryOutOfRange(_:)`` outside 0…100.
    public func encodeBattery(_ header: BrainiacNotificationHeader, level: Int) throws(BrainiacEncoderError)
        -> [UInt8]
    {
        try build { buffer throws(BrainiacEncoderError) in try encodeBattery(header, level: level, into: buffer) }
    }

    /// A status notification, as bytes.
    public func encodeStatus(_ header: BrainiacNotificationHeader, status: BrainiacStatus) -> [UInt8] {
        // A maximum-size buffer always holds a status notification: the only possible error cannot happen.
        (try? build { buffer throws(BrainiacEncoderError) in try encodeStatus(header, status: status, into: buffer) })
            ?? []
    }

    /// Runs `body` on a buffer of the largest notification size and returns the bytes it wrote.
    private func build(
        _ body: (UnsafeMutableRawBufferPointer) throws(BrainiacEncoderError) -> Int
    ) throws(BrainiacEncoderError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: BrainiacPacketLayout.maximumNotificationSize)
        let result = bytes.withUnsafeMutableBytes { buffer -> Result<Int, BrainiacEncoderError> in
            do throws(BrainiacEncoderError) {
                return .success(try body(buffer))
            } catch {
                return .failure(error)
            }
        }
        let length = try result.get()
        bytes.removeLast(bytes.count - length)
        return bytes
    }
}
