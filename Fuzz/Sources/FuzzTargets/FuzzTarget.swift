import AxonBand
import AxonBrainiac
import AxonMuse
import AxonOBD
import AxonOpenBCI
import AxonRecording
import AxonResearchBIT
import AxonScales
import AxonSensors
import AxonStreams
import Foundation

/// Every decoder and reader Axon feeds with bytes from outside, as one libFuzzer target each.
///
/// Each ``run(_:)`` hands the input to the decoder the way its transport would and then checks what the decoder
/// promises: a value or its typed error (the signatures allow nothing else), counts that reconcile, values that
/// re-encode to the same bytes where the format is exact, sample values that are finite. A broken rule stops the
/// fuzzer through ``require(_:_:_:)``, so libFuzzer keeps the input as a crash.
///
/// Threading: `run` is called from libFuzzer's one thread; the targets keep no state between inputs.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Brainiac headset notifications (chunked), through ``BrainiacDecoder`` into a frame writer.
    case brainiac
    /// ELM327 answers as text, through ``ELM327ResponseParser`` and ``OBDDecoder``.
    case elm327
    /// Iwown band notification and command frames, and the standard Heart Rate Measurement.
    case band
    /// ResearchBIT notification and command frames.
    case researchbit
    /// iHealth scale responses and commands.
    case scale
    /// The standard GATT scale characteristics: Weight Measurement, Body Composition (packets and assembler),
    /// Weight Scale Feature.
    case gatt
    /// EDF/EDF+/BDF/BDF+ files: Axon's header checks and truncation recovery, then EDFlib (through a temporary file).
    case edf
    /// Axon CSV recordings.
    case axoncsv
    /// OpenBCI GUI text recordings.
    case openbci
    /// muse-lsl CSV recordings.
    case musecsv
    /// Muse EEG notifications (chunked; each chunk's first byte picks the channel).
    case muse
    /// The Cyton serial stream (chunked serial reads; the first input byte's low bit picks Daisy).
    case cyton
    /// Ganglion notifications (chunked).
    case ganglion
    /// XDF files.
    case xdf
    /// The XML of an LSL stream header, as XDF files carry it (the input wrapped in one stream-header chunk).
    case lslxml
    /// FIF raw files, as MNE-Python saves them.
    case fif
    /// Open Sound Control packets (datagrams), through ``OSCPacketReader``; the input as it is and padded to 4.
    case osc
    /// Sensor description files (JSON), through ``SensorDescription/init(json:)``; a valid one's decoder is made and
    /// fed the input itself as a packet.
    case sensordescription
    /// Packets through ``SensorPacketDecoder`` for five fixed layouts (the first byte picks one; chunked packets).
    case sensorlayout

    /// Runs one input.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .brainiac: Self.brainiac(bytes)
        case .elm327: Self.elm327(bytes)
        case .band: Self.band(bytes)
        case .researchbit: Self.researchBIT(bytes)
        case .scale: Self.scale(bytes)
        case .gatt: Self.gatt(bytes)
        case .edf:
            Self.reader(self, bytes) { () throws(RecordingError) in try EDFFileReader().read(bytes: bytes) }
            Self.reader(self, bytes) { () throws(RecordingError) in
                try EDFFileReader(keepsCompleteRecords: false).read(bytes: bytes)
            }
        case .axoncsv: Self.reader(self, bytes) { () throws(RecordingError) in try AxonCSVReader().read(bytes: bytes) }
        case .openbci:
            Self.reader(self, bytes) { () throws(RecordingError) in try OpenBCITextReader().read(bytes: bytes) }
        case .musecsv: Self.reader(self, bytes) { () throws(RecordingError) in try MuseCSVReader().read(bytes: bytes) }
        case .muse: Self.muse(bytes)
        case .cyton: Self.cyton(bytes)
        case .ganglion: Self.ganglion(bytes)
        case .xdf: Self.xdf(self, bytes)
        case .lslxml: Self.xdf(self, Self.streamHeaderFile(xml: bytes))
        case .fif:
            Self.reader(self, bytes) { () throws(RecordingError) in try FIFReader().read(bytes: bytes) }
            Self.reader(self, bytes) { () throws(RecordingError) in
                try FIFReader(keepsCompleteBuffers: false).read(bytes: bytes)
            }
        case .osc:
            Self.osc(bytes)
            Self.osc(bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4))
        case .sensordescription: Self.sensorDescription(bytes)
        case .sensorlayout: Self.sensorLayout(bytes)
        }
    }

    // MARK: - Bluetooth notifications

    private static func brainiac(_ bytes: [UInt8]) {
        let layout = FrameLayout(channelCount: 4)
        let ring = SPSCRing<Double>(capacity: 1024, width: layout.width, overflow: .rejectNewest)
        let writer = FrameWriter(ring: ring, layout: layout)
        let decoder = BrainiacDecoder()
        var slot = [Double](repeating: 0, count: layout.width)
        var offered = 0
        var framesSeen = 0
        for chunk in FuzzChunks(bytes) {
            offered += 1
            let before = decoder.statistics
            do {
                let notification = try decoder.decode(chunk, arrivalTime: 1, into: writer)
                var frames = 0
                while slot.withUnsafeMutableBufferPointer({ ring.pop(into: $0) }) == 1 {
                    frames += 1
                    for value in slot[FrameLayout.headerLanes...] {
                        require(value.isFinite, .brainiac, "a decoded sample is \(value)")
                    }
                }
                framesSeen += frames
                switch notification {
                case .eeg(_, let sampleCount):
                    require(frames == sampleCount, .brainiac, "\(sampleCount) samples announced, \(frames) written")
                case .battery(_, let level):
                    require((0...100).contains(level) && decoder.batteryLevel == level, .brainiac, "battery \(level)")
                    require(frames == 0, .brainiac, "a battery notification wrote frames")
                case .status(_, let status):
                    require(decoder.status == status && frames == 0, .brainiac, "status not kept or frames written")
                }
            } catch {
                require(ring.isEmpty, .brainiac, "a rejected notification wrote frames")
                require(decoder.lastError == error, .brainiac, "the rejection is not kept as lastError")
                require(
                    decoder.statistics.rejected(error.kind) == before.rejected(error.kind) + 1, .brainiac,
                    "the rejection \(error.kind) is not counted")
            }
        }
        let statistics = decoder.statistics
        require(
            statistics.decodedNotifications + statistics.rejectedNotifications == offered, .brainiac,
            "decoded + rejected ≠ offered (\(offered))")
        require(statistics.samples == framesSeen, .brainiac, "samples counted \(statistics.samples), written \(framesSeen)")
    }

    private static func muse(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let decoder = MuseDecoder(channelCount: first & 1 == 0 ? 4 : 5)
        var frames = 0
        var accepted = 0
        var lastCounter: UInt64?
        for chunk in FuzzChunks(bytes, from: 1) {
            guard let selector = chunk.first else { continue }
            let channel = Int(selector % 6)
            let value = Array(chunk.dropFirst())
            do {
                try decoder.decode(value, channel: channel) { frame, counter in
                    frames += 1
                    require(frame.count == decoder.channelCount, .muse, "a frame of \(frame.count) values")
                    require(frame.allSatisfy(\.isFinite), .muse, "a non-finite sample")
                    require(counter < MuseDecoder.counterModulus, .muse, "counter \(counter) beyond its modulus")
                    if let last = lastCounter, last % 12 != 11 { require(counter == last + 1, .muse, "frames of a packet not consecutive") }
                    lastCounter = counter
                }
                accepted += 1
                require(value.count == 20 && channel < decoder.channelCount, .muse, "a bad notification was accepted")
            } catch {
                require(value.count != 20 || channel >= decoder.channelCount, .muse, "a 20-byte notification was refused")
            }
        }
        let statistics = decoder.statistics
        require(statistics.notifications == accepted, .muse, "notifications counted \(statistics.notifications), accepted \(accepted)")
        require(statistics.frames == frames && frames == 12 * statistics.packets, .muse, "frames ≠ 12 × packets")
    }

    private static func ganglion(_ bytes: [UInt8]) {
        let decoder = GanglionDecoder()
        var accepted = 0
        var emitted = 0
        for chunk in FuzzChunks(bytes) {
            do {
                try decoder.decode(chunk) { frame, counter in
                    emitted += 1
                    require(frame.count == 4 && frame.allSatisfy(\.isFinite), .ganglion, "frame \(frame)")
                    require(counter < GanglionDecoder.counterModulus, .ganglion, "counter \(counter)")
                }
                accepted += 1
            } catch {
                require(!error.description.isEmpty, .ganglion, "an error without a description")
            }
        }
        require(decoder.packets == accepted, .ganglion, "packets counted \(decoder.packets), accepted \(accepted)")
        require(decoder.frames == emitted, .ganglion, "frames counted \(decoder.frames), emitted \(emitted)")
        require(decoder.lostPackets >= 0, .ganglion, "negative loss")
    }

    private static func cyton(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let decoder = CytonDecoder(daisy: first & 1 == 1)
        var emitted = 0
        var fed = 0
        let emit: (UnsafeBufferPointer<Double>, UInt64) -> Void = { frame, counter in
            emitted += 1
            require(frame.count == decoder.channelCount, .cyton, "a frame of \(frame.count) values")
            require(frame.allSatisfy(\.isFinite), .cyton, "a non-finite sample")
            require(counter < decoder.counterModulus, .cyton, "counter \(counter) beyond \(decoder.counterModulus)")
        }
        for chunk in FuzzChunks(bytes, from: 1) {
            fed += chunk.count
            chunk.withUnsafeBytes { decoder.consume($0, emit: emit) }
        }
        decoder.flush(emit: emit)
        let statistics = decoder.statistics
        require(statistics.bytesReceived == fed, .cyton, "bytes counted \(statistics.bytesReceived), fed \(fed)")
        require(statistics.frames == emitted, .cyton, "frames counted \(statistics.frames), emitted \(emitted)")
        require(statistics.discardedBytes <= fed, .cyton, "more bytes discarded than fed")
        require(statistics.packets * 33 + statistics.discardedBytes <= fed + 33, .cyton, "packets and discards exceed the input")
    }

    // MARK: - Frames with an exact encoding

    private static func band(_ bytes: [UInt8]) {
        if let notification = try? BandNotification(decoding: bytes) {
            require(
                (try? BandNotification(decoding: notification.bytes)) == notification, .band,
                "a decoded notification does not survive its own encoding")
        }
        if let command = try? BandCommand(decoding: bytes) {
            require((try? BandCommand(decoding: command.bytes)) == command, .band, "a command does not round-trip")
        }
        if let heartRate = try? HeartRateMeasurement(decoding: bytes) {
            require(heartRate.beatsPerMinute >= 0 && heartRate.beatsPerMinute <= 65_535, .band, "bpm \(heartRate.beatsPerMinute)")
            require(heartRate.rrIntervals.allSatisfy { $0.isFinite && $0 >= 0 && $0 < 64 }, .band, "RR interval out of range")
            require(heartRate.energyExpended.map { (0...65_535).contains($0) } ?? true, .band, "energy out of range")
        }
    }

    private static func researchBIT(_ bytes: [UInt8]) {
        if let notification = try? ResearchBITNotification(decoding: bytes) {
            require(notification.bytes == bytes, .researchbit, "a decoded frame re-encodes to other bytes")
        }
        if let command = ResearchBITCommand(decoding: bytes) {
            require(command.bytes == bytes, .researchbit, "a decoded command re-encodes to other bytes")
        }
    }

    private static func scale(_ bytes: [UInt8]) {
        if let response = try? ScaleResponse(decoding: bytes) {
            require(response.bytes == bytes, .scale, "a response re-encodes to other bytes")
        }
        if let command = try? ScaleCommand(decoding: bytes) {
            require(command.bytes == bytes, .scale, "a command re-encodes to other bytes")
        }
    }

    private static func gatt(_ bytes: [UInt8]) {
        if let weight = try? WeightMeasurement(decoding: bytes) {
            require(weight.bytes == bytes, .gatt, "a weight measurement re-encodes to other bytes")
        }
        if let packet = try? BodyCompositionPacket(decoding: bytes) {
            require(packet.bytes == bytes, .gatt, "a body composition packet re-encodes to other bytes")
        }
        do {
            let feature = try WeightScaleFeature(decoding: bytes)
            require(bytes.count == 4, .gatt, "a feature of \(bytes.count) bytes decoded as \(feature.rawValue)")
        } catch {
            require(bytes.count != 4, .gatt, "a 4-byte feature was refused")
        }
        // The assembler sees the input as a run of notifications.
        var assembler = BodyCompositionAssembler()
        for chunk in FuzzChunks(bytes) {
            do {
                if let measurement = try assembler.feed(chunk) {
                    require(
                        (1...BodyCompositionAssembler.maximumPackets).contains(measurement.packetCount), .gatt,
                        "a measurement of \(measurement.packetCount) packets")
                    require(!assembler.isPending, .gatt, "packets left pending after a measurement")
                }
            } catch {
                require(!assembler.isPending, .gatt, "packets left pending after an error")
            }
        }
    }

    private static func elm327(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let messages = try ELM327ResponseParser.messages(text, command: "010C")
            require(!messages.isEmpty, .elm327, "parsed to no message without an error")
            if let data = try? OBDDecoder.mode01Data(messages, pid: 0x0C, byteCount: 2, command: "010C") {
                require(data.count == 2, .elm327, "PID 0C data of \(data.count) bytes")
                let rpm = OBDStandardPID.engineSpeed.decode(data)
                require(rpm >= 0 && rpm <= 16_383.75, .elm327, "engine speed \(rpm)")
            }
            if let codes = try? OBDDecoder.troubleCodes(messages) {
                require(codes.allSatisfy { $0.count == 5 }, .elm327, "a trouble code not of 5 characters: \(codes)")
            }
            _ = try? OBDDecoder.vin(messages)
        } catch {
            require(!error.description.isEmpty, .elm327, "an error without a description")
        }
        _ = try? ELM327ResponseParser.hexBytes(text, command: "0902")
    }

    // MARK: - Files

    private static func reader(_ target: FuzzTarget, _ bytes: [UInt8], _ read: () throws(RecordingError) -> Recording) {
        do {
            let recording = try read()
            let frames = recording.frameCount
            require(recording.values.count == frames * recording.channelCount, target, "values ≠ frames × channels")
            require(recording.channelLabels.count == recording.channelCount, target, "labels ≠ channels")
            require(recording.sampleRate.isFinite && recording.sampleRate > 0, target, "rate \(recording.sampleRate)")
            if let timestamps = recording.timestamps {
                require(timestamps.count == frames && timestamps.allSatisfy(\.isFinite), target, "timestamps")
            }
            if let counters = recording.counters, let modulus = recording.counterModulus {
                require(counters.allSatisfy { $0 < modulus }, target, "a counter beyond its modulus \(modulus)")
            }
            require(
                zip(recording.markers, recording.markers.dropFirst()).allSatisfy { $0.frame <= $1.frame }, target,
                "markers not in frame order")
        } catch {
            require(!error.description.isEmpty, target, "an error without a description")
        }
    }

    /// One datagram: read twice (the same messages both times), every view inside the packet, every address
    /// starting with `/`, every argument the type tags announce handed out.
    private static func osc(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { packet in
            let range = UInt(bitPattern: packet.baseAddress)..<(UInt(bitPattern: packet.baseAddress) + UInt(packet.count))
            func inside(_ view: UnsafeRawBufferPointer) -> Bool {
                view.isEmpty || (range.contains(UInt(bitPattern: view.baseAddress))
                    && UInt(bitPattern: view.baseAddress) + UInt(view.count) <= range.upperBound)
            }
            var first: [Int] = []
            var second: [Int] = []
            do throws(OSCDecodingError) {
                try OSCPacketReader.forEachMessage(in: packet) { message in
                    require(message.address.first == UInt8(ascii: "/"), .osc, "an address without /")
                    require(inside(message.address) && inside(message.typeTags), .osc, "a view outside the packet")
                    var arguments = 0
                    message.forEachArgument { argument in
                        arguments += 1
                        switch argument {
                        case .string(let view), .blob(let view):
                            require(inside(view), .osc, "an argument outside the packet")
                        default: break
                        }
                    }
                    require(arguments == message.argumentCount, .osc, "\(arguments) arguments for \(message.argumentCount) tags")
                    first.append(arguments)
                }
            } catch {
                require(!error.description.isEmpty, .osc, "an error without a description")
                return
            }
            do throws(OSCDecodingError) {
                try OSCPacketReader.forEachMessage(in: packet) { second.append($0.argumentCount) }
            } catch {
                require(false, .osc, "a packet read once is rejected the second time: \(error)")
            }
            require(first == second, .osc, "two readings of one packet differ")
        }
    }

    private static func xdf(_ target: FuzzTarget, _ bytes: [UInt8]) {
        do {
            let file = try XDFReader.read(bytes: bytes)
            require(file.trailingBytes >= 0 && file.trailingBytes <= bytes.count, target, "trailing bytes")
            for stream in file.streams {
                require(stream.channelCount >= 0, target, "negative channel count")
                let count = stream.format == .string ? stream.strings.count : stream.values.count
                require(count == stream.sampleCount * stream.channelCount, target, "samples ≠ times × channels")
            }
            if let recording = try? file.recording(sourceName: "fuzz") {
                require(recording.values.count == recording.frameCount * recording.channelCount, target, "shape")
            }
        } catch {
            require(!error.description.isEmpty, target, "an error without a description")
        }
    }

    /// An XDF file holding one stream header whose XML is `xml`, and one sample chunk for it.
    public static func streamHeaderFile(xml: [UInt8]) -> [UInt8] {
        func chunk(tag: UInt16, _ content: [UInt8]) -> [UInt8] {
            let length = UInt32(content.count + 2)
            return [4] + withUnsafeBytes(of: length.littleEndian, Array.init) + [UInt8(tag & 0xFF), UInt8(tag >> 8)]
                + content
        }
        let id = withUnsafeBytes(of: UInt32(1).littleEndian, Array.init)
        // One float32 sample of one channel: count 1, no timestamp, the value.
        let sample: [UInt8] = [1, 1, 0] + withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian, Array.init)
        return Array("XDF:".utf8) + chunk(tag: 1, Array("<?xml version=\"1.0\"?><info><version>1.0</version></info>".utf8))
            + chunk(tag: 2, id + xml) + chunk(tag: 3, id + sample)
    }

    // MARK: - Sensor descriptions

    /// A description file: a description whose decoder can be made (every channel's and the counter's field exists)
    /// or an error listing at least one problem, each with a sentence; a valid one decodes the input as a packet
    /// into finite values or a typed rejection.
    private static func sensorDescription(_ bytes: [UInt8]) {
        let sensor: SensorDescription
        do { sensor = try SensorDescription(json: Data(bytes)) } catch {
            require(!error.problems.isEmpty, .sensordescription, "an error without problems")
            require(error.problems.allSatisfy { !$0.description.isEmpty }, .sensordescription, "a problem without a sentence")
            return
        }
        require(!sensor.channels.isEmpty && sensor.nominalRate >= 0, .sensordescription, "a description without channels")
        let decoder = SensorPacketDecoder(sensor)
        guard case .osc = sensor.layout else {
            _ = decodeSensorPacket(decoder, bytes, .sensordescription)
            return
        }
    }

    /// The layouts ``sensorLayout(_:)`` decodes with: a packet counter over four samples, a filled packet with a bit
    /// field, a float and a device clock, delimited text with a header and a wrapping counter, a regular expression,
    /// and OSC arguments.
    private static let sensorLayouts: [SensorDescription] = [
        """
        {"name": "counted", "rate": 250, "transport": {"udp": {"port": 0}},
         "layout": {"binary": {"fields": [{"name": "seq", "offset": 0, "type": "uint8"}],
            "samples": {"offset": 1, "stride": 4, "count": 4, "fields": [
                {"name": "a", "offset": 0, "type": "int16be"}, {"name": "b", "offset": 2, "type": "int16be"}]}}},
         "counter": {"field": "seq"},
         "channels": [{"label": "A", "field": "a", "scale": 0.1}, {"label": "B", "field": "b", "offset": 3}]}
        """,
        """
        {"name": "filled", "rate": 130, "transport": {"udp": {"port": 0}},
         "layout": {"binary": {"fields": [{"name": "type", "offset": 0, "type": "uint8", "equals": 0},
                                          {"name": "t", "offset": 1, "type": "uint32le"}],
            "samples": {"offset": 5, "stride": 6, "fields": [
                {"name": "x", "offset": 0, "bit": 4, "bits": 12, "signed": true, "endian": "big"},
                {"name": "y", "offset": 2, "type": "float32le"}]}}},
         "time": {"field": "t", "unit": "ms", "sample": "last"},
         "channels": [{"label": "X", "field": "x"}, {"label": "Y", "field": "y"}]}
        """,
        """
        {"name": "csv", "rate": 500, "transport": {"udp": {"port": 0}},
         "layout": {"text": {"delimiter": ",", "columns": ["n", "", "v"], "skipLines": 1}},
         "counter": {"field": "n", "modulus": 1000}, "channels": [{"label": "V", "field": "v", "scale": 2}]}
        """,
        #"""
        {"name": "re", "rate": "irregular", "transport": {"udp": {"port": 0}},
         "layout": {"text": {"pattern": "T=(?<t>-?[0-9.]+) H=(?<h>[0-9.]+)"}},
         "channels": [{"label": "T", "field": "t"}, {"label": "H", "field": "h"}]}
        """#,
        """
        {"name": "osc", "rate": 256, "transport": {"osc": {"port": 0, "address": "/muse/eeg"}},
         "layout": {"osc": {"arguments": ["a", "", "b"]}},
         "channels": [{"label": "A", "field": "a"}, {"label": "B", "field": "b"}]}
        """,
    ].map { try! SensorDescription(json: Data($0.utf8)) }

    /// Packets through one of ``sensorLayouts`` (the first byte picks it): every packet decodes or is rejected with a
    /// type, the counts reconcile, values are finite, counters stay below the modulus and count up by one inside a
    /// packet, device times step by one period.
    private static func sensorLayout(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let sensor = sensorLayouts[Int(first) % sensorLayouts.count]
        let decoder = SensorPacketDecoder(sensor)
        var offered = 0
        var emitted = 0
        var others = 0
        for chunk in FuzzChunks(bytes, from: 1) {
            offered += 1
            if case .osc(_, let address) = sensor.transport {
                let result = chunk.withUnsafeBytes { raw in
                    Array(address.utf8).withUnsafeBufferPointer { address in
                        Result { () throws(OSCDecodingError) in
                            try decoder.decode(oscDatagram: raw, address: address) { values, _, _ in
                                emitted += 1
                                require(values.allSatisfy(\.isFinite), .sensorlayout, "an OSC sample not finite")
                            }
                        }
                    }
                }
                if case .success(let outcome) = result { others += outcome.otherMessages }
                offered -= 1  // a datagram holds any number of messages: counted by the decoder itself
            } else {
                emitted += decodeSensorPacket(decoder, chunk, .sensorlayout) ?? 0
            }
        }
        let s = decoder.statistics
        require(s.samples == emitted, .sensorlayout, "\(s.samples) samples counted, \(emitted) emitted")
        if case .osc = sensor.layout { return }
        require(s.packets + s.rejected + s.skippedLines == offered, .sensorlayout, "packets do not reconcile")
    }

    /// One packet through `decoder`: the samples it made (checked), or `nil` when it was rejected.
    private static func decodeSensorPacket(_ decoder: SensorPacketDecoder, _ packet: [UInt8], _ target: FuzzTarget) -> Int? {
        let sensor = decoder.sensor
        let modulus = decoder.sampleCounterModulus
        var counters: [UInt64] = []
        var times: [Double] = []
        var made = 0
        let result = packet.withUnsafeBytes { raw in
            Result { () throws(SensorPacketError) in
                try decoder.decode(raw) { values, counter, time in
                    made += 1
                    require(values.count == sensor.channels.count, target, "\(values.count) values")
                    require(values.allSatisfy(\.isFinite), target, "a sample not finite")
                    if let counter { counters.append(counter) }
                    if let time { times.append(time) }
                }
            }
        }
        switch result {
        case .success:
            if let modulus { require(counters.allSatisfy { $0 < modulus }, target, "a counter beyond \(modulus)") }
            if sensor.counter?.countsPackets == true {
                require(zip(counters, counters.dropFirst()).allSatisfy { $1 == $0 + 1 }, target, "counters not consecutive")
            }
            if sensor.nominalRate > 0, let last = times.last, let first = times.first, times.count > 1 {
                let expected = Double(times.count - 1) / sensor.nominalRate
                require(abs((last - first) - expected) <= 1e-6 * max(1, abs(last)), target, "device times not one period apart")
            }
            return made
        case .failure(let error):
            require(!error.description.isEmpty && made == 0, target, "a rejection without a sentence, or after samples")
            return nil
        }
    }
}
