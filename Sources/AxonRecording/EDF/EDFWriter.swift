import AxonMemory
import AxonStreams

/// Streams a regular multi-channel stream into an EDF+ (16-bit) or BDF+ (24-bit) file as samples arrive, so that a
/// killed process leaves a valid file.
///
///     let writer = try EDFWriter(path: "session.edf", descriptor: eeg, startUnixTime: HostClock.unixNow())
///     try writer.append(frame)                                   // one value per channel, per sample
///     writer.annotate(onset: 12.5, text: "eyes closed")          // seconds from the first sample
///     try writer.close()
///
/// **Crash safety.** The header is written at open with the record count `-1`. Each data record (1 s by default) is
/// appended with one `write` when its last sample arrives; every ``Options/flushInterval`` records (1 by default)
/// the header's count is rewritten with the number of complete records and the file is `fsync`ed. A process killed
/// at any point leaves a file whose header counts every record up to the last update, followed by at most a few
/// complete records and one partial one: pyedflib/EDFlib read the counted records, MNE every complete one.
///
/// **Scaling.** Each channel's physical range is ``Options/ranges``, else its `ChannelInfo.range`, else
/// ``Options/defaultRange``/``Format/defaultRange``, written to 8 characters (rounded outward); the digital range is
/// symmetric (±32767 EDF, ±8388607 BDF). Samples outside the range are written as the range's end and counted per
/// channel (``clippedSamples``), never wrapped; NaN is written as the channel's previous value and counted too.
///
/// **Annotations.** Every record carries the `EDF Annotations` signal: first the time-keeping TAL
/// `+<record start>␔␔␀`, then the TALs of the annotations due in it (onset before the record's end), in submission
/// order, while they fit ``Options/annotationBytesPerRecord``; the rest go into the next record — never lost. An
/// annotation dated before the current record goes into the next one written. ``Options/startAnnotation`` is
/// annotated at onset 0.
///
/// **Time.** Onsets count from the first sample (file time 0). The header's start date and time are the first
/// sample's Unix time in UTC, truncated to the whole second; the fraction goes into the time-keeping TALs as EDF+'s
/// subsecond start (`+0.75`, `+1.75`, … for a start at .75 s), and every TAL onset carries it too, so readers that
/// subtract it (pyedflib/EDFlib and MNE both do) report onsets from the first sample. A start outside EDF's years
/// 1985…2084 (seconds since a device's power-on, say), or one marked unknown with ``Options/startDateIsKnown``, is
/// written as EDF+'s unknown start: `Startdate X` and 01.01.85 00.00.00 (``startIsKnown`` is then false).
///
/// **Close.** A partial last record is padded with each channel's last value (``paddedSamples``) or dropped
/// (``Options/finalRecord``); annotations still waiting are written in it, or in extra padded records if they do not
/// fit; then the final count is written and synced.
///
/// Threading contract: one owning thread at a time (not `Sendable`). `append`, `appendFill` and writing a record
/// allocate nothing; `annotate` copies its text into preallocated storage that grows only past its high-water mark.
public final class EDFWriter {
    /// The file's path.
    public let path: String
    /// The stream written.
    public let descriptor: StreamDescriptor
    /// The settings.
    public let options: Options
    /// The first sample's Unix time (file time 0).
    public let startUnixTime: Double
    /// Whether the header states the start: false when ``Options/startDateIsKnown`` is false or the start lies
    /// outside EDF's years 1985…2084 (then the header says EDF+'s unknown start date, `Startdate X`).
    public let startIsKnown: Bool
    /// Samples per channel in each data record (the first channel's when ``Options/channelRates`` gives channels
    /// rates of their own; ``channelSamplesPerRecord`` has each).
    public let samplesPerRecord: Int
    /// Each channel's samples per data record.
    public let channelSamplesPerRecord: [Int]
    /// Bytes of one data record.
    public let recordSize: Int
    /// Bytes of the header.
    public let headerSize: Int

    /// Complete data records written so far.
    public private(set) var recordCount = 0
    /// Data records the header counts (the last flush).
    public private(set) var flushedRecordCount = 0
    /// Samples per channel appended (including fill), not counting close-time padding.
    public private(set) var frameCount = 0
    /// Samples per channel written by ``appendFill(count:)``.
    public private(set) var filledSamples = 0
    /// Samples per channel added at close to complete the last record.
    public private(set) var paddedSamples = 0
    /// Annotations written into records so far (the start annotation included).
    public private(set) var annotationsWritten = 0
    /// Whether ``close()`` has run.
    public private(set) var isClosed = false

    private let fd: Int32
    private let channels: Int
    private let bytesPerSample: Int
    /// One data record's bytes: the channels' samples, then the annotation region.
    private let record: OwnedBuffer<UInt8>
    /// Where the annotation region starts in `record`.
    private let annotationStart: Int
    private let gains: OwnedBuffer<Double>
    private let offsets: OwnedBuffer<Double>
    private let lastDigital: OwnedBuffer<Int32>
    private let clipped: OwnedBuffer<Int>
    /// Byte offset of each channel's samples in a record.
    private let channelStart: OwnedBuffer<Int>
    /// Whether every channel has the same samples per record (frames can be appended one at a time).
    private let isUniform: Bool
    private let countField: OwnedBuffer<UInt8>
    private let digitalMaximum: Double
    private let recordTicks: Int64
    /// The first sample's fraction of a second after the header's start time, in TAL ticks.
    private let startOffsetTicks: Int64
    private var sampleInRecord = 0
    private var annotations: EDFAnnotationQueue

    /// Creates the file (truncating an existing one) and writes its header.
    ///
    /// - Parameters:
    ///   - path: where to write.
    ///   - descriptor: the stream; must be regular with at least one channel.
    ///   - startUnixTime: the first sample's Unix time.
    ///   - options: format, record duration, flushing, ranges, identification, annotations.
    /// - Throws: ``EDFWriterError`` for an unsuitable stream or option, or when the file cannot be created.
    public init(
        path: String, descriptor: StreamDescriptor, startUnixTime: Double, options: Options = .init()
    ) throws(EDFWriterError) {
        let header = try EDFHeaderBuilder(descriptor: descriptor, options: options, startUnixTime: startUnixTime)
        self.path = path
        self.descriptor = descriptor
        self.options = options
        self.startUnixTime = startUnixTime
        self.samplesPerRecord = header.samplesPerRecord[0]
        self.channelSamplesPerRecord = header.samplesPerRecord
        self.isUniform = Set(header.samplesPerRecord).count == 1
        self.headerSize = header.bytes.count
        self.channels = descriptor.channelCount
        self.bytesPerSample = options.format.bytesPerSample
        self.digitalMaximum = Double(options.format.digitalMaximum)
        let annotationBytes = header.annotationSamples * bytesPerSample
        self.recordSize = header.samplesPerRecord.reduce(0, +) * bytesPerSample + annotationBytes
        self.recordTicks = EDFAnnotationQueue.ticks(options.recordDuration)
        self.startOffsetTicks =
            header.startIsKnown ? EDFAnnotationQueue.ticks(startUnixTime - startUnixTime.rounded(.down)) : 0
        self.startIsKnown = header.startIsKnown
        self.annotations = EDFAnnotationQueue(bytesPerRecord: annotationBytes)

        self.fd = try PosixFile.create(path)
        record = OwnedBuffer(repeating: 0, count: recordSize)
        annotationStart = recordSize - annotationBytes
        gains = OwnedBuffer(copying: header.scalings.map(\.gain))
        offsets = OwnedBuffer(copying: header.scalings.map(\.offset))
        lastDigital = OwnedBuffer(repeating: 0, count: channels)
        clipped = OwnedBuffer(repeating: 0, count: channels)
        var starts = [Int]()
        var start = 0
        for samples in header.samplesPerRecord {
            starts.append(start)
            start += samples * options.format.bytesPerSample
        }
        channelStart = OwnedBuffer(copying: starts)
        countField = OwnedBuffer(repeating: UInt8(ascii: " "), count: EDFHeaderBuilder.recordCountWidth)

        let written: Result<Void, EDFWriterError> = header.bytes.withUnsafeBytes { bytes in
            Result { () throws(EDFWriterError) in try writeAll(bytes, operation: "write header") }
        }
        if case .failure(let error) = written {
            isClosed = true
            PosixFile.discard(fd)
            throw error
        }
        if let text = options.startAnnotation { annotateGenerated(onset: 0, text: text) }
    }

    deinit {
        if !isClosed { PosixFile.discard(fd) }
    }

    /// Samples clipped to the physical range (or NaN), per channel.
    public var clippedSamples: [Int] { clipped.array }

    /// Annotations waiting for a record.
    public var pendingAnnotationCount: Int { annotations.count }

    /// Annotation texts cut to fit one record.
    public var truncatedAnnotationCount: Int { annotations.truncatedCount }

    /// Seconds of data in complete records.
    public var duration: Double { Double(recordCount) * options.recordDuration }

    // MARK: - Samples

    /// Appends one sample per channel (`values.count` must equal the channel count).
    ///
    /// - Throws: ``EDFWriterError/writeFailed(path:operation:errno:)`` when completing a record fails (the samples
    ///   already flushed stay readable), ``EDFWriterError/closed(path:)`` after `close()`.
    /// - Complexity: O(channels); writes one record every ``samplesPerRecord`` calls. Allocates nothing.
    public func append(_ values: UnsafeBufferPointer<Double>) throws(EDFWriterError) {
        precondition(values.count == channels, "one value per channel")
        precondition(isUniform, "channels at several rates take whole records (appendRecord)")
        guard !isClosed else { throw .closed(path: path) }
        for channel in 0..<channels { put(values[channel], channel: channel) }
        try advance()
    }

    /// Appends one sample per channel from an array.
    public func append(_ values: [Double]) throws(EDFWriterError) {
        let result: Result<Void, EDFWriterError> = values.withUnsafeBufferPointer { buffer in
            Result { () throws(EDFWriterError) in try append(buffer) }
        }
        try result.get()
    }

    /// Appends `frameCount` frames laid out as rows of `stride` doubles whose channel values start at `valueOffset`
    /// (a ``AxonStreams/SampleBlock``'s rows: `stride` = layout width, `valueOffset` =
    /// ``AxonStreams/FrameLayout/headerLanes``).
    ///
    /// - Complexity: O(frames × channels). Allocates nothing.
    public func append(
        rows: UnsafeBufferPointer<Double>, stride: Int, valueOffset: Int, frameCount: Int
    ) throws(EDFWriterError) {
        precondition(valueOffset + channels <= stride && frameCount * stride <= rows.count, "rows too short")
        precondition(isUniform, "channels at several rates take whole records (appendRecord)")
        guard !isClosed else { throw .closed(path: path) }
        var frame = 0
        while frame < frameCount {
            let run = min(frameCount - frame, samplesPerRecord - sampleInRecord)
            for channel in 0..<channels {
                let base = frame * stride + valueOffset + channel
                for step in 0..<run { put(rows[base + step * stride], channel: channel, at: sampleInRecord + step) }
            }
            frame += run
            sampleInRecord += run - 1
            self.frameCount += run - 1
            try advance()
        }
    }

    /// Appends `count` samples per channel repeating each channel's last value: fill for lost samples, so the
    /// continuous file's sample time stays exact.
    public func appendFill(count: Int) throws(EDFWriterError) {
        precondition(isUniform, "channels at several rates take whole records (appendRecord)")
        guard !isClosed else { throw .closed(path: path) }
        for _ in 0..<max(0, count) {
            for channel in 0..<channels { store(lastDigital[channel], channel: channel, at: sampleInRecord) }
            filledSamples += 1
            try advance()
        }
    }

    /// Appends one whole data record: `samples[c]` holds channel `c`'s ``channelSamplesPerRecord``[c] values. The
    /// way to write channels at several rates (``Options/channelRates``); also takes a uniform writer between
    /// records.
    ///
    /// - Throws: as ``append(_:)-([Double])``.
    /// - Complexity: O(samples in a record).
    public func appendRecord(_ samples: [[Double]]) throws(EDFWriterError) {
        precondition(samples.count == channels, "one array per channel")
        precondition(sampleInRecord == 0, "a whole record starts at a record boundary")
        guard !isClosed else { throw .closed(path: path) }
        for (channel, values) in samples.enumerated() {
            precondition(values.count == channelSamplesPerRecord[channel], "a record's samples per channel")
            for (sample, value) in values.enumerated() { put(value, channel: channel, at: sample) }
        }
        frameCount += samplesPerRecord
        try writeRecord(final: false)
    }

    @inline(__always)
    private func put(_ value: Double, channel: Int) {
        put(value, channel: channel, at: sampleInRecord)
    }

    @inline(__always)
    private func put(_ value: Double, channel: Int, at sample: Int) {
        var digital = (value * gains[channel] + offsets[channel]).rounded()
        if !(digital >= -digitalMaximum && digital <= digitalMaximum) {
            clipped[channel] += 1
            if digital.isNaN {
                store(lastDigital[channel], channel: channel, at: sample)
                return
            }
            digital = digital < 0 ? -digitalMaximum : digitalMaximum
        }
        let integer = Int32(digital)
        lastDigital[channel] = integer
        store(integer, channel: channel, at: sample)
    }

    @inline(__always)
    private func store(_ digital: Int32, channel: Int, at sample: Int) {
        let offset = channelStart[channel] + sample * bytesPerSample
        let bits = UInt32(bitPattern: digital)
        record[offset] = UInt8(truncatingIfNeeded: bits)
        record[offset + 1] = UInt8(truncatingIfNeeded: bits >> 8)
        if bytesPerSample == 3 { record[offset + 2] = UInt8(truncatingIfNeeded: bits >> 16) }
    }

    /// One more sample in the record; writes it out when full.
    @inline(__always)
    private func advance() throws(EDFWriterError) {
        sampleInRecord += 1
        frameCount += 1
        if sampleInRecord == samplesPerRecord { try writeRecord(final: false) }
    }

    private func writeRecord(final: Bool) throws(EDFWriterError) {
        let start = startOffsetTicks + Int64(recordCount) * recordTicks
        let (annotationStart, recordTicks) = (annotationStart, recordTicks)
        annotationsWritten += record.withUnsafeMutableBufferPointer { record in
            let region = UnsafeMutableRawBufferPointer(
                start: record.baseAddress! + annotationStart, count: record.count - annotationStart)
            return annotations.write(into: region, recordStart: start, recordEnd: start + recordTicks, final: final)
        }
        do {
            try record.withUnsafeBufferPointer { (record) throws(EDFWriterError) in
                try writeAll(UnsafeRawBufferPointer(record), operation: "write data record")
            }
        } catch {
            // A record that went out in part (a full disk) is cut off again: the file stays header + whole records,
            // which is what every reader expects of an EDF file, and the header already counts just those.
            PosixFile.cutBack(fd, to: headerSize + recordCount * record.count)
            throw error
        }
        recordCount += 1
        sampleInRecord = 0
        if recordCount - flushedRecordCount >= options.flushInterval { try flush() }
    }

    // MARK: - Annotations

    /// Annotates `text` at `onset` seconds from the first sample, lasting `duration` seconds if given.
    ///
    /// Written in the record that contains the onset (or the next one written, if that record is already out or
    /// full). Texts longer than one record holds are cut at a character boundary (``truncatedAnnotationCount``).
    public func annotate(onset: Double, duration: Double? = nil, text: String) {
        var text = text
        text.withUTF8 { annotate(onset: onset, duration: duration, utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Annotates `text` at a Unix time (seconds since 1970).
    public func annotate(unixTime: Double, duration: Double? = nil, text: String) {
        annotate(onset: unixTime - startUnixTime, duration: duration, text: text)
    }

    /// Annotates UTF-8 text in place (no `String`): the allocation-free path for a sink's real-time thread.
    ///
    /// Every `annotate` call ends here. An onset before the first sample (a device's status while connecting) is
    /// written at the file's start, since readers skip negative onsets. With ``Options/anonymization`` the
    /// annotation is dropped unless it ``Anonymization/keepsAnnotations``: free text may name a person.
    public func annotate(onset: Double, duration: Double?, utf8: UnsafeRawBufferPointer) {
        guard options.anonymization.keepsAnnotations else { return }
        enqueue(onset: onset, duration: duration, utf8: utf8)
    }

    /// Annotates a text Axon generates itself (`gap: N samples (cause)`, the start annotation): written even when
    /// anonymizing, since it names no one and says which samples are fill.
    func annotateGenerated(onset: Double, text: String) {
        var text = text
        text.withUTF8 { enqueue(onset: onset, duration: nil, utf8: UnsafeRawBufferPointer($0)) }
    }

    private func enqueue(onset: Double, duration: Double?, utf8: UnsafeRawBufferPointer) {
        let durationTicks = duration.map { $0.isFinite && $0 >= 0 ? EDFAnnotationQueue.ticks($0) : -1 } ?? -1
        let fileTicks = onset.isFinite ? EDFAnnotationQueue.ticks(max(0, onset)) : Int64(recordCount) * recordTicks
        let onsetTicks = startOffsetTicks + fileTicks
        annotations.append(onset: onsetTicks, duration: durationTicks, text: utf8)
    }

    // MARK: - Flushing and closing

    /// Rewrites the header's record count with the records written so far and (with ``Options/synchronizes``)
    /// `fsync`s the file. Called every ``Options/flushInterval`` records; call it yourself to flush sooner.
    public func flush() throws(EDFWriterError) {
        guard !isClosed else { throw .closed(path: path) }
        try writeCount(recordCount)
        if options.synchronizes { try PosixFile.synchronize(fd, path: path) }
        flushedRecordCount = recordCount
    }

    /// Completes the file: pads (or drops) the partial last record, writes the waiting annotations, the final count,
    /// syncs and closes. Idempotent.
    public func close() throws(EDFWriterError) {
        guard !isClosed else { return }
        var closed = false
        defer {
            isClosed = true
            if !closed { PosixFile.discard(fd) }
        }
        if sampleInRecord > 0, options.finalRecord == .drop {
            frameCount -= sampleInRecord
            sampleInRecord = 0
        }
        if sampleInRecord > 0 { try padAndWrite() }
        // Annotations still waiting get extra padded records (only when there is data to pad from).
        while !annotations.isEmpty, frameCount > 0 { try padAndWrite() }
        try writeCount(recordCount)
        try PosixFile.synchronize(fd, path: path)
        flushedRecordCount = recordCount
        closed = true
        try PosixFile.close(fd, path: path)
    }

    private func padAndWrite() throws(EDFWriterError) {
        for channel in 0..<channels {
            // Uniform: the samples after the last appended; several rates: a whole record (they come in records).
            for sample in sampleInRecord..<channelSamplesPerRecord[channel] {
                store(lastDigital[channel], channel: channel, at: sample)
            }
        }
        paddedSamples += samplesPerRecord - sampleInRecord
        sampleInRecord = samplesPerRecord
        try writeRecord(final: true)
    }

    private func writeCount(_ count: Int) throws(EDFWriterError) {
        // Space-padded decimal, without a String.
        countField.update(repeating: UInt8(ascii: " "))
        var digits = 1
        var scale = 1
        while count / scale >= 10 {
            scale *= 10
            digits += 1
        }
        var rest = count
        for index in 0..<min(digits, EDFHeaderBuilder.recordCountWidth) {
            countField[index] = UInt8(ascii: "0") + UInt8(rest / scale)
            rest %= scale
            scale /= 10
        }
        let (fd, path) = (fd, path)
        try countField.withUnsafeBufferPointer { (field) throws(EDFWriterError) in
            try PosixFile.writeAll(
                fd, UnsafeRawBufferPointer(field), at: EDFHeaderBuilder.recordCountOffset, path: path,
                operation: "rewrite record count")
        }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer, operation: String) throws(EDFWriterError) {
        try PosixFile.writeAll(fd, bytes, path: path, operation: operation)
    }
}
