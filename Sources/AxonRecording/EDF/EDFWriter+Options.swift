extension EDFWriter {
    /// Which of the two sister formats to write.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// EDF+ (`EDF+C`): 16-bit little-endian samples, digital range −32767…32767.
        case edfPlus
        /// BDF+ (`BDF+C`): 24-bit little-endian samples, digital range −8388607…8388607.
        case bdfPlus

        /// Bytes per sample.
        public var bytesPerSample: Int { self == .edfPlus ? 2 : 3 }
        /// The largest digital value written; the digital range is symmetric (`-digitalMaximum…digitalMaximum`), so
        /// physical 0 sits on a digital integer for symmetric physical ranges.
        public var digitalMaximum: Int { self == .edfPlus ? 32767 : 8_388_607 }
        /// The physical range of a channel that declares none: ±3276.7 (0.1 per step) for EDF, ±838860 (about 0.1 per
        /// step) for BDF.
        public var defaultRange: ClosedRange<Double> { self == .edfPlus ? -3276.7...3276.7 : -838_860...838_860 }
        /// The file extension (`edf`, `bdf`).
        public var fileExtension: String { self == .edfPlus ? "edf" : "bdf" }
        /// The label of the file's annotation signal (`EDF Annotations`, `BDF Annotations`), which no data channel
        /// may have: readers would take its samples for annotations.
        public var annotationLabel: String { self == .edfPlus ? "EDF Annotations" : "BDF Annotations" }
    }

    /// What `close()` does with a last data record that is only partly filled.
    public enum FinalRecord: Sendable, Hashable {
        /// Pad it by repeating each channel's last value, so no sample is lost (the file's duration rounds up to
        /// whole records; ``EDFWriter/paddedSamples`` says by how many samples).
        case padWithLastValue
        /// Drop it: the file holds only whole records of real samples.
        case drop
    }

    /// The EDF+ patient identification (`code sex birthdate name`). Spaces inside a field become `_`; an empty
    /// field is written as `X` (unknown).
    public struct Patient: Sendable, Hashable {
        /// Hospital administration code.
        public var code: String
        /// `M`, `F` or `X`.
        public var sex: String
        /// `dd-MMM-yyyy` (`02-AUG-1951`) or `X`.
        public var birthdate: String
        /// Name (`Haagse_Harry`) or `X`.
        public var name: String
        /// Creates a patient identification; every field defaults to unknown.
        public init(code: String = "X", sex: String = "X", birthdate: String = "X", name: String = "X") {
            self.code = code
            self.sex = sex
            self.birthdate = birthdate
            self.name = name
        }
    }

    /// Settings of a writer.
    public struct Options: Sendable, Hashable {
        /// EDF+ or BDF+.
        public var format: Format
        /// Seconds per data record (1 by default); rate × duration must be a whole number of samples.
        public var recordDuration: Double
        /// Data records between two header updates (record count rewritten, then `fsync`); 1 by default. A killed
        /// process leaves a file whose header counts every record up to the last update; records appended after it
        /// are complete on disk too (MNE reads them, pyedflib/EDFlib stop at the count).
        public var flushInterval: Int
        /// `fsync` at each header update (default). `false` still rewrites the count, which survives a killed
        /// process but not a power loss.
        public var synchronizes: Bool
        /// Annotation bytes per data record (the `EDF Annotations` signal), including the time-keeping TAL. The
        /// default, 672, holds about ten short annotations; more spill to the next record, never lost.
        public var annotationBytesPerRecord: Int
        /// Physical range per channel, overriding the descriptor's `ChannelInfo.range`; `nil` entries (or a
        /// shorter array) fall back to the descriptor, then to ``defaultRange``.
        public var ranges: [ClosedRange<Double>?]
        /// The range of channels that declare none (``Format/defaultRange`` unless set).
        public var defaultRange: ClosedRange<Double>?
        /// Transducer type of every channel (`AgAgCl electrode`); empty by default.
        public var transducer: String
        /// Prefiltering of every channel (`HP:0.1Hz LP:75Hz`); empty by default.
        public var prefiltering: String
        /// Prefiltering per channel, in the descriptor's order, where channels differ (a recording whose streams
        /// were filtered differently); empty (default): ``prefiltering`` for every channel.
        public var channelPrefiltering: [String] = []
        /// Patient identification.
        public var patient: Patient
        /// EDF+ recording identification after the start date: admin code, technician, equipment (`X` unknown;
        /// equipment defaults to the stream's name).
        public var adminCode: String
        /// The technician's name or code.
        public var technician: String
        /// The equipment; `nil` writes the stream descriptor's name.
        public var equipment: String?
        /// The text of the annotation written at onset 0; `nil` writes none.
        public var startAnnotation: String?
        /// The last partial record at `close()`.
        public var finalRecord: FinalRecord
        /// Whether the start time is the recording's own (default). `false` writes EDF+'s "start date unknown":
        /// `Startdate X` in the recording identification and 01.01.85 00.00.00 (the format's earliest) in the
        /// header, for a recording whose source gives no date; ``EDFFileReader`` reads such a file without
        /// timestamps.
        public var startDateIsKnown = true
        /// Each channel's rate in Hz, when the channels do not all have the descriptor's nominal rate (a file's
        /// signals at several rates, EDF allows it: each has its own number of samples per record); `nil`: every
        /// channel at the nominal rate. Such a writer takes whole records (``EDFWriter/appendRecord(_:)``) only.
        public var channelRates: [Double]?
        /// De-identification (``Anonymization``): EDF+'s anonymous patient field `X X X X`, the recording field
        /// `Startdate <date> X X X` with the date moved by ``Anonymization/shiftDays`` (in the header's start date
        /// too), and annotations dropped unless kept (Axon's own gap and start annotations stay). `nil` (default)
        /// writes the fields above as given. ``EDFWriter/startUnixTime`` stays the real start: onsets are relative.
        public var anonymization: Anonymization?

        /// Creates options; see the properties for each default.
        public init(
            format: Format = .edfPlus, recordDuration: Double = 1, flushInterval: Int = 1, synchronizes: Bool = true,
            annotationBytesPerRecord: Int = 672, ranges: [ClosedRange<Double>?] = [],
            defaultRange: ClosedRange<Double>? = nil, transducer: String = "", prefiltering: String = "",
            patient: Patient = .init(), adminCode: String = "X", technician: String = "X", equipment: String? = nil,
            startAnnotation: String? = "Recording starts", finalRecord: FinalRecord = .padWithLastValue
        ) {
            self.format = format
            self.recordDuration = recordDuration
            self.flushInterval = flushInterval
            self.synchronizes = synchronizes
            self.annotationBytesPerRecord = annotationBytesPerRecord
            self.ranges = ranges
            self.defaultRange = defaultRange
            self.transducer = transducer
            self.prefiltering = prefiltering
            self.patient = patient
            self.adminCode = adminCode
            self.technician = technician
            self.equipment = equipment
            self.startAnnotation = startAnnotation
            self.finalRecord = finalRecord
        }
    }
}
