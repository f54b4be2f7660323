import ArgumentParser
import AxonDevices
import Foundation

/// A word on the command line where a command was expected that names no command: `axon recrod --out x`.
///
/// Without this check ArgumentParser hands the word to the default command (`demo`), which then complains about
/// an option the user never meant for it ("Unknown option '--out'. Did you mean '--bus'?").
struct CommandTypo {
    let message: String

    /// The first misspelt command word in `arguments`, if any. A word the default command can take as its SOURCE
    /// (an existing path, `simulator`, `KIND:…`) is not a typo.
    static func find(in arguments: [String], root: any ParsableCommand.Type = Axon.self) -> CommandTypo? {
        var command = root
        var path: [String] = []
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return nil }
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path.append(word)
                continue
            }
            if command.configuration.defaultSubcommand != nil, looksLikeSource(word) { return nil }
            if word == "help" { return nil }
            let names = subcommands.map { $0._commandName }
            let prefix = (["axon"] + path).joined(separator: " ")
            let suggestion = closest(to: word, among: names)
            let hint = suggestion.map { "did you mean `\(prefix) \($0)`?" }
                ?? "the commands are: \(names.joined(separator: ", "))"
            return CommandTypo(message: "Error: `\(prefix)` has no command `\(word)`; \(hint)\n"
                + "  See '\(prefix) --help' for more information.")
        }
        return nil
    }

    /// Whether the default command could mean `word` as its SOURCE rather than as a command name.
    static func looksLikeSource(_ word: String) -> Bool {
        if FileManager.default.fileExists(atPath: word) { return true }
        if word.contains("/") || word.contains(".") { return true }
        return (try? SourceSpecifier(parsing: word)).map { !$0.isPath } ?? true
    }

    /// The name nearest `word` by edit distance (a swap of neighbours counts once), if near enough to be a typo:
    /// at most 2 edits, or `word` is the start of exactly one name.
    static func closest(to word: String, among names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: editDistance(word, $0)) }
        if let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= min(2, max(1, word.count / 2)) {
            return best.name
        }
        let prefixed = names.filter { $0.hasPrefix(word) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
