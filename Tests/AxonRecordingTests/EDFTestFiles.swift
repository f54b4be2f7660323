import Foundation

@testable import AxonRecording

/// Builds small EDF/BDF files byte by byte (an independent writer for tests) and parses the PhysioNet file's header
/// the simple way, for cross-checks against EDFlib.
enum EDFTestFiles {
    struct Signal {
        var label: String
        var samplesPerRecord: Int
        var digital: ClosedRange<Int>
        var physical: ClosedRange<Double>
        var unit = "uV"
    }

    /// The PhysioNet EDF+ file (64 EEG signals at 160 Hz + annotations, 61 records of 1 s).
    static let physioNetPath = TestData.root.appendingPathComponent("datasets/physionet-eegmmidb/S001R01.edf").path

    /// A header field, padded with spaces to `width`.
    static func pad(_ text: String, _ width: Int) -> [UInt8] {
        Array((text + String(repeating: " ", count: max(0, width - text.count))).utf8.prefix(width))
    }

    /// A plain EDF (or BDF) file; sample `s` of signal `i` in record `r` is `digital(i, r, s)`.
    static func make(
        bdf: Bool = false, signals: [Signal], records: Int, recordDuration: String = "1",
        digital: (Int, Int, Int) -> Int
    ) -> [UInt8] {
        let ns = signals.count
        var out: [UInt8] = bdf ? [0xFF] + Array("BIOSEMI".utf8) : pad("0", 8)
        out += pad("X X X X", 80) + pad("Startdate 01-JAN-2020 X X X", 80) + pad("01.01.20", 8) + pad("10.20.30", 8)
        out += pad("\(256 * (ns + 1))", 8) + pad(bdf ? "24BIT" : "", 44) + pad("\(records)", 8)
        out += pad(recordDuration, 8) + pad("\(ns)", 4)
        out += signals.flatMap { pad($0.label, 16) }
        out += signals.flatMap { _ in pad("AgAgCl electrode", 80) }
        out += signals.flatMap { pad($0.unit, 8) }
        out += signals.flatMap { pad(number($0.physical.lowerBound), 8) }
        out += signals.flatMap { pad(number($0.physical.upperBound), 8) }
        out += signals.flatMap { pad("\($0.digital.lowerBound)", 8) }
        out += signals.flatMap { pad("\($0.digital.upperBound)", 8) }
        out += signals.flatMap { _ in pad("HP:0.1Hz", 80) }
        out += signals.flatMap { pad("\($0.samplesPerRecord)", 8) }
        out += signals.flatMap { _ in pad("", 32) }
        for record in 0..<records {
            for (index, signal) in signals.enumerated() {
                for sample in 0..<signal.samplesPerRecord {
                    let value = UInt32(bitPattern: Int32(digital(index, record, sample)))
                    out.append(UInt8(value & 0xFF))
                    out.append(UInt8((value >> 8) & 0xFF))
                    if bdf { out.append(UInt8((value >> 16) & 0xFF)) }
                }
            }
        }
        return out
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    /// The header of an EDF file parsed independently of the reader: per ordinary signal its label, digital and
    /// physical range and samples per record, plus the record layout.
    struct SimpleHeader {
        var headerBytes: Int
        var records: Int
        var labels: [String]
        var digitalMin: [Int]
        var digitalMax: [Int]
        var physicalMin: [Double]
        var physicalMax: [Double]
        var samplesPerRecord: [Int]
        var recordBytes: Int { samplesPerRecord.reduce(0, +) * 2 }

        init(_ bytes: [UInt8]) {
            func field(_ offset: Int, _ width: Int) -> String {
                String(decoding: bytes[offset..<(offset + width)], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            let ns = Int(field(252, 4))!
            headerBytes = Int(field(184, 8))!
            records = Int(field(236, 8))!
            labels = (0..<ns).map { field(256 + 16 * $0, 16) }
            physicalMin = (0..<ns).map { Double(field(256 + 104 * ns + 8 * $0, 8))! }
            physicalMax = (0..<ns).map { Double(field(256 + 112 * ns + 8 * $0, 8))! }
            digitalMin = (0..<ns).map { Int(field(256 + 120 * ns + 8 * $0, 8))! }
            digitalMax = (0..<ns).map { Int(field(256 + 128 * ns + 8 * $0, 8))! }
            samplesPerRecord = (0..<ns).map { Int(field(256 + 216 * ns + 8 * $0, 8))! }
        }

        /// Physical value of sample `n` (from the file's start) of signal `signal`, decoded from the raw bytes.
        func value(_ bytes: [UInt8], signal: Int, sample n: Int) -> Double {
            let perRecord = samplesPerRecord[signal]
            let record = n / perRecord
            let before = samplesPerRecord[..<signal].reduce(0, +)
            let offset = headerBytes + record * recordBytes + 2 * (before + n % perRecord)
            let digital = Double(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8))
            let dmin = Double(digitalMin[signal])
            let dmax = Double(digitalMax[signal])
            return (digital - dmin) * (physicalMax[signal] - physicalMin[signal]) / (dmax - dmin) + physicalMin[signal]
        }
    }

    /// Writes `bytes` to a fresh temporary file and returns its path.
    static func temporaryFile(_ bytes: [UInt8], suffix: String = ".edf") throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "axon-test-\(UUID().uuidString)\(suffix)")
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Overwrites the header field at `offset` (width `width`) of a copy of `bytes` with `text`.
    static func patch(_ bytes: [UInt8], at offset: Int, width: Int, with text: String) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(offset..<(offset + width), with: pad(text, width))
        return copy
    }
}
