import ArgumentParser
import AxonRecording
import AxonStreams
import Foundation

extension Axon {
    /// Describes a recording file: format, header, channels, length, markers, warnings and damage.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a recording (EDF/EDF+/BDF/BDF+, XDF, BrainVision .vhdr, FIF raw, Axon CSV, OpenBCI GUI "
                + "text old and new, BrainFlow CSV, muse-lsl CSV, Mind Monitor CSV): format, "
                + "header fields, channels with units, ranges and rates, duration, frames, markers, warnings, damage.")

        @Argument(help: "The recording.")
        var file: String

        @OptionGroup var reading: RecordingReadOptions

        @Option(help: "Markers to list (the first N).")
        var markers: Int = 10

        @Flag(help: "List only the fields that can identify a person, and where each sits (docs/security.md).")
        var identifiers = false

        func run() throws {
            let recording = try reading.read(path: file)
            if identifiers {
                let fields = try IdentifyingFields.find(path: file, recording: recording)
                return print(IdentifyingFields.report(fields, path: file))
            }
            let descriptor = recording.descriptor
            let metadata = descriptor.metadata
            print("\(file)")
            var prefix: [UInt8] = []
            if let handle = FileHandle(forReadingAtPath: file) {
                prefix = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
                try? handle.close()
            }
            let fileFormat = (try? RecordingFormat.detect(bytes: prefix)).map { "\($0)" } ?? "?"
            let streamFormat = metadata["format"] ?? "?"
            print("  format      \(fileFormat)" + (streamFormat == fileFormat ? "" : " (\(streamFormat))"))
            print(
                "  stream      \(descriptor.name) (\(descriptor.contentType)), native sample format "
                    + "\(descriptor.format)")
            let period = 1 / recording.sampleRate
            print(
                "  frames      \(recording.frameCount) at \(fmt(recording.sampleRate, 3)) Hz = "
                    + "\(fmt(recording.duration, 3)) s"
                    + (recording.gaps.isEmpty
                        ? ""
                        : ", spanning \(fmt(Self.seconds(recording, frame: recording.frameCount - 1) + period, 3)) s "
                            + "with the gaps"))
            if let start = recording.startTime {
                let date = Date(timeIntervalSince1970: start)
                let formatter = ISO8601DateFormatter()
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                print("  start       \(formatter.string(from: date)) (Unix \(fmt(start, 3)) s)")
            } else {
                print("  start       no timestamps (times count from the first frame)")
            }
            if let counters = recording.counters {
                print(
                    "  counters    \(counters.first ?? 0)…\(counters.last ?? 0)"
                        + (recording.counterModulus.map { ", wrapping at \($0)" } ?? ""))
            }
            let header = metadata.filter {
                $0.key != "format" && !$0.key.hasPrefix(Recording.sourceColumnKeyPrefix)
                    && !$0.key.hasPrefix("edf.transducer.") && !$0.key.hasPrefix("edf.prefilter.")
                    && !Self.perChannelPrefixes.contains(where: $0.key.hasPrefix)
            }
            if !header.isEmpty {
                print("  header")
                for (key, value) in header.sorted(by: { $0.key < $1.key }) { print("    \(key): \(value)") }
            }
            print("  channels (\(recording.channelCount))")
            let labelWidth = max(12, recording.streams.flatMap(\.descriptor.channels).map(\.label.count).max() ?? 0)
            Self.printChannels(of: recording, labelWidth: labelWidth)  // whole labels, never cut
            for (number, companion) in recording.companions.enumerated() {
                print(
                    "  stream \(number + 2)    \(companion.channelCount) channel\(companion.channelCount == 1 ? "" : "s") "
                        + "at \(fmt(companion.sampleRate, 3)) Hz: \(companion.frameCount) frames = "
                        + "\(fmt(companion.duration, 3)) s (\(companion.descriptor.name), "
                        + "\(companion.descriptor.contentType); a rate of its own, kept as its own stream)")
                Self.printChannels(of: companion, labelWidth: labelWidth)
            }
            if !recording.gaps.isEmpty {
                let missing = recording.gaps.reduce(0) { $0 + $1.gap.missingCount }
                print("  gaps        \(recording.gaps.count), \(missing) samples missing")
                for gap in recording.gaps {
                    print(
                        "    before frame \(gap.beforeFrame) "
                            + "(\(fmt(Self.seconds(recording, frame: gap.beforeFrame), 3)) s): \(gap.gap.missingCount) "
                            + "samples = \(fmt(Double(gap.gap.missingCount) * period, 3)) s "
                            + "(\(gap.gap.cause.rawValue))")
                }
            }
            print(
                "  markers     \(recording.markers.count)"
                    + (recording.markers.count > markers ? " (first \(markers))" : ""))
            for marker in recording.markers.prefix(max(0, markers)) {
                let seconds = Self.seconds(recording, frame: marker.frame)
                print("    frame \(marker.frame) (\(fmt(seconds, 3)) s): " + (marker.text ?? "\(marker.value)"))
            }
            if let cut = recording.truncation { print("  damage      \(cut)") }
            print("  warnings    \(recording.warnings.isEmpty ? "none" : "\(recording.warnings.count)")")
            for warning in recording.warnings { print("    - \(warning)") }
        }

        /// One line per channel of `recording`'s own stream: label, unit, range, rate, the label as written.
        static func printChannels(of recording: Recording, labelWidth: Int) {
            let metadata = recording.descriptor.metadata
            for channel in recording.descriptor.channels {
                let range = channel.range.map { "\(fmt($0.lowerBound, 3))…\(fmt($0.upperBound, 3))" } ?? "–"
                let original =
                    metadata[Recording.sourceColumnKeyPrefix + channel.label]
                    .map { "  (as written: \"\($0)\")" }
                    ?? channel.writtenLabel.map { "  (as written: \"\($0)\")" } ?? ""
                let extra =
                    ([metadata["edf.transducer.\(channel.label)"], metadata["edf.prefilter.\(channel.label)"]]
                    + perChannelPrefixes.map { prefix in
                        metadata[prefix + channel.label].map { "\(prefix.split(separator: ".")[1]) \($0)" }
                    })
                    .compactMap { $0 }.joined(separator: "; ")
                let label = channel.label.rightPadded(labelWidth)
                let unit = channel.unit.padding(toLength: 6, withPad: " ", startingAt: 0)
                print(
                    "    \(label) \(unit) range \(range)  \(fmt(recording.sampleRate, 3)) Hz" + original
                        + (extra.isEmpty ? "" : "  [\(extra)]"))
            }
        }

        /// Per-channel metadata keys (`<prefix><label>`) shown beside their channel, not in the header list.
        static let perChannelPrefixes = ["brainvision.resolution.", "brainvision.reference.", "fif.kind."]

        /// Seconds from the first frame to `frame`: by the timestamps when the file has them, else at the nominal
        /// rate counting the samples missing in gaps.
        static func seconds(_ recording: Recording, frame: Int) -> Double {
            if let timestamps = recording.timestamps { return timestamps[frame] - timestamps[0] }
            return Double(frame + recording.missingSamples(before: frame)) / recording.sampleRate
        }
    }
}
