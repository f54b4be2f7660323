import AxonStreams

/// Makes a recording's channel labels unique the way MNE-Python does (`mne._fiff.meas_info._unique_channel_names`),
/// so `--channels`, `channel(_:)` and the tables can tell duplicates apart and a label means the same channel in
/// Axon and in MNE.
///
/// Every channel whose label occurs more than once gets `-0`, `-1`, … by its position among the duplicates (the
/// first included): `EEG, EEG, Cz` → `EEG-0, EEG-1, Cz`. A name that is already taken is skipped for `-a`, `-b`,
/// … `-z`, as MNE does (`EEG, EEG, EEG-0` → `EEG-a, EEG-1, EEG-0`); where MNE gives up after `-z`, Axon counts on
/// (`-2`, `-3`, …). Duplicates are renamed in the order of their first appearance. A renamed channel keeps the
/// label as written in ``ChannelInfo/writtenLabel``.
enum UniqueChannelLabels {
    /// The channels with unique labels, and a warning naming the renamed ones (`nil` when all were unique).
    /// - Complexity: O(channels) expected.
    static func apply(to channels: [ChannelInfo]) -> (channels: [ChannelInfo], warning: String?) {
        var labels = channels.map(\.label)
        var counts: [String: Int] = [:]
        for label in labels { counts[label, default: 0] += 1 }
        var stems: [String] = []
        for label in labels where counts[label, default: 0] > 1 && !stems.contains(label) { stems.append(label) }
        guard !stems.isEmpty else { return (channels, nil) }

        var taken = Set(labels)
        var result = channels
        var renamed: [String] = []
        for stem in stems {
            let positions = labels.indices.filter { labels[$0] == stem }
            for (order, position) in positions.enumerated() {
                let name = Self.freeName(stem: stem, order: order, taken: taken)
                taken.insert(name)
                labels[position] = name
                result[position].label = name
                result[position].writtenLabel = channels[position].writtenLabel ?? stem
            }
            taken.remove(stem)  // no channel is called that any more: a later duplicate's `-0` may take it
            renamed.append("\"\(stem)\" ×\(positions.count) → " + positions.map { labels[$0] }.joined(separator: ", "))
        }
        let warning =
            "duplicate channel labels made unique as MNE-Python does: " + renamed.joined(separator: "; ")
            + " (the label as written is kept as the channel's writtenLabel)"
        return (result, warning)
    }

    /// `stem-order`, else the first free `stem-a` … `stem-z`, else the first free `stem-N` above `order`.
    private static func freeName(stem: String, order: Int, taken: Set<String>) -> String {
        let first = "\(stem)-\(order)"
        if !taken.contains(first) { return first }
        for letter in "abcdefghijklmnopqrstuvwxyz" where !taken.contains("\(stem)-\(letter)") {
            return "\(stem)-\(letter)"
        }
        var number = order + 1
        while taken.contains("\(stem)-\(number)") { number += 1 }
        return "\(stem)-\(number)"
    }
}
