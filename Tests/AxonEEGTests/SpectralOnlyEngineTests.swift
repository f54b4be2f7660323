// The engine with signal quality off (`measuresSignalQuality = false`) on someone else's EEG: the same spectra,
// peaks, band powers and baseline as with it on, the quality lanes empty, and no window judged.

import AxonRecording
import Testing

@testable import AxonEEG

@Suite("Engine with signal quality off, on the OpenBCI recording")
struct SpectralOnlyEngineTests {
    @Test("every spectral lane equals the full engine's; quality lanes are NaN; no artifact is flagged or excluded")
    func sameSpectraWithoutQuality() throws {
        let recording = try RecordingReader.read(path: RealEEGTests.openBCIPath).segment(from: 0, to: 40)
        var full = EEGEngine.Configuration(
            sampleRate: recording.sampleRate, channelLabels: recording.channelLabels, baselineDuration: 1e6,
            rigor: .estimate)
        full.quality.excludeArtifacts = false
        var spectral = full
        spectral.measuresSignalQuality = false
        let engines = try (EEGEngine(full), EEGEngine(spectral))
        engines.0.startBaseline()
        engines.1.startBaseline()
        let layout = engines.0.spectrumLayout
        let channels = recording.channelCount
        var compared = 0
        var flaggedByFullEngine = 0
        try recording.values.withUnsafeBufferPointer { values in
            for frame in 0..<recording.frameCount {
                let row = UnsafeBufferPointer(rebasing: values[(frame * channels)..<((frame + 1) * channels)])
                let events = (engines.0.ingest(row, time: Double(frame) / 250), engines.1.ingest(row, time: Double(frame) / 250))
                try #require(events.0 == events.1)
                guard events.0.contains(.spectrum) else { continue }
                compared += 1
                let a = engines.0.withSpectrum { Array($0.row) }
                let b = engines.1.withSpectrum { Array($0.row) }
                if a[layout.lane(.artifacts)] != 0 { flaggedByFullEngine += 1 }
                #expect(b[layout.lane(.artifacts)] == 0 && b[layout.lane(.excluded)] == 0)
                for channel in 0..<channels {
                    for band in 0..<layout.bandCount {
                        for lane in [
                            layout.dominantLane(channel: channel, band: band),
                            layout.peakPowerLane(channel: channel, band: band),
                            layout.bandPowerLane(channel: channel, band: band),
                            layout.relativePowerLane(channel: channel, band: band),
                        ] {
                            #expect(a[lane] == b[lane] || (a[lane].isNaN && b[lane].isNaN))
                        }
                    }
                    let bins = layout.spectrumLane(channel: channel)
                    for k in bins..<(bins + layout.binCount) { #expect(a[k] == b[k]) }
                    #expect(b[layout.qualityLane(channel: channel, .railedFraction)].isNaN)
                    #expect(b[layout.qualityLane(channel: channel, .slowSwing)].isNaN)
                    #expect(b[layout.qualityLane(channel: channel, .usable)] == 1)
                }
            }
        }
        #expect(compared == 39)
        // The recording's first 40 s hold blinks and a jaw clench: the full engine flags them, the other does not.
        #expect(flaggedByFullEngine >= 8)
        #expect(engines.1.contaminatedFrames == 0 && engines.1.baselineFrames == compared)
    }
}
