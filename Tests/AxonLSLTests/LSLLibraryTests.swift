import AxonLSL
import Testing

@Suite("LSL library loading and selectors")
struct LSLLibraryTests {
    @Test func missingLibraryIsOneClearLine() {
        #expect(throws: LSLError.self) { try LSLLibrary.load(candidates: ["/nonexistent/liblsl.so"]) }
        do {
            _ = try LSLLibrary.load(candidates: ["/nonexistent/liblsl.so"])
        } catch {
            let text = error.description
            #expect(!text.contains("\n"))
            #expect(text.hasPrefix("liblsl not found (tried /nonexistent/liblsl.so;"))
            #expect(text.contains("scripts/python-peers.sh"))
            #expect(text.contains("AXON_LIBLSL"))
        }
    }

    @Test func explicitPathIsTheOnlyCandidate() {
        #expect(LSLLibrary.candidatePaths(environment: ["AXON_LIBLSL": "/opt/lsl/liblsl.so"]) == ["/opt/lsl/liblsl.so"])
        let fallback = LSLLibrary.candidatePaths(environment: [:])
        #expect(fallback.suffix(2) == ["liblsl.so", "liblsl.so.2"])
    }

    @Test(.enabled(if: LSLPeer.available)) func projectCopyIsLiblsl118() throws {
        let library = try LSLPeer.library()
        #expect(library.version == 118)
        #expect(library.path.hasSuffix(".liblsl/liblsl.so"))
        // liblsl's clock is CLOCK_MONOTONIC, the clock Axon stamps samples with.
        let before = HostClockProbe.now()
        let lsl = library.localClock()
        let after = HostClockProbe.now()
        #expect(lsl >= before && lsl <= after)
    }

    @Test(arguments: [
        ("OpenBCI", "name", "OpenBCI"), ("type=EEG", "type", "EEG"), ("source_id=cyton-1", "source_id", "cyton-1"),
        ("name=a=b", "name", "a=b"),
    ])
    func selectors(text: String, property: String, value: String) throws {
        let selector = try LSLStreamSelector(parsing: text)
        #expect(selector.property == property)
        #expect(selector.value == value)
    }

    @Test(arguments: ["", "type=", "host=x", "=EEG"])
    func badSelectors(text: String) {
        #expect(throws: LSLError.invalidSelector(text)) { try LSLStreamSelector(parsing: text) }
    }
}

@Suite("LSL configuration")
struct LSLConfigurationTests {
    /// The command line's built-in configuration and the file the tests and pylsl peers use say the same.
    @Test func builtInEqualsTheShippedFile() throws {
        func entries(_ text: String) -> [String] {
            var section = ""
            var result: [String] = []
            for raw in text.split(separator: "\n") {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if line.isEmpty || line.hasPrefix(";") { continue }
                if line.hasPrefix("[") {
                    section = line
                } else {
                    result.append(section + line.replacingOccurrences(of: " ", with: ""))
                }
            }
            return result.sorted()
        }
        let file = try String(contentsOfFile: LSLPeer.configuration, encoding: .utf8)
        #expect(entries(file) == entries(LSLConfiguration.machineOnlyText))
        #expect(entries(file).contains("[multicast]ResolveScope=machine"))
        #expect(entries(file).contains("[ports]IPv6=disable"))
        #expect(entries(file).contains("[lab]KnownPeers={127.0.0.1}"))
    }

    @Test func commandDefaultIsMachineOnly() {
        #expect(LSLConfiguration.forCommand(path: "/tmp/lab.cfg") == .file("/tmp/lab.cfg"))
    }
}
