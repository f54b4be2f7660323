import AxonStreams

extension BrainVisionReader {
    /// One `[Channel Infos]` entry.
    struct Channel: Sendable {
        var info: ChannelInfo
        var reference: String
        var resolution: Double
    }

    /// The keys of a `.vhdr` the reader uses, checked.
    struct Header: Sendable {
        var version: String
        var codepage: String
        var dataFile: String
        var markerFile: String?
        var isVectorized: Bool
        var channelCount: Int
        var samplingInterval: Double
        var dataPoints: Int?
        var binaryFormat: BrainVisionBinaryFormat
        var isBigEndian: Bool
        var channels: [Channel]

        /// Samples per second: 10⁶ ÷ the sampling interval in µs.
        var rate: Double { 1e6 / samplingInterval }

        /// The most channels a header may declare: far above any amplifier, low enough that a lying count
        /// allocates nothing large.
        static let maximumChannels = 65_536

        /// Checks a header's text.
        ///
        /// - Throws: ``BrainVisionProblem``: `notAHeader`, `missingKey`, `badValue`, `unsupported`.
        init(_ text: BrainVisionText) throws(BrainVisionProblem) {
            guard BrainVisionText.isVersionLine(text.firstLine, kind: "Header") else {
                throw .notAHeader(firstLine: text.firstLine)
            }
            version = text.firstLine
            codepage = text.codepage
            let common = "Common Infos"
            func required(_ section: String, _ key: String) throws(BrainVisionProblem) -> BrainVisionText.Entry {
                guard let entry = text.entry(section, key) else { throw .missingKey(section: section, key: key) }
                return entry
            }
            func choice(_ key: String, default value: String, _ supported: [String]) throws(BrainVisionProblem)
                -> String
            {
                let written = text.entry(common, key)?.value ?? value
                guard supported.contains(written.uppercased()) else {
                    throw .unsupported(key: key, value: written, supported: supported)
                }
                return written.uppercased()
            }
            let data = try required(common, "DataFile")
            guard !data.value.isEmpty else {
                throw .badValue(line: data.line, key: "DataFile", value: "", reason: "names no file")
            }
            dataFile = data.value
            markerFile = text.entry(common, "MarkerFile").map(\.value).flatMap { $0.isEmpty ? nil : $0 }
            _ = try choice("DataFormat", default: "BINARY", ["BINARY"])
            _ = try choice("DataType", default: "TIMEDOMAIN", ["TIMEDOMAIN"])
            isVectorized =
                try choice("DataOrientation", default: "MULTIPLEXED", ["MULTIPLEXED", "VECTORIZED"])
                == "VECTORIZED"
            let count = try required(common, "NumberOfChannels")
            guard let channels = Int(count.value), (1...Self.maximumChannels).contains(channels) else {
                throw .badValue(
                    line: count.line, key: "NumberOfChannels", value: count.value,
                    reason: "not a whole number in 1…\(Self.maximumChannels)")
            }
            channelCount = channels
            let interval = try required(common, "SamplingInterval")
            guard let micros = Double(interval.value), micros.isFinite, micros > 0, (1e6 / micros).isFinite else {
                throw .badValue(
                    line: interval.line, key: "SamplingInterval", value: interval.value,
                    reason: "not a positive number of microseconds")
            }
            samplingInterval = micros
            if let points = text.entry(common, "DataPoints") {
                guard let number = Int(points.value), number >= 0 else {
                    throw .badValue(
                        line: points.line, key: "DataPoints", value: points.value, reason: "not a whole number ≥ 0")
                }
                dataPoints = number
            }
            let binary = try required("Binary Infos", "BinaryFormat")
            guard let format = BrainVisionBinaryFormat(rawValue: binary.value.uppercased()) else {
                throw .unsupported(
                    key: "BinaryFormat", value: binary.value,
                    supported: BrainVisionBinaryFormat.allCases.map(\.rawValue))
            }
            binaryFormat = format
            let order = text.entry("Binary Infos", "UseBigEndianOrder")?.value.uppercased() ?? "NO"
            guard order == "NO" || order == "YES" else {
                throw .unsupported(key: "UseBigEndianOrder", value: order, supported: ["NO", "YES"])
            }
            isBigEndian = order == "YES"

            var parsed: [Channel] = []
            for number in 1...channels {
                guard let entry = text.entry("Channel Infos", "Ch\(number)") else {
                    throw .missingKey(section: "Channel Infos", key: "Ch\(number)")
                }
                let fields = entry.value.split(separator: ",", omittingEmptySubsequences: false)
                let name = BrainVisionText.unescaped(fields[0]).trimmingCharacters(in: .whitespaces)
                let reference = fields.count > 1 ? BrainVisionText.unescaped(fields[1]) : ""
                let resolutionText = fields.count > 2 ? fields[2].trimmingCharacters(in: .whitespaces) : ""
                var resolution = 1.0
                if !resolutionText.isEmpty {
                    guard let value = Double(resolutionText), value.isFinite, value != 0 else {
                        throw .badValue(
                            line: entry.line, key: "Ch\(number)", value: entry.value,
                            reason: "the resolution \"\(resolutionText)\" is not a finite number other than 0")
                    }
                    resolution = value
                }
                // The specification: an absent or empty unit is µV. `n/a` (MNE's and pybv's "no unit") is none.
                var unit =
                    fields.count > 3 ? BrainVisionText.unescaped(fields[3]).trimmingCharacters(in: .whitespaces) : ""
                if unit.isEmpty { unit = "µV" }
                if unit == "n/a" { unit = "" }
                let range: ClosedRange<Double>? =
                    switch format {
                    case .int16: Self.range(-32_768, 32_767, resolution)
                    case .int32: Self.range(-2_147_483_648, 2_147_483_647, resolution)
                    case .float32: nil
                    }
                parsed.append(
                    Channel(
                        info: ChannelInfo(label: name.isEmpty ? "Ch\(number)" : name, unit: unit, range: range),
                        reference: reference, resolution: resolution))
            }
            self.channels = parsed
        }

        /// The physical range of a coded range.
        private static func range(_ low: Double, _ high: Double, _ resolution: Double) -> ClosedRange<Double> {
            let a = low * resolution
            let b = high * resolution
            return min(a, b)...max(a, b)
        }

        /// Frames in a data file of `dataBytes` bytes; reports a cut with `warn` (or throws without
        /// `keepsCompleteFrames`).
        func frameCount(
            dataBytes: Int, keepsCompleteFrames: Bool, warn: (String) -> Void
        ) throws(BrainVisionProblem) -> Int {
            let frameBytes = channelCount * binaryFormat.width
            let whole = dataBytes / frameBytes
            if isVectorized {
                // Channel-major: without every channel's every sample the channels cannot be told apart.
                let points = dataPoints ?? whole
                // `points <= whole` first: a lying DataPoints never overflows the product.
                guard points <= whole, dataPoints != nil || dataBytes % frameBytes == 0 else {
                    let (claimed, overflow) = points.multipliedReportingOverflow(by: frameBytes)
                    throw .truncated(
                        expectedBytes: dataPoints == nil ? (whole + 1) * frameBytes : (overflow ? Int.max : claimed),
                        actualBytes: dataBytes, completeFrames: 0)
                }
                let expected = points * frameBytes
                guard points > 0 else { throw .noData(bytes: dataBytes) }
                if dataBytes > expected {
                    warn("the data file has \(dataBytes - expected) bytes after the \(points) samples DataPoints says")
                }
                return points
            }
            guard whole > 0 else { throw .noData(bytes: dataBytes) }
            if dataBytes % frameBytes != 0 || (dataPoints.map { $0 > whole } ?? false) {
                let claimed = (dataPoints ?? 0).multipliedReportingOverflow(by: frameBytes)
                let expected = max((whole + 1) * frameBytes, claimed.overflow ? Int.max : claimed.partialValue)
                guard keepsCompleteFrames else {
                    throw .truncated(expectedBytes: expected, actualBytes: dataBytes, completeFrames: whole)
                }
                warn(
                    "data file truncated: \(dataBytes) bytes of the \(expected) expected; read the \(whole) complete "
                        + "frames, dropped \(dataBytes - whole * frameBytes) bytes")
            } else if let points = dataPoints, points != whole {
                warn("DataPoints says \(points) samples but the data file holds \(whole); read \(whole)")
            }
            return whole
        }

        /// The samples of `frames` frames, frame-major, each coded number × its channel's resolution.
        func decode(_ data: [UInt8], frames: Int) -> [Double] {
            let channels = channelCount
            let width = binaryFormat.width
            let resolutions = self.channels.map(\.resolution)
            var values = [Double](repeating: 0, count: frames * channels)
            data.withUnsafeBytes { raw in
                values.withUnsafeMutableBufferPointer { out in
                    for frame in 0..<frames {
                        for channel in 0..<channels {
                            let sample = isVectorized ? channel * frames + frame : frame * channels + channel
                            let offset = sample * width
                            let coded: Double
                            switch binaryFormat {
                            case .int16:
                                let stored = raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
                                let bits = isBigEndian ? UInt16(bigEndian: stored) : UInt16(littleEndian: stored)
                                coded = Double(Int16(bitPattern: bits))
                            case .int32:
                                let stored = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                                let bits = isBigEndian ? UInt32(bigEndian: stored) : UInt32(littleEndian: stored)
                                coded = Double(Int32(bitPattern: bits))
                            case .float32:
                                let stored = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                                let bits = isBigEndian ? UInt32(bigEndian: stored) : UInt32(littleEndian: stored)
                                coded = Double(Float(bitPattern: bits))
                            }
                            out[frame * channels + channel] = coded * resolutions[channel]
                        }
                    }
                }
            }
            return values
        }
    }
}
