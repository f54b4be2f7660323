import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// The permission bits of the files a command creates: 0600 unless `--mode` says otherwise.
///
/// EEG is health data, so `axon` starts every command with `umask 077` (``Axon/main()``): whatever a command creates —
/// recordings, conversions, event stores, spools — its owner alone may read, and a directory its owner alone may
/// enter. A command with this option group can widen that for its run: `--mode 0640` lets the file's group read.
/// The writers ask the system for 0644 at most (never executable, never writable by others), so `--mode` can
/// remove bits from 0644 but not add others.
///
/// Threading: `apply()` changes the process's umask; call it once, at the start of `run`, before any file exists.
struct FileModeOption: ParsableArguments {
    /// What `axon` sets before any command runs: files 0600, directories 0700.
    static let defaultUmask: mode_t = 0o077

    @Option(help: ArgumentHelp(
        "Permission bits, in octal, of the files this command creates (default: 0600, the owner only). At most 0644.",
        valueName: "octal"))
    var mode: String = "0600"

    /// `--mode` as permission bits.
    var bits: mode_t {
        get throws {
            var text = Substring(mode)
            if text.hasPrefix("0o") { text = text.dropFirst(2) }
            guard !text.isEmpty, text.count <= 4, let value = mode_t(text, radix: 8), value & ~0o644 == 0 else {
                throw ValidationError("--mode \(mode) is not octal permission bits within 0644 (e.g. 0600, 0640, 0644)")
            }
            return value
        }
    }

    func validate() throws { _ = try bits }

    /// Sets the umask so that files created from now on get `--mode`'s bits.
    func apply() throws { umask(0o777 & ~(try bits)) }
}
