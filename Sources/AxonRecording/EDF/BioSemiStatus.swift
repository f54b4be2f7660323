import AxonStreams

/// Decodes a BioSemi ActiveTwo `Status` channel (a BDF signal labelled `Status`) into trigger markers and device
/// status events, as ``EDFFileReader`` does for every BDF that has one.
///
/// The channel is no measurement: each sample is a 24-bit word whose bits mean (BioSemi's "trigger signals" page,
/// as MNE-Python, FieldTrip and BioSemi's own acquisition code read it):
///
/// | bits | meaning |
/// |---|---|
/// | 0–15 | the 16 trigger inputs: the trigger code |
/// | 16 | high when a new epoch starts (MNE-Python keeps it as the mark of a pause in the recording) |
/// | 17, 18, 19, 21 | speed mode bits 0, 1, 2, 3 |
/// | 20 | high while CMS is within range |
/// | 22 | high while the battery is low |
/// | 23 | high on an ActiveTwo Mk2 |
///
/// What becomes a marker (frame = sample index):
///
/// | in the Status word | marker `text` | marker `value` |
/// |---|---|---|
/// | bits 0–15 change to a non-zero code (also a code already on at frame 0) | `trigger 12` | the code, `12` |
/// | bits 0–15 return to 0 | — (no marker) | |
/// | bit 20 falls (at frame 0: is low) | `CMS out of range` | the 24-bit word |
/// | bit 20 rises | `CMS in range` | the 24-bit word |
/// | bit 22 rises (at frame 0: is high) | `battery low` | the 24-bit word |
/// | bit 22 falls | `battery ok` | the 24-bit word |
/// | bit 16 rises after frame 0 | `new epoch` | the 24-bit word |
///
/// The triggers are MNE-Python's `mne.find_events(raw, stim_channel="Status", consecutive=True, mask=0xFFFF)` on
/// `read_raw_bdf`'s reading (which keeps bits 0–16), onsets only, with two differences that keep information MNE
/// drops: a code already on at the first sample is a trigger at frame 0 (MNE: only with `initial_event=True`), and
/// a code still on at the last sample is kept (MNE removes it as an "orphaned onset"). MNE's default
/// `consecutive="increasing"` also leaves out a change to a lower non-zero code (12 → 7); Axon reports it.
/// The speed mode and the Mk2 bit are read from the first sample (``speedMode``, ``isMk2``); the bits above 23 of the
/// sign-extended BDF sample are ignored (the word is the sample masked to 24 bits).
///
/// Threading: a value; share freely.
public struct BioSemiStatus: Sendable, Hashable {
    /// Triggers and status events in frame order (at one frame: the trigger first).
    public var markers: [RecordingMarker] = []
    /// How many of ``markers`` are triggers.
    public var triggerCount = 0
    /// How many of ``markers`` are device status events.
    public var statusEventCount: Int { markers.count - triggerCount }
    /// The speed mode (0…15) the first sample gives.
    public var speedMode = 0
    /// Whether the first sample says ActiveTwo Mk2 (bit 23).
    public var isMk2 = false

    /// The marker text of a trigger: `trigger 12`.
    public static func triggerText(_ code: Int) -> String { "trigger \(code)" }

    /// The code in a trigger marker's text (`trigger 12` → 12), so a reading of Axon's own output (EDF+
    /// annotations and XDF markers carry text only) gets the code back; `nil` for any other text.
    public static func triggerCode(inText text: String) -> Int? {
        guard text.hasPrefix("trigger "), let code = Int(text.dropFirst(8)), (1...0xFFFF).contains(code) else {
            return nil
        }
        return code
    }

    /// The texts of the device status events.
    public static let statusTexts: Set<String> = [
        "CMS out of range", "CMS in range", "battery low", "battery ok", "new epoch",
    ]

    /// Whether `text` is one this decoder gives a marker: a trigger's or a status event's.
    public static func isDecodedText(_ text: String) -> Bool {
        triggerCode(inText: text) != nil || statusTexts.contains(text)
    }

    /// Whether a BDF signal label names the Status channel: `Status`, trimmed, in any case (as MNE and BioSemi
    /// name it).
    public static func isStatusLabel(_ label: String) -> Bool {
        trimmed(label).lowercased() == "status"
    }

    /// Decodes the channel's samples as the BDF holds them (24-bit two's complement, sign-extended).
    /// - Complexity: O(samples); allocates one marker per change.
    public init(samples: [Int32]) {
        var code = 0
        var cmsInRange = true
        var batteryLow = false
        var epoch = true
        for (frame, sample) in samples.enumerated() {
            let word = Int(UInt32(bitPattern: sample) & 0xFF_FFFF)
            if frame == 0 {
                speedMode = (word >> 17 & 0b111) | (word >> 21 & 1) << 3
                isMk2 = word & 1 << 23 != 0
            }
            let newCode = word & 0xFFFF
            if newCode != code, newCode != 0 {
                markers.append(RecordingMarker(frame: frame, value: Double(newCode), text: Self.triggerText(newCode)))
                triggerCount += 1
            }
            code = newCode
            let cms = word & 1 << 20 != 0
            if cms != cmsInRange {
                markers.append(
                    RecordingMarker(frame: frame, value: Double(word), text: cms ? "CMS in range" : "CMS out of range"))
            }
            cmsInRange = cms
            let low = word & 1 << 22 != 0
            if low != batteryLow {
                markers.append(
                    RecordingMarker(frame: frame, value: Double(word), text: low ? "battery low" : "battery ok"))
            }
            batteryLow = low
            let newEpoch = word & 1 << 16 != 0
            if newEpoch, !epoch {
                markers.append(RecordingMarker(frame: frame, value: Double(word), text: "new epoch"))
            }
            epoch = newEpoch
        }
    }

    /// One line for `metadata["edf.status"]`: what was decoded from which signal, and what became of the channel.
    public func summary(signal: Int, label: String, kept: Bool) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for marker in markers {
            guard let text = marker.text, Self.triggerCode(inText: text) == nil else { continue }
            if counts[text] == nil { order.append(text) }
            counts[text, default: 0] += 1
        }
        let events = order.map { "\($0) ×\(counts[$0]!)" }.joined(separator: ", ")
        return "signal \(signal + 1) (\"\(label)\") decoded as BioSemi's Status channel: \(triggerCount) trigger"
            + (triggerCount == 1 ? "" : "s") + ", \(statusEventCount) device status event"
            + (statusEventCount == 1 ? "" : "s") + (events.isEmpty ? "" : " (\(events))")
            + "; speed mode \(speedMode)" + (isMk2 ? ", ActiveTwo Mk2" : "")
            + (kept ? "; the channel kept raw (the 24-bit Status word)" : "; the channel itself left out")
    }

    /// `existing` (the file's annotations, in frame order) and ``markers`` in frame order; at one frame the
    /// annotations first.
    /// - Complexity: O(n log n) in the markers.
    public func merged(into existing: [RecordingMarker]) -> [RecordingMarker] {
        (existing + markers).enumerated()
            .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
            .map(\.element)
    }
}

extension BioSemiStatus {
    /// A warning when the device reported trouble: CMS out of range or the battery low, how often and first when
    /// (frame); `nil` when it did not.
    public var warning: String? {
        let trouble = ["CMS out of range", "battery low"].compactMap { text -> String? in
            let at = markers.filter { $0.text == text }
            guard let first = at.first else { return nil }
            return "\(text) \(at.count) time" + (at.count == 1 ? "" : "s") + " (first at frame \(first.frame))"
        }
        guard !trouble.isEmpty else { return nil }
        return "the BioSemi Status channel reports " + trouble.joined(separator: " and ")
            + ": the EEG while it lasts may be unusable (see the markers)"
    }
}

/// A BDF's Status signal: ``EDFFileReader``'s hook, so the reader itself only asks for it, leaves its channel out
/// (or keeps it raw) and merges the markers.
struct BioSemiStatusSignal {
    /// Its index among the ordinary (non-annotation) signals, as EDFlib and the reader number them.
    var signal: Int
    var label: String

    /// The first signal of a BDF labelled `Status`; `nil` in an EDF or without one. `ordinary` maps EDFlib's
    /// signal numbers to header signals.
    init?(header: EDFHeader, ordinary: [Int]) {
        guard header.isBDF,
            let signal = ordinary.firstIndex(where: { BioSemiStatus.isStatusLabel(header.signals[$0].label) })
        else { return nil }
        self.signal = signal
        label = header.signals[ordinary[signal]].label
    }

    /// Decodes the signal's samples in `file` and adds the markers to the file's `markers` (annotations of the main
    /// stream, in frame order; `frames` long at `mainRate` samples per record, the Status signal's frames scaled to
    /// it when its rate differs), says what was decoded in `metadata["edf.status"]`, and adds a warning when the
    /// device reported trouble. A file whose annotations already carry Status markers (Axon's conversion of a file
    /// read with the channel kept: the triggers as annotations, the channel rescaled by the writer, so not
    /// bit-exact) keeps its annotations: decoding the channel again would add each event twice, perhaps with a code
    /// off by one.
    func apply(
        file: EDFDigitalSamples, ordinary: [Int], perRecord: [Int], mainRate: Int, frames: Int,
        markers: inout [RecordingMarker], metadata: inout [String: String], warnings: inout [String], kept: Bool
    ) {
        let carried = markers.filter { $0.text.map(BioSemiStatus.isDecodedText) ?? false }.count
        guard carried == 0 else {
            metadata["edf.status"] =
                "signal \(signal + 1) (\"\(label)\") not decoded: the file's annotations already carry "
                + "\(carried) Status trigger and status markers (a file Axon converted with the channel kept)"
                + (kept ? "; the channel kept raw (its 24-bit digital samples)" : "; the channel itself left out")
            return
        }
        var decoded = BioSemiStatus(samples: file.samples(ofSignal: ordinary[signal]))
        if perRecord[signal] != mainRate {
            let scale = Double(mainRate) / Double(perRecord[signal])
            for index in decoded.markers.indices {
                decoded.markers[index].frame = min(
                    frames - 1, Int((Double(decoded.markers[index].frame) * scale).rounded()))
            }
        }
        markers = decoded.merged(into: markers)
        metadata["edf.status"] = decoded.summary(signal: signal, label: label, kept: kept)
        if let warning = decoded.warning { warnings.append(warning) }
    }

    /// The signal's samples in `file` as 24-bit Status words into `column`, and `channel` described as the raw
    /// word: unit `""`, range 0…16,777,215.
    func keepRaw(file: EDFDigitalSamples, ordinary: [Int], column: inout [Double], channel: inout ChannelInfo) {
        column = file.samples(ofSignal: ordinary[signal]).map { Double(UInt32(bitPattern: $0) & 0xFF_FFFF) }
        channel = ChannelInfo(label: channel.label, unit: "", range: 0...16_777_215)
    }
}
