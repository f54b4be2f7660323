// An installed axon (make install: PREFIX/bin/axon and PREFIX/share/axon) serves the installed page and replays the
// installed sample recording from any working directory; a build run from elsewhere finds the repository's.

import Foundation
import StreamTestSupport
import Testing

@Suite("installed layout")
struct InstalledLayoutTests {
    static let recording = "datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt"

    /// The repository, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `axon ARGUMENTS` run by `executable` from the working directory `/`: exit status and output.
    static func runFromRoot(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        try AxonExecutable.run(executable, arguments, in: URL(fileURLWithPath: "/"))
    }

    /// A prefix laid out as `scripts/install.sh` lays it out, beside the build (a hard link needs the same file
    /// system; a symbolic link would lead /proc/self/exe back to the build): the executable, the page with a marker
    /// in its index.html, and the sample recording.
    static func makePrefix(marker: String) throws -> URL {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        // The real folder (.build/debug is a symbolic link), as /proc/self/exe will name it.
        let prefix = URL(fileURLWithPath: axon).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("install-test-\(UUID().uuidString)")
        let files = FileManager.default
        try files.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try files.linkItem(atPath: axon, toPath: prefix.appendingPathComponent("bin/axon").path)
        let web = prefix.appendingPathComponent("share/axon/web")
        try files.createDirectory(at: web, withIntermediateDirectories: true)
        for name in ["index.html", "app.js", "style.css"] {
            var text = try String(contentsOf: root.appendingPathComponent("Sources/AxonView/Web/\(name)"), encoding: .utf8)
            if name == "index.html" { text = text.replacingOccurrences(of: "<head>", with: "<head><!-- \(marker) -->") }
            try text.write(to: web.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let installed = prefix.appendingPathComponent("share/axon/\(recording)")
        try files.createDirectory(at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try files.copyItem(at: root.appendingPathComponent(recording), to: installed)
        return prefix
    }

    @Test("an installed axon serves the installed page and replays the installed recording from /")
    func installedCopyUsesItsShareDirectory() throws {
        let marker = "installed-page-\(UUID().uuidString)"
        let prefix = try Self.makePrefix(marker: marker)
        defer { try? FileManager.default.removeItem(at: prefix) }
        let axon = prefix.appendingPathComponent("bin/axon").path

        let (status, output) = try Self.runFromRoot(axon, ["demo", "--to", "3", "--fast"])
        #expect(status == 0, "\(output)")
        let first = output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "axon demo: " + prefix.appendingPathComponent("share/axon/\(Self.recording)").path, "\(output)")

        let view = try ViewProcess(["test-sequence:10", "--no-token", "--port", "0", "--seconds", "30"], executable: axon)
        defer { view.stop() }
        let port = try view.port()
        let page = try rawRequest(port: port, target: "/", host: "127.0.0.1:\(port)")
        #expect(page.status == 200)
        #expect(page.bodyText.contains(marker), "the view served another page than the installed one")
    }

    @Test("a build run from another directory finds the repository's sample recording")
    func buildFindsTheRepositorysRecording() throws {
        let axon = try #require(AxonExecutable.path, "build the axon executable first (swift build)")
        let (status, output) = try Self.runFromRoot(axon, ["demo", "--to", "3", "--fast"])
        #expect(status == 0, "\(output)")
        let first = output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == "axon demo: " + Self.root.appendingPathComponent(Self.recording).path, "\(output)")
    }
}
