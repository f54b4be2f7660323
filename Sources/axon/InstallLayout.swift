import Foundation

/// Where the files `axon` ships besides its executable are found, so the demo and the live view work from any
/// working directory: installed by `make install` under `PREFIX/share/axon` (the executable in `PREFIX/bin`), or in
/// the repository the executable was built from.
enum InstallLayout {
    /// `PREFIX/share/axon` when the running executable sits in `PREFIX/bin` and that directory exists.
    static let sharedDirectory: URL? = {
        // /proc/self/exe names the executable itself, through any symbolic link a user put on the PATH.
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let prefix = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
        let shared = prefix.appendingPathComponent("share/axon")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
    }()

    /// The repository this executable was built from (this source file's folder, two levels up), while it exists.
    static let repository: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return FileManager.default.fileExists(atPath: root.appendingPathComponent("datasets").path) ? root : nil
    }()

    /// A file `axon` ships, named relative to the repository (`datasets/…`): as given when it exists from the
    /// working directory, else the installed copy, else the repository's; as given when none exists (the reader's
    /// error then names it).
    static func shippedFile(_ relativePath: String) -> String {
        if FileManager.default.fileExists(atPath: relativePath) { return relativePath }
        for base in [sharedDirectory, repository].compactMap({ $0 }) {
            let candidate = base.appendingPathComponent(relativePath).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return relativePath
    }

    /// The live view's installed page (`share/axon/web`), or `nil` for the copy built into AxonView's resources.
    static var pageDirectory: URL? {
        guard let web = sharedDirectory?.appendingPathComponent("web"),
            FileManager.default.fileExists(atPath: web.appendingPathComponent("index.html").path)
        else { return nil }
        return web
    }
}
