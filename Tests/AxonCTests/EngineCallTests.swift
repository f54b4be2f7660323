import AxonEEG
import AxonRecording
import CAxonABI
import Foundation
import Testing

/// The engine calls of axon.h, made from Swift as a C program makes them: every number equals what EEGEngine and
/// EEGOfflineAnalysis give for the same samples, and every misuse gets its status and message.
@Suite("axon.h engine: results equal the Swift engine's; gaps, configs and misuse")
struct EngineCallTests {
    /// `seconds` of four channels at 250 Hz, channel-major: 10 Hz alpha of growing strength over pseudo-random noise,
    /// with a slow swing on channel 0 every 7 s (blink-like) so artifacts and exclusions occur.
    static func signal(seconds: Int) -> [Double] {
        let frames = seconds * 250
        var state: UInt64 = 0x2545F4914F6CDD1D
        var samples = [Double](repeating: 0, count: 4 * frames)
        for channel in 0..<4 {
            for frame in 0..<frames {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Double(Int64(bitPattern: state >> 11) % 2000) / 100 - 10
                let t = Double(frame) / 250
                let alpha = (5 + Double(channel) + t / 5) * sin(2 * .pi * 10.3 * t)
                let blink = channel == 0 && frame % 1750 < 60 ? 300 * sin(.pi * Double(frame % 1750) / 60) : 0
                samples[channel * frames + frame] = alpha + noise + blink
            }
        }
        return samples
    }

    /// Frame `frame` of a channel-major block of `frames` frames.
    static func frame(_ samples: [Double], _ frame: Int, frames: Int) -> [Double] {
        (0..<4).map { samples[$0 * frames + frame] }
    }

    @Test("70 s pushed in odd chunks and taken 7 rows at a time: every field of every row and indicator as EEGEngine's")
    func rowsEqualTheEngine() throws {
        let seconds = 70
        let frames = seconds * 250
        let samples = Self.signal(seconds: seconds)
        var config = C.defaultConfig()
        config.start_time = 1_700_000_000
        var (status, engine) = C.engine(config)
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { _ = axon_engine_destroy(&engine) }
        var rows: [axon_spectrum_row] = []
        var indicators: [axon_indicator] = []
        var zones: [axon_channel_zone] = []
        var from = 0
        for chunk in [1, 999, 4000, 17, 250].cycled(until: frames) {
            let count = min(chunk, frames - from)
            guard count > 0 else { break }
            let block = (0..<4).flatMap { channel in
                samples[(channel * frames + from)..<(channel * frames + from + count)]
            }
            #expect(axon_engine_push(engine, block, 4, count) == AXON_OK, "\(C.lastError)")
            rows += C.takeSpectra(engine)
            var taken = [axon_indicator](repeating: axon_indicator(), count: 2)
            var channelZones = [axon_channel_zone](repeating: axon_channel_zone(), count: 8)
            var n = 0
            repeat {
                #expect(axon_engine_take_indicators(engine, &taken, 2, &channelZones, 8, &n) == AXON_OK)
                indicators += taken.prefix(n)
                zones += channelZones.prefix(n * 4)
            } while n > 0
            from += count
        }

        // The same samples through EEGEngine directly, frame by frame.
        var configuration = EEGEngine.Configuration()
        configuration.channelLabels = ["ch1", "ch2", "ch3", "ch4"]
        let reference = try EEGEngine(configuration)
        reference.startBaseline()
        var expectedRows: [(SpectrumFrame, Double)] = []
        var expectedIndicators: [(ActivityIndicators, Double)] = []
        for index in 0..<frames {
            let time = 1_700_000_000 + Double(index) / 250
            let events = reference.ingest(Self.frame(samples, index, frames: frames), time: time)
            if events.contains(.spectrum) {
                expectedRows.append(
                    (
                        reference.withSpectrum {
                            SpectrumFrame(
                                $0, labels: configuration.channelLabels, bands: configuration.bands,
                                binWidth: reference.grid.binWidth)
                        }, time
                    ))
            }
            if events.contains(.indicators) {
                expectedIndicators.append(
                    (
                        reference.withIndicatorRow {
                            ActivityIndicators(
                                row: $0, layout: reference.indicatorLayout, labels: configuration.channelLabels)
                        }, time
                    ))
            }
        }
        try #require(rows.count == expectedRows.count * 4)
        #expect(expectedRows.contains { $0.0.isExcluded } && expectedRows.contains { !$0.0.isExcluded })
        for (index, row) in rows.enumerated() {
            let (frame, time) = expectedRows[index / 4]
            let channel = frame.channels[index % 4]
            #expect(row.window == Int64(frame.counter) && row.sample_index == Int64(frame.sampleIndex))
            #expect(row.time == time && row.channel == index % 4 && row.band_count == 3)
            #expect(row.artifacts == CInt(frame.artifacts.rawValue) && row.excluded == (frame.isExcluded ? 1 : 0))
            #expect(row.baseline_state == CInt(frame.baselineState.rawValue) && row.filled_samples == 0)
            let dominant = C.doubles(row.dominant_hz, count: 8)
            #expect(zip(dominant, channel.bands.map { $0.dominantFrequency ?? .nan }).allSatisfy { C.same($0, $1) })
            #expect(dominant[3...].allSatisfy { $0.isNaN })
            #expect(
                zip(C.doubles(row.peak_power, count: 3), channel.bands.map { $0.peakPower ?? .nan }).allSatisfy {
                    C.same($0, $1)
                })
            #expect(C.doubles(row.band_power, count: 3) == channel.bands.map(\.power))
            #expect(C.doubles(row.relative_power, count: 3) == channel.bands.map(\.relativePower))
            #expect(row.reference_power == channel.referencePower)
            #expect(
                row.quality.railed_fraction == channel.quality.railedFraction
                    && row.quality.power == channel.quality.power)
            #expect(row.quality.line_share == channel.quality.lineShare)
            #expect(C.same(row.quality.muscle_share, channel.quality.muscleShare ?? .nan))
            #expect(row.quality.slow_swing == channel.quality.slowSwing)
            #expect(row.quality.usable == (channel.quality.usable ? 1 : 0))
        }
        try #require(indicators.count == expectedIndicators.count && indicators.count == 2)
        for (indicator, (expected, time)) in zip(indicators, expectedIndicators) {
            #expect(indicator.index == Int64(expected.counter) && indicator.time == time)
            #expect(indicator.sample_index == Int64(expected.sampleIndex))
            #expect(
                indicator.zone == CInt(expected.activity.zone.rawValue)
                    && indicator.percent == expected.activity.percent)
            #expect(
                indicator.frames == CInt(expected.frames) && indicator.excluded_frames == CInt(expected.excludedFrames))
            #expect(C.doubles(indicator.z_scores, count: 3) == expected.zScores)
            let channelZones = zones.filter { $0.indicator == indicator.index }
            #expect(channelZones.map(\.channel) == [0, 1, 2, 3])
            for (zone, channel) in zip(channelZones, expected.channels) {
                #expect(zone.zone == (channel.level.map { CInt($0.zone.rawValue) } ?? AXON_ZONE_LEFT_OUT))
                #expect(C.same(zone.percent, channel.level?.percent ?? .nan))
                #expect(zip(C.doubles(zone.z_scores, count: 3), channel.zScores).allSatisfy { C.same($0, $1) })
            }
        }
    }

    @Test("skipped samples: a short loss bridged, a long one restarting the window, as EEGOfflineAnalysis treats gaps")
    func gapsAsTheOfflineAnalysis() throws {
        let frames = 30 * 250
        let samples = Self.signal(seconds: 30)
        // Two losses: 5 samples before frame 3000 (bridged), 400 before frame 5000 (a restart).
        let gaps = [(beforeFrame: 3000, missingCount: 5), (beforeFrame: 5000, missingCount: 400)]
        let times = (0..<frames).map { frame in
            Double(frame + gaps.filter { $0.beforeFrame <= frame }.map(\.missingCount).reduce(0, +)) / 250
        }
        var config = C.defaultConfig()
        config.baseline_seconds = 10
        var (status, engine) = C.engine(config)
        try #require(status == AXON_OK, "\(C.lastError)")
        defer { _ = axon_engine_destroy(&engine) }
        let cuts = [0] + gaps.map(\.beforeFrame) + [frames]
        for (start, end) in zip(cuts, cuts.dropFirst()) {
            if let gap = gaps.first(where: { $0.beforeFrame == start }) {
                #expect(axon_engine_skip(engine, Int64(gap.missingCount)) == AXON_OK)
            }
            let block = (0..<4).flatMap { channel in samples[(channel * frames + start)..<(channel * frames + end)] }
            let blockTimes = Array(times[start..<end])
            #expect(axon_engine_push_timed(engine, block, blockTimes, 4, end - start) == AXON_OK, "\(C.lastError)")
        }
        let rows = C.takeSpectra(engine, chunk: 1000)

        var configuration = EEGEngine.Configuration()
        configuration.channelLabels = ["ch1", "ch2", "ch3", "ch4"]
        var expected: [SpectrumFrame] = []
        _ = try EEGOfflineAnalysis.run(
            configuration: configuration, frameCount: frames, baselineSeconds: 10,
            value: { samples[$1 * frames + $0] }, time: { times[$0] }, gaps: gaps, onFrame: { expected.append($0) })
        let channel0 = rows.filter { $0.channel == 0 }
        try #require(channel0.count == expected.count)
        #expect(channel0.contains { $0.filled_samples == 5 })
        for (row, frame) in zip(channel0, expected) {
            #expect(row.sample_index == Int64(frame.sampleIndex) && row.filled_samples == CInt(frame.filledSamples))
            #expect(row.excluded == (frame.isExcluded ? 1 : 0))
            let dominant = C.doubles(row.dominant_hz, count: 3)
            #expect(
                zip(dominant, frame.channels[0].bands.map { $0.dominantFrequency ?? .nan }).allSatisfy {
                    C.same($0, $1)
                })
            #expect(C.doubles(row.band_power, count: 3) == frame.channels[0].bands.map(\.power))
        }
        // After the restart the next window ends a full window of real samples later.
        let restart = 5000 + 5 + 400
        #expect(channel0.first { $0.sample_index >= Int64(restart) }?.sample_index == Int64(restart + 255))
    }

    @Test("strided pushes read blocks in place from a longer channel-major array, and read nothing past each block")
    func stridedPushes() throws {
        let frames = 20 * 250
        var samples = Self.signal(seconds: 20)
        let times = (0..<frames).map { 1_700_000_000 + Double($0) / 250 }
        var config = C.defaultConfig()
        config.baseline_seconds = 5
        func rows(_ push: (OpaquePointer?, Int, Int) -> CInt) throws -> [axon_spectrum_row] {
            var (status, engine) = C.engine(config)
            try #require(status == AXON_OK, "\(C.lastError)")
            defer { _ = axon_engine_destroy(&engine) }
            for start in stride(from: 0, to: frames, by: 700) {
                status = push(engine, start, min(frames, start + 700))
                try #require(status == AXON_OK, "\(C.lastError)")
            }
            return C.takeSpectra(engine, chunk: 1000)
        }
        func block(_ start: Int, _ end: Int) -> [Double] {
            (0..<4).flatMap { channel in samples[(channel * frames + start)..<(channel * frames + end)] }
        }
        let copied = try rows { engine, start, end in axon_engine_push(engine, block(start, end), 4, end - start) }
        let timedCopies = try rows { engine, start, end in
            axon_engine_push_timed(engine, block(start, end), Array(times[start..<end]), 4, end - start)
        }
        // Poison the sample after every block in every channel: a strided push must not read it.
        let strided = try samples.withUnsafeMutableBufferPointer { buffer in
            try rows { engine, start, end in
                let saved = (0..<4).map { channel in end < frames ? buffer[channel * frames + end] : 0 }
                for channel in 0..<4 where end < frames { buffer[channel * frames + end] = .nan }
                defer { for channel in 0..<4 where end < frames { buffer[channel * frames + end] = saved[channel] } }
                return axon_engine_push_strided(engine, buffer.baseAddress! + start, frames, nil, 4, end - start)
            }
        }
        let timedStrided = try samples.withUnsafeBufferPointer { buffer in
            try times.withUnsafeBufferPointer { times in
                try rows { engine, start, end in
                    axon_engine_push_strided(
                        engine, buffer.baseAddress! + start, frames, times.baseAddress! + start, 4, end - start)
                }
            }
        }
        try #require(copied.count == 4 * ((frames - 256) / 250 + 1))
        func bytes(_ rows: [axon_spectrum_row]) -> [UInt8] { rows.withUnsafeBytes { Array($0) } }
        #expect(bytes(strided) == bytes(copied))
        #expect(timedCopies.map(\.time) != copied.map(\.time))
        #expect(timedStrided.count == timedCopies.count)
        #expect(zip(timedStrided, timedCopies).allSatisfy { $0.time == $1.time && $0.sample_index == $1.sample_index })

        var (status, engine) = C.engine(config)
        try #require(status == AXON_OK)
        defer { _ = axon_engine_destroy(&engine) }
        samples[2 * frames + 1003] = .infinity
        samples.withUnsafeBufferPointer { buffer in
            #expect(axon_engine_push_strided(engine, buffer.baseAddress!, frames, nil, 4, frames + 1) != AXON_OK)
            #expect(C.lastError == "axon_engine_push_strided: channel_stride 5000 is less than count 5001")
            status = axon_engine_push_strided(engine, buffer.baseAddress! + 1000, frames, nil, 4, 100)
            #expect(status == AXON_ERR_INVALID_ARGUMENT)
            #expect(C.lastError.contains("sample 3 of channel 2 is inf"), "\(C.lastError)")
        }
    }

    @Test("misuse: wrong channel count, NaN, NULLs, a refused push changes nothing")
    func pushErrors() throws {
        var (status, engine) = C.engine(C.defaultConfig())
        try #require(status == AXON_OK)
        defer { _ = axon_engine_destroy(&engine) }
        let block = Array(Self.signal(seconds: 2))
        status = axon_engine_push(engine, block, 3, 500)
        #expect(status == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError == "axon_engine_push: 3 channels pushed; the engine was made for 4")
        var poisoned = block
        poisoned[1 * 500 + 3] = .nan
        #expect(axon_engine_push(engine, poisoned, 4, 500) == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError.contains("sample 3 of channel 1 is nan"), "\(C.lastError)")
        #expect(axon_engine_push(engine, nil, 4, 500) == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_engine_push_timed(engine, block, nil, 4, 500) == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError == "axon_engine_push_timed: times is NULL")
        #expect(axon_engine_push(engine, nil, 4, 0) == AXON_OK)
        #expect(axon_engine_skip(engine, -1) == AXON_ERR_INVALID_ARGUMENT)
        var (rows, indicators) = (-1, -1)
        #expect(axon_engine_pending(engine, &rows, &indicators) == AXON_OK && rows == 0 && indicators == 0)
        // The refused pushes left the engine at sample 0: the first window still ends at sample 255.
        #expect(axon_engine_push(engine, block, 4, 500) == AXON_OK)
        let taken = C.takeSpectra(engine)
        #expect(taken.first?.sample_index == 255 && taken.count == 4)

        var one = axon_spectrum_row()
        var count = -1
        #expect(axon_engine_take_spectra(engine, &one, 1, nil) == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_engine_take_spectra(engine, &one, 1, &count) == AXON_OK && count == 0)
        #expect(axon_engine_push(nil, block, 4, 500) == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError == "axon_engine_push: engine is NULL")
    }

    @Test("indicators with too small a zones array: buffer too small while indicators wait")
    func zonesTooSmall() throws {
        var config = C.defaultConfig()
        config.baseline_seconds = 2
        config.indicator_seconds = 2
        var (status, engine) = C.engine(config)
        try #require(status == AXON_OK)
        defer { _ = axon_engine_destroy(&engine) }
        #expect(axon_engine_push(engine, Self.signal(seconds: 8), 4, 8 * 250) == AXON_OK)
        var waiting = 0
        #expect(axon_engine_pending(engine, nil, &waiting) == AXON_OK && waiting >= 2)
        var indicators = [axon_indicator](repeating: axon_indicator(), count: 4)
        var zones = [axon_channel_zone](repeating: axon_channel_zone(), count: 3)
        var count = -1
        status = axon_engine_take_indicators(engine, &indicators, 4, &zones, 3, &count)
        #expect(status == AXON_ERR_BUFFER_TOO_SMALL && count == -1)
        #expect(C.lastError.contains("each indicator has 4 channel zones; zones holds 3"), "\(C.lastError)")
        // Room for one indicator's zones takes one; without zones the rest go.
        zones = [axon_channel_zone](repeating: axon_channel_zone(), count: 7)
        #expect(axon_engine_take_indicators(engine, &indicators, 4, &zones, 7, &count) == AXON_OK && count == 1)
        #expect(zones[0].indicator == indicators[0].index && zones[3].channel == 3)
        #expect(axon_engine_take_indicators(engine, &indicators, 4, nil, 0, &count) == AXON_OK)
        #expect(count == waiting - 1)
        #expect(axon_engine_pending(engine, nil, &waiting) == AXON_OK && waiting == 0)
    }

    @Test("configs the engine cannot run are refused with the parameter named")
    func configErrors() {
        func refused(_ change: (inout axon_engine_config) -> Void) -> String {
            var config = C.defaultConfig()
            change(&config)
            let (status, engine) = C.engine(config)
            #expect(status == AXON_ERR_INVALID_ARGUMENT && engine == nil)
            return C.lastError
        }
        #expect(refused { $0.struct_size = 0 }.contains("set the config up with axon_engine_config_default"))
        #expect(refused { $0.window_size = 4 }.contains("window of 4 samples is below 8"))
        #expect(refused { $0.band_count = 9 }.contains("band_count = 9"))
        #expect(refused { $0.bands.1 = axon_band(low_hz: 13, high_hz: 7) }.contains("bands[1] = 13.0–7.0 Hz"))
        #expect(refused { $0.bands.2 = axon_band(low_hz: 100, high_hz: 200) }.contains("EEG engine set-up failed"))
        #expect(refused { $0.sample_rate = .nan }.contains("sample rate"))
        #expect(refused { $0.channel_count = 0 }.contains("channel_count = 0"))
        #expect(refused { $0.alpha_band = 5 }.contains("band role index 5"))
        #expect(refused { $0.blink_scale = -1 }.contains("blink_scale = -1.0"))
        let labels: [UnsafePointer<CChar>?] = [nil, nil, nil, nil]
        let message = labels.withUnsafeBufferPointer { pointer in
            refused { $0.channel_labels = pointer.baseAddress }
        }
        #expect(message == "axon_engine_create: channel_labels[0] is NULL")
        var engine: OpaquePointer?
        #expect(axon_engine_create(nil, &engine) == AXON_ERR_INVALID_ARGUMENT)
    }

    @Test(
        "config for a recording: axon analyze's rate, labels, one-second hop and rail",
        arguments: [
            ("datasets/openbci-cyton-eyes-closed/OpenBCI_GUI-v6-blinks-jawClench-alpha.txt", 250),
            ("datasets/physionet-eegmmidb/S001R01.edf", 160),
        ])
    func configForRecording(_ path: String, hop: Int) throws {
        let file = BuiltLibrary.file(path)
        let recording = try RecordingReader.read(path: file)
        let fitted = EEGEngine.Configuration().fitted(to: recording.descriptor, hop: nil)
        var (status, handle) = C.open(file)
        try #require(status == AXON_OK)
        defer { _ = axon_recording_close(&handle) }
        var config = C.defaultConfig()
        #expect(axon_engine_config_for_recording(handle, &config) == AXON_OK)
        #expect(config.sample_rate == recording.sampleRate && config.channel_count == recording.channelCount)
        #expect(config.hop == CInt(hop) && config.start_time == recording.startTime)
        #expect(config.rail_magnitude == fitted.quality.railMagnitude ?? 0)
        let labels = (0..<config.channel_count).map { String(cString: config.channel_labels[$0]!) }
        #expect(labels == recording.channelLabels)
        var unset = axon_engine_config()
        #expect(axon_engine_config_for_recording(handle, &unset) == AXON_ERR_INVALID_ARGUMENT)
    }

    @Test("destroyed engines: closed handle on every later call; names of zones and statuses")
    func destroyedAndNames() throws {
        var (status, engine) = C.engine(C.defaultConfig())
        try #require(status == AXON_OK)
        let copy = engine
        #expect(axon_engine_destroy(&engine) == AXON_OK && engine == nil)
        #expect(axon_engine_push(copy, [0, 0, 0, 0], 4, 1) == AXON_ERR_CLOSED_HANDLE)
        #expect(C.lastError == "axon_engine_push: the engine handle is closed")
        var again = copy
        #expect(axon_engine_destroy(&again) == AXON_ERR_CLOSED_HANDLE && again == nil)
        #expect(axon_engine_destroy(nil) == AXON_ERR_INVALID_ARGUMENT)
        for zone in ActivityZone.allCases {
            #expect(String(cString: axon_zone_name(CInt(zone.rawValue))) == zone.description)
        }
        #expect(String(cString: axon_zone_name(AXON_ZONE_LEFT_OUT)) == "left out")
        #expect(String(cString: axon_status_name(AXON_ERR_CLOSED_HANDLE)) == "AXON_ERR_CLOSED_HANDLE")
        #expect(String(cString: axon_status_name(42)) == "unknown status")
        #expect(axon_abi_version() == AXON_ABI_VERSION)
    }
}

extension Array where Element == Int {
    /// The sizes repeated until they add up to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var sizes: [Int] = []
        var sum = 0
        while sum < total {
            let size = self[sizes.count % count]
            sizes.append(size)
            sum += size
        }
        return sizes
    }
}
