import ArgumentParser
import AxonRecording

/// `--anonymize [--shift-days N] [--keep-annotations]`, shared by `axon record` and `axon convert`
/// (``Anonymization``; docs/security.md, "Files").
struct AnonymizeOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Write no one's identity: EDF+/BDF+ patient and recording fields X (the date kept), XDF headers without "
                + "host or device, Axon CSV without the source's header fields; annotations and markers dropped."))
    var anonymize = false

    @Option(
        help: ArgumentHelp(
            "With --anonymize: move every date by N days (negative: --shift-days=-N).", valueName: "N"))
    var shiftDays: Int?

    @Flag(help: "With --anonymize: keep annotations and markers (their text may name a person).")
    var keepAnnotations = false

    func validate() throws {
        if !anonymize, shiftDays != nil || keepAnnotations {
            throw ValidationError("--shift-days and --keep-annotations go with --anonymize")
        }
        if let shiftDays, abs(shiftDays) > 36_500 {
            throw ValidationError("--shift-days must be within ±36500 days (100 years)")
        }
    }

    /// The de-identification asked for, or nil.
    var value: Anonymization? {
        anonymize ? Anonymization(shiftDays: shiftDays ?? 0, keepsAnnotations: keepAnnotations) : nil
    }

    /// EDF+/BDF+ writer options with the de-identification asked for.
    func applied(to options: EDFWriter.Options) -> EDFWriter.Options {
        var options = options
        options.anonymization = value
        return options
    }

    /// A line saying what was de-identified, or nil without `--anonymize`.
    var summary: String? {
        guard let value else { return nil }
        return "  anonymized: no patient, recording, host or device fields; dates "
            + (value.shiftDays == 0 ? "kept" : "moved by \(value.shiftDays) days") + "; annotations "
            + (value.keepsAnnotations ? "kept" : "dropped")
    }
}
