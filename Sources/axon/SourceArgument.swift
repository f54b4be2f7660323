import ArgumentParser
import AxonDevices

/// The SOURCE of an EEG command from its positional argument, or from a spelling earlier releases took
/// (`--file`, `--source`, `--device`, `--test-sequence`), which still works for one release with a line saying so.
enum SourceArgument {
    /// One of the old spellings: the option's name and its value (`nil`: not given).
    struct Deprecated {
        let option: String
        let value: String?
    }

    /// The one SOURCE given, or `nil` when none was; `--sensor FILE` (`sensor`) is `sensor:FILE`.
    ///
    /// - Throws: `ValidationError` when more than one is given or the text names no source.
    static func resolve(
        _ positional: String?, command: String, announce: Bool = true, sensor: SensorOption? = nil,
        deprecated: [Deprecated] = []
    ) throws
        -> SourceSpecifier?
    {
        let old = deprecated.filter { $0.value != nil }
        let described = sensor?.file.map { "sensor:\($0)" }
        let given = (positional.map { [$0] } ?? []) + (described.map { [$0] } ?? []) + old.compactMap(\.value)
        guard given.count <= 1 else {
            throw ValidationError("give one SOURCE (\(given.joined(separator: ", ")) are \(given.count))")
        }
        for option in old where announce {
            printError(
                "axon \(command): \(option.option) is deprecated and goes in the next release; write the SOURCE as "
                    + "an argument: axon \(command) \(option.value!)")
        }
        guard let text = given.first else { return nil }
        let specifier: SourceSpecifier
        do { specifier = try SourceSpecifier(parsing: text) } catch { throw ValidationError("\(error)") }
        // The old `--device` named devices only: a bare word there is a mistyped device, not a file.
        if old.contains(where: { $0.option == "--device" }), specifier.isPath {
            throw ValidationError("\(text) is no device Axon knows; expected \(SourceSpecifier.forms)")
        }
        return specifier
    }

    /// `--test-sequence HZ` as the SOURCE it now is.
    static func testSequence(_ frequency: Double?) -> String? {
        frequency.map { "test-sequence:\($0)" }
    }
}

/// The line an old option spelling prints while it still works (for one release).
enum Deprecation {
    /// Prints that `option` is deprecated in favour of `replacement`, when it was `given`.
    static func announce(_ option: String, given: Bool, use replacement: String, command: String) {
        guard given else { return }
        printError("axon \(command): \(option) is deprecated and goes in the next release; use \(replacement)")
    }
}

/// `--sensor FILE.json`: a sensor description file as the SOURCE (the same as `sensor:FILE.json`).
struct SensorOption: ParsableArguments {
    @Option(
        name: .customLong("sensor"),
        help: ArgumentHelp(
            "A sensor description file as the SOURCE: its transport, layout and channels (docs/sensors.md; "
                + "examples/sensors/). The same as SOURCE sensor:FILE.json.",
            valueName: "file.json"))
    var file: String?
}
