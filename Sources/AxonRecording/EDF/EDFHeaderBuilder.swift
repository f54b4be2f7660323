import AxonStreams
import Foundation

/// The EDF+/BDF+ header of a writer: fixed ASCII fields, built once at open.
///
/// Threading: a value type; built and used by the writer's owning thread.
struct EDFHeaderBuilder {
    /// One data signal's scaling, as the header states it (physical values parsed back from the written text, so
    /// the writer scales exactly as readers unscale).
    struct Scaling {
        var physicalMinimum: Double
        var physicalMaximum: Double
        var digitalMinimum: Int
        var digitalMaximum: Int
        /// digital = physical × gain + offset.
        var gain: Double { Double(digitalMaximum - digitalMinimum) / (physicalMaximum - physicalMinimum) }
        var offset: Double { Double(digitalMinimum) - physicalMinimum * gain }
    }

    /// 1985-01-01 00:00:00 UTC, the earliest start EDF's two-digit year can say (and the date written for an
    /// unknown start).
    static let earliestStart = 473_385_600.0
    /// 2085-01-01 00:00:00 UTC: the first start EDF's two-digit year cannot say.
    static let latestStart = 3_629_059_200.0

    /// Byte offset of the "number of data records" field.
    static let recordCountOffset = 236
    /// Width of the "number of data records" field.
    static let recordCountWidth = 8

    var bytes: [UInt8]
    var scalings: [Scaling]
    /// Samples per record of each channel (all equal unless ``EDFWriter/Options/channelRates`` says otherwise).
    var samplesPerRecord: [Int]
    var annotationSamples: Int
    /// Whether the header states the start (else EDF+'s unknown start date; see ``EDFWriter/Options``).
    var startIsKnown: Bool

    init(
        descriptor: StreamDescriptor, options: EDFWriter.Options, startUnixTime: Double
    ) throws(EDFWriterError) {
        let format = options.format
        guard descriptor.isRegular else { throw .unsupportedStream(reason: "it has no nominal rate (irregular)") }
        guard descriptor.channelCount >= 1 else { throw .unsupportedStream(reason: "it has no channels") }
        guard descriptor.channelCount < 9999 else { throw .unsupportedStream(reason: "more than 9998 channels") }
        let duration = options.recordDuration
        guard duration.isFinite, duration > 0 else { throw .invalidOption(reason: "record duration must be > 0") }
        guard options.flushInterval >= 1 else { throw .invalidOption(reason: "flush interval must be ≥ 1 record") }
        let rates = options.channelRates ?? Array(repeating: descriptor.nominalRate, count: descriptor.channelCount)
        guard rates.count == descriptor.channelCount else {
            throw .invalidOption(reason: "\(rates.count) channel rates for \(descriptor.channelCount) channels")
        }
        var perChannel: [Int] = []
        for rate in rates {
            let exact = rate * duration
            let samples = exact.rounded()
            guard samples >= 1, abs(exact - samples) < 1e-6 else {
                throw .nonIntegerSamplesPerRecord(rate: rate, recordDuration: duration)
            }
            perChannel.append(Int(samples))
        }
        let annotationBytes = options.annotationBytesPerRecord
        guard annotationBytes >= 64 else { throw .invalidOption(reason: "annotation bytes per record must be ≥ 64") }
        samplesPerRecord = perChannel
        annotationSamples = (annotationBytes + format.bytesPerSample - 1) / format.bytesPerSample
        guard startUnixTime.isFinite, startUnixTime >= 0 else {
            throw .invalidOption(reason: "start time \(startUnixTime) is not a Unix time")
        }
        // EDF's two-digit year reads 85…99 as 19xx and 00…84 as 20xx: a start outside 1985…2084 (a count of
        // seconds from a device's power-on, say) would be read back as another century, and EDFlib refuses a header
        // date that disagrees with the EDF+ Startdate. Such a start, or one the caller marks unknown, is written as
        // EDF+'s unknown start date.
        // Anonymized, the header states the start moved by whole days (the time of day and its fraction stay).
        let anonymization = options.anonymization
        let shownStart = anonymization.shifted(startUnixTime)
        startIsKnown = options.startDateIsKnown && shownStart >= Self.earliestStart && shownStart < Self.latestStart

        var scalings: [Scaling] = []
        for (index, channel) in descriptor.channels.enumerated() {
            let declared = index < options.ranges.count ? options.ranges[index] : nil
            let range = declared ?? channel.range ?? options.defaultRange ?? format.defaultRange
            guard let low = Self.field(range.lowerBound, roundingUp: false),
                let high = Self.field(range.upperBound, roundingUp: true), let lowValue = Double(low),
                let highValue = Double(high), lowValue < highValue
            else { throw .invalidRange(channel: channel.label, range: "\(range)") }
            scalings.append(Scaling(
                physicalMinimum: lowValue, physicalMaximum: highValue, digitalMinimum: -format.digitalMaximum,
                digitalMaximum: format.digitalMaximum))
        }
        self.scalings = scalings

        let signals = descriptor.channelCount + 1
        var header = [UInt8]()
        header.reserveCapacity(256 * (signals + 1))
        func put(_ text: String, _ width: Int) {
            var ascii = Array(Self.ascii(text).utf8.prefix(width))
            ascii.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width - ascii.count))
            header.append(contentsOf: ascii)
        }
        let start = Date(timeIntervalSince1970: startIsKnown ? shownStart.rounded(.down) : Self.earliestStart)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: start)
        let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let year = parts.year ?? 1985
        // Anonymized: every identification subfield unknown (`X`), as the EDF+ specification's anonymous file.
        let patient = anonymization == nil ? options.patient : EDFWriter.Patient()
        let equipment = anonymization == nil ? options.equipment ?? descriptor.name : "X"
        let adminCode = anonymization == nil ? options.adminCode : "X"
        let technician = anonymization == nil ? options.technician : "X"

        if format == .bdfPlus {
            header.append(0xFF)
            put("BIOSEMI", 7)
        } else {
            put("0", 8)
        }
        put([patient.code, patient.sex, patient.birthdate, patient.name].map(Self.subfield).joined(separator: " "), 80)
        let startdate = "\(two(parts.day))-\(months[(parts.month ?? 1) - 1])-\(year)"
        put(["Startdate", startIsKnown ? startdate : "X", Self.subfield(adminCode),
             Self.subfield(technician),
             Self.subfield(equipment)].joined(separator: " "), 80)
        put("\(two(parts.day)).\(two(parts.month)).\(two(year % 100))", 8)
        put("\(two(parts.hour)).\(two(parts.minute)).\(two(parts.second))", 8)
        put("\(256 * (signals + 1))", 8)
        put(format == .edfPlus ? "EDF+C" : "BDF+C", 44)
        put("-1", 8)
        guard let durationText = Self.field(duration, roundingUp: false), Double(durationText) == duration else {
            throw .invalidOption(reason: "record duration \(duration) s does not fit 8 characters exactly")
        }
        put(durationText, 8)
        put("\(signals)", 4)

        let channels = descriptor.channels
        let annotationLabel = format.annotationLabel
        if let reserved = channels.first(where: { Self.ascii($0.label).trimmingCharacters(in: .whitespaces) == annotationLabel }) {
            throw .unsupportedStream(
                reason: "channel \"\(reserved.label)\" has the label \(format == .edfPlus ? "EDF+" : "BDF+") gives its "
                    + "annotation signal, so readers would take its samples for annotations")
        }
        for channel in channels { put(channel.label, 16) }
        put(annotationLabel, 16)
        for _ in channels { put(options.transducer, 80) }
        put("", 80)
        for channel in channels { put(channel.unit, 8) }
        put("", 8)
        for scaling in scalings { put(Self.field(scaling.physicalMinimum, roundingUp: false)!, 8) }
        put("-1", 8)
        for scaling in scalings { put(Self.field(scaling.physicalMaximum, roundingUp: true)!, 8) }
        put("1", 8)
        for scaling in scalings { put("\(scaling.digitalMinimum)", 8) }
        put(format == .edfPlus ? "-32768" : "-8388608", 8)
        for scaling in scalings { put("\(scaling.digitalMaximum)", 8) }
        put(format == .edfPlus ? "32767" : "8388607", 8)
        for index in channels.indices {
            let own = options.channelPrefiltering
            put(index < own.count ? own[index] : options.prefiltering, 80)
        }
        put("", 80)
        for samples in perChannel { put("\(samples)", 8) }
        put("\(annotationSamples)", 8)
        for _ in 0..<signals { put("", 32) }
        precondition(header.count == 256 * (signals + 1), "EDF header size")
        bytes = header
    }

    /// `value` as at most 8 characters, rounded towards −∞ (or +∞ with `roundingUp`) at the last decimal kept;
    /// `nil` when not finite or too large.
    static func field(_ value: Double, roundingUp: Bool) -> String? {
        guard value.isFinite else { return nil }
        for decimals in stride(from: 6, through: 0, by: -1) {
            let scale = pow(10, Double(decimals))
            let scaled = value * scale
            // Values already exact at this precision keep it; others round outward.
            let nearest = scaled.rounded()
            let outward = roundingUp ? scaled.rounded(.up) : scaled.rounded(.down)
            let integral = abs(scaled - nearest) < 1e-6 ? nearest : outward
            var text = String(format: "%.\(decimals)f", integral / scale)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            if text == "-0" { text = "0" }
            if text.utf8.count <= 8 { return text }
        }
        return nil
    }

    /// ASCII for a header field: `µ`/`μ` become `u`, `°` becomes `deg`, other non-printable or non-ASCII
    /// characters `_`.
    static func ascii(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{B5}", "\u{3BC}": result += "u"
            case "\u{B0}": result += "deg"
            default:
                let printable = scalar.isASCII && scalar.value >= 32 && scalar.value < 127
                result.unicodeScalars.append(printable ? scalar : "_")
            }
        }
        return result
    }

    /// An EDF+ identification subfield: spaces become `_`, empty becomes `X`.
    static func subfield(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "X" : trimmed.replacingOccurrences(of: " ", with: "_")
    }
}
