import AxonStreams

/// Reads the CSV files the Mind Monitor app exports from a Muse headband.
///
/// The format: a header row naming the columns, then rows stamped with the phone's local time:
///
///     TimeStamp,Delta_TP9,…,Gamma_TP10,RAW_TP9,RAW_AF7,RAW_AF8,RAW_TP10,AUX_RIGHT,…,Battery,Elements
///     2017-02-04 15:45:16.483,2.539158,…,-44.922,30.273,35.645,39.062,17.090,…,74,
///     2017-02-04 15:45:16.490,,,,…,,/Marker/1
///
/// A row is one of three kinds, told apart by which fields are filled: a RAW row (the four `RAW_` columns: one EEG
/// sample at 256 Hz, in µV, usually carrying the latest band powers too), a band-power row (the 20
/// `<Band>_<electrode>` columns only: absolute band powers in Bels, log10 of µV², updated about once a second — a
/// "band powers only" export has nothing else), and an `Elements` row (everything empty but the text:
/// `/muse/elements/blink`, `/muse/elements/jaw_clench`, `/Marker/1`…`/Marker/4`, `/muse/event/connected Muse-7A1B`).
/// Columns are found by name, so both the 2017 list (`AUX_RIGHT,Mellow,Concentration,…`) and later ones
/// (`AUX_RIGHT,AUX_LEFT,…`) read.
///
/// What the reader makes of it (``MindMonitorFile``):
///
/// | rows | stream |
/// |---|---|
/// | RAW rows | ``MindMonitorFile/eeg``: `TP9`, `AF7`, `AF8`, `TP10` in µV at 256 Hz, with each row's time |
/// | band powers | ``MindMonitorFile/bandPowers``: an irregular stream of 20 channels (`Delta_TP9` … `Gamma_TP10`, unit `B`), one sample per *change* of the values (RAW rows repeat the last update; the repeats are not samples), stamped with the row where it first appears; its nominal rate is the mean rate rounded to whole hertz (or one sample per whole seconds below 1 Hz), so it converts to EDF+ records, while ``Recording/timestamps`` keep the real times |
/// | `Elements` | ``MindMonitorFile/elements`` (events with their times) and, on both streams, markers with the text at the first sample stamped at or after them |
/// | accelerometer, gyro, AUX, HSI, HeadBandOn, Mellow/Concentration | not kept; the battery's first and last values go to the metadata |
///
/// ``RecordingReader`` returns ``MindMonitorFile/recording``: the EEG when the file has RAW rows, else the band
/// powers, with the other stream summarised in `metadata["mindMonitor.bandPowers"]` / `["mindMonitor.eeg"]`.
///
/// **Time.** `TimeStamp` (`yyyy-MM-dd HH:mm:ss.SSS`) is the phone's local time with no zone; the reader takes it as
/// UTC and says so in `metadata["timeZone"]`. Times are exact to the millisecond (`15:45:16.483` →
/// `1486223116.483`, the same `Double` as parsing that decimal).
///
/// Variants taken as the app writes them: columns in any order and extra columns (found by name); rows that leave
/// off trailing empty fields (a 2020 Muse S export's rows stop before the empty `Elements` column: 38 fields under a
/// header of 39) or carry extra empty ones; a UTF-8 BOM; CRLF line ends.
///
/// Bad input: no `TimeStamp` column, or neither the four RAW nor the 20 band columns →
/// ``RecordingError/missingHeader(line:expected:)``; a row with extra non-empty fields, a bad time, a non-number in
/// a kept column, or only some RAW columns filled → ``RecordingError/malformedRow(line:reason:)``; a last row cut
/// off (or short and without its line end) → the rows before it and ``Recording/truncation``; no RAW and no
/// band-power rows → `missingHeader`.
///
/// Threading: an immutable value; `read` may run on any thread, concurrently.
public struct MindMonitorCSVReader: Sendable {
    /// The Muse electrodes, in Mind Monitor's column order.
    public static let electrodes = ["TP9", "AF7", "AF8", "TP10"]
    /// The bands, in Mind Monitor's column order.
    public static let bands = ["Delta", "Theta", "Alpha", "Beta", "Gamma"]
    /// The RAW EEG rate.
    public static let eegRate = 256.0
    /// The range the band-power channels declare, in Bels: wide enough for any absolute band power (10^-10 to
    /// 10^10 µV²) and, as an EDF physical range, 0.0003 B per 16-bit step (the default ±3276.7 would be 0.1 B).
    public static let bandPowerRange = -10.0...10.0

    /// Creates a reader.
    public init() {}

    /// Whether a header row is Mind Monitor's: a `TimeStamp` column (first in every export seen, but found by
    /// name), and a `RAW_TP9` or `Delta_TP9` column.
    static func isHeader(_ line: String) -> Bool {
        let names = line.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
        guard names.contains(where: { $0.caseInsensitiveEquals("TimeStamp") }) else { return false }
        return names.contains { $0.caseInsensitiveEquals("RAW_TP9") || $0.caseInsensitiveEquals("Delta_TP9") }
    }

    /// Reads a file.
    ///
    /// - Throws: ``RecordingError``.
    /// - Complexity: O(file size).
    public func read(path: String) throws(RecordingError) -> MindMonitorFile {
        let bytes = try RecordingFile.readAll(path: path)
        return try read(bytes: bytes, sourceName: RecordingFile.fileName(of: path))
    }

    /// Reads a file's contents; `sourceName` names the data in the descriptors (`sourceID` `file:<sourceName>`).
    public func read(bytes: [UInt8], sourceName: String = "mindmonitor") throws(RecordingError) -> MindMonitorFile {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) -> MindMonitorFile in
            try parse(buffer, sourceName: sourceName)
        }
    }

    private enum Role: Equatable {
        case time, raw(Int), band(Int), elements, battery, ignored
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, sourceName: String) throws(RecordingError)
        -> MindMonitorFile
    {
        var cursor = LineCursor(bytes)
        guard let header = cursor.next(), Self.isHeader(cursor.text(of: header)), let base = bytes.baseAddress else {
            throw .unsupportedFormat(firstLine: LineCursor.firstLine(of: bytes))
        }
        let names = cursor.text(of: header).split(separator: ",", omittingEmptySubsequences: false)
            .map { trimmed(String($0)) }
        var roles = [Role](repeating: .ignored, count: names.count)
        let bandNames = Self.bands.flatMap { band in Self.electrodes.map { band + "_" + $0 } }
        for (column, name) in names.enumerated() {
            if name.caseInsensitiveEquals("TimeStamp") {
                roles[column] = .time
            } else if name.caseInsensitiveEquals("Elements") {
                roles[column] = .elements
            } else if name.caseInsensitiveEquals("Battery") {
                roles[column] = .battery
            } else if let raw = Self.electrodes.firstIndex(where: { name.caseInsensitiveEquals("RAW_" + $0) }) {
                roles[column] = .raw(raw)
            } else if let band = bandNames.firstIndex(where: { name.caseInsensitiveEquals($0) }) {
                roles[column] = .band(band)
            }
        }
        let rawCount = roles.filter { if case .raw = $0 { return true } else { return false } }.count
        let bandCount = roles.filter { if case .band = $0 { return true } else { return false } }.count
        guard roles.contains(.time) else {
            throw .missingHeader(line: header.number, expected: "a \"TimeStamp\" column")
        }
        guard rawCount == 4 || bandCount == 20 else {
            throw .missingHeader(
                line: header.number,
                expected:
                    "the columns RAW_TP9, RAW_AF7, RAW_AF8, RAW_TP10 or all 20 band columns (Delta_TP9 … Gamma_TP10)")
        }

        var eegValues: [Double] = []
        var eegTimes: [Double] = []
        var bandValues: [Double] = []
        var bandTimes: [Double] = []
        var elements: [EventSample<String>] = []
        var batteryFirst: Double?
        var batteryLast: Double?
        var warnings: [String] = []
        var truncation: RecordingTruncation?
        var partialBandRows = 0
        var raw = [Double](repeating: .nan, count: 4)
        var band = [Double](repeating: .nan, count: 20)
        var starts = [Int](repeating: 0, count: names.count)
        var ends = [Int](repeating: 0, count: names.count)

        rows: while let line = cursor.next() {
            if cursor.isBlank(line) { continue }
            // Field boundaries without copying.
            var fieldCount = 0
            var start = line.start
            var failure: String?
            var extraFilled = false
            while true {
                var end = start
                while end < line.end && base[end] != UInt8(ascii: ",") { end += 1 }
                if fieldCount < names.count {
                    starts[fieldCount] = start
                    ends[fieldCount] = end
                } else if !Self.isEmpty(base, from: start, to: end) {
                    extraFilled = true
                }
                fieldCount += 1
                if end >= line.end { break }
                start = end + 1
            }
            if fieldCount < names.count {
                // Mind Monitor leaves off trailing empty fields (a 2020 export's rows end before an empty
                // `Elements`): on a complete line the missing fields are empty. A last line without its terminator
                // may be cut anywhere, so there a short row is a cut row.
                if line.isTerminated {
                    for column in fieldCount..<names.count {
                        starts[column] = line.end
                        ends[column] = line.end
                    }
                } else {
                    failure = "\(fieldCount) fields where the header has \(names.count)"
                }
            } else if extraFilled {
                failure = "\(fieldCount) fields where the header has \(names.count), and the extra ones are not empty"
            }
            var time = Double.nan
            var rawFilled = 0
            var bandFilled = 0
            var element: String?
            var battery: Double?
            if failure == nil {
                for column in 0..<names.count where roles[column] != .ignored {
                    let from = starts[column]
                    let to = ends[column]
                    let text = {
                        String(decoding: UnsafeBufferPointer(start: base + from, count: to - from), as: UTF8.self)
                    }
                    switch roles[column] {
                    case .time:
                        guard let seconds = Self.parseTime(base, from: from, to: to) else {
                            failure = "TimeStamp \"\(text())\" is not yyyy-MM-dd HH:mm:ss.SSS"
                            break
                        }
                        time = seconds
                    case .elements:
                        let value = trimmed(text())
                        if !value.isEmpty { element = value }
                    case .raw, .band, .battery:
                        var value = Double.nan
                        if !Self.isEmpty(base, from: from, to: to) {
                            guard let number = DecimalParser.parse(base, from: from, to: to) else {
                                failure = "field \(column + 1) (\"\(names[column])\") is \"\(text())\", not a number"
                                break
                            }
                            value = number
                        }
                        switch roles[column] {
                        case .raw(let index):
                            raw[index] = value
                            rawFilled += value.isNaN ? 0 : 1
                        case .band(let index):
                            band[index] = value
                            bandFilled += value.isNaN ? 0 : 1
                        default:
                            if !value.isNaN { battery = value }
                        }
                    case .ignored:
                        break
                    }
                    if failure != nil { break }
                }
            }
            if failure == nil, rawFilled != 0, rawFilled != 4 {
                failure = "\(rawFilled) of the 4 RAW columns are filled (a sample needs all four)"
            }
            if let failure {
                guard !line.isTerminated else { throw .malformedRow(line: line.number, reason: failure) }
                let cut = RecordingTruncation(
                    line: line.number, byteOffset: line.start, droppedBytes: bytes.count - line.start, reason: failure)
                truncation = cut
                warnings.append(cut.description)
                break rows
            }
            if !line.isTerminated {
                warnings.append("line \(line.number): the last row has no line terminator (kept: it is complete)")
            }
            if rawFilled == 4 {
                eegValues.append(contentsOf: raw)
                eegTimes.append(time)
            }
            if bandFilled > 0 {
                if bandFilled < 20 { partialBandRows += 1 }
                let count = bandTimes.count
                let repeated =
                    count > 0
                    && (0..<20).allSatisfy { bandValues[(count - 1) * 20 + $0].bitPattern == band[$0].bitPattern }
                if !repeated {
                    bandValues.append(contentsOf: band)
                    bandTimes.append(time)
                }
            }
            if let element {
                elements.append(
                    EventSample(payload: element, arrivalTime: time, deviceTime: time, counter: UInt64(elements.count)))
            }
            if let battery {
                if batteryFirst == nil { batteryFirst = battery }
                batteryLast = battery
            }
        }

        guard !eegTimes.isEmpty || !bandTimes.isEmpty else {
            throw .missingHeader(line: header.number + 1, expected: "at least one row with RAW or band-power values")
        }
        if partialBandRows > 0 {
            warnings.append("\(partialBandRows) band-power rows had empty fields (NaN in the band-power stream)")
        }
        var common = [
            "file": sourceName, "format": "Mind Monitor CSV",
            "timeZone": "TimeStamp read as UTC (the file has no zone)",
        ]
        if let batteryFirst, let batteryLast {
            common["battery"] = "\(Self.shortest(batteryFirst)) % … \(Self.shortest(batteryLast)) %"
        }
        if let first = elements.first { common["mindMonitor.elements"] = "\(elements.count) (first: \(first.payload))" }

        var eeg: Recording?
        var bandPowers: Recording?
        if !eegTimes.isEmpty {
            var metadata = common
            if let measured = MeasuredRate(timestamps: eegTimes, nominal: Self.eegRate) {
                metadata["measuredRate"] = measured.formatted
                if let warning = measured.warning { warnings.append(warning) }
            }
            if !bandTimes.isEmpty {
                metadata["mindMonitor.bandPowers"] =
                    "\(bandTimes.count) updates of 20 channels (Delta_TP9 … Gamma_TP10), Bels, irregular"
            }
            let descriptor = StreamDescriptor(
                name: "Muse EEG (Mind Monitor RAW)", contentType: .eeg,
                channels: Self.electrodes.map { ChannelInfo(label: $0, unit: "µV") }, nominalRate: Self.eegRate,
                format: .float32, sourceID: "file:\(sourceName)", metadata: metadata)
            eeg = Recording(
                descriptor: descriptor, values: eegValues, timestamps: eegTimes,
                markers: Self.markers(elements, times: eegTimes), warnings: warnings, truncation: truncation)
        }
        if !bandTimes.isEmpty {
            var metadata = common
            let measured = MeasuredRate(timestamps: bandTimes, nominal: 1)
            metadata["irregular"] =
                "one sample per update; mean rate " + (measured.map { $0.formatted + " Hz" } ?? "unknown (one update)")
            if !eegTimes.isEmpty {
                metadata["mindMonitor.eeg"] = "\(eegTimes.count) RAW samples at 256 Hz (TP9, AF7, AF8, TP10)"
            }
            let descriptor = StreamDescriptor(
                name: "Muse band powers (Mind Monitor)", contentType: StreamContentType("BandPower"),
                channels: bandNames.map { ChannelInfo(label: $0, unit: "B", range: Self.bandPowerRange) },
                nominalRate: Self.roundedRate(measured?.rate ?? 1),
                format: .float64, sourceID: "file:\(sourceName)/bands", metadata: metadata)
            bandPowers = Recording(
                descriptor: descriptor, values: bandValues, timestamps: bandTimes,
                markers: Self.markers(elements, times: bandTimes), warnings: eegTimes.isEmpty ? warnings : [],
                truncation: eegTimes.isEmpty ? truncation : nil)
        }
        return MindMonitorFile(eeg: eeg, bandPowers: bandPowers, elements: elements)
    }

    /// Each element as a marker with its text at the first sample stamped at or after it (the last sample if none).
    private static func markers(_ elements: [EventSample<String>], times: [Double]) -> [RecordingMarker] {
        elements.map { element in
            let time = element.deviceTime ?? element.arrivalTime
            var low = 0
            var high = times.count - 1
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < time { low = middle + 1 } else { high = middle }
            }
            return RecordingMarker(frame: low, value: 1, text: element.payload)
        }
    }

    /// A mean rate rounded for a regular container (EDF records of whole samples): whole hertz from 1 Hz up, else
    /// one sample per whole number of seconds.
    static func roundedRate(_ rate: Double) -> Double {
        rate >= 1 ? rate.rounded() : 1 / max(1, (1 / rate).rounded())
    }

    private static func isEmpty(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Bool {
        var index = from
        while index < to {
            if base[index] != UInt8(ascii: " ") && base[index] != UInt8(ascii: "\t")
                && base[index] != UInt8(ascii: "\r")
            {
                return false
            }
            index += 1
        }
        return true
    }

    /// `yyyy-MM-dd HH:mm:ss[.fff]` (the separator may also be `T`) as Unix seconds, taking it as UTC; milliseconds
    /// exact (one division of an integer count of milliseconds).
    static func parseTime(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Double? {
        var index = from
        var end = to
        while index < end, base[index] == UInt8(ascii: " ") { index += 1 }
        while end > index, base[end - 1] == UInt8(ascii: " ") || base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        func number(_ digits: Int) -> Int? {
            guard index + digits <= end else { return nil }
            var value = 0
            for offset in 0..<digits {
                let digit = Int(base[index + offset]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            index += digits
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < end, characters.utf8.contains(base[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect(" T"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var milliseconds = 0
        if index < end {
            guard expect("."), index < end else { return nil }
            var scale = 100
            while index < end {
                let digit = Int(base[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                milliseconds += digit * scale
                scale /= 10
                index += 1
                if scale == 0 { break }
            }
            guard index == end else { return nil }
        }
        let days = CivilDate.days(year: year, month: month, day: day)
        let total = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Double(total * 1000 + milliseconds) / 1000
    }

    private static func shortest(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}

/// What a Mind Monitor CSV file holds: the RAW EEG, the band powers and the `Elements` events
/// (see ``MindMonitorCSVReader``).
///
/// Threading: an immutable value; share freely.
public struct MindMonitorFile: Sendable, Equatable {
    /// TP9, AF7, AF8, TP10 in µV at 256 Hz, with the elements as markers; `nil` for a band-powers-only export.
    public let eeg: Recording?
    /// The absolute band powers (Bels), one sample per update, irregular (``Recording/timestamps`` hold the
    /// times; the nominal rate is the mean rate, rounded); `nil` when the file has none.
    public let bandPowers: Recording?
    /// The `Elements` column's texts with their times (Unix seconds in `deviceTime` and `arrivalTime`).
    public let elements: [EventSample<String>]

    /// The EEG when the file has RAW rows, with the band powers as its companion stream
    /// (``Recording/companions``, so `convert` keeps them), else the band powers alone (the reader guarantees one of
    /// them).
    public var recording: Recording {
        guard let eeg else {
            guard let bandPowers else { preconditionFailure("the reader returns EEG or band powers") }
            return bandPowers
        }
        return eeg.withCompanions(bandPowers.map { [$0] } ?? [])
    }
}
