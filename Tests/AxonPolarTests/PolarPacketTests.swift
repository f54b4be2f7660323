import AxonPolar
import AxonStreams
import Testing

/// The PMD wire format, byte for byte, from Polar's own SDK (polarofficial/polar-ble-sdk: `BlePMDClient`,
/// `PmdControlPointResponse`, `PmdSetting`, `EcgDataTest`, `AccDataTest`).
@Suite("Polar PMD packets")
struct PolarPacketTests {
    @Test(
        "commands: settings, start with the H10's settings, stop",
        arguments: [
            (PolarCommand.start(.ecg, .h10ECG), [0x02, 0x00, 0x00, 0x01, 0x82, 0x00, 0x01, 0x01, 0x0E, 0x00]),
            (
                .start(.accelerometer, .h10Accelerometer()),
                [0x02, 0x02, 0x00, 0x01, 0xC8, 0x00, 0x01, 0x01, 0x10, 0x00, 0x02, 0x01, 0x08, 0x00]
            ),
            (
                .start(.accelerometer, .h10Accelerometer(rate: 25, range: 2)),
                [0x02, 0x02, 0x00, 0x01, 0x19, 0x00, 0x01, 0x01, 0x10, 0x00, 0x02, 0x01, 0x02, 0x00]
            ),
            (.stop(.ecg), [0x03, 0x00]), (.stop(.accelerometer), [0x03, 0x02]), (.settings(.ecg), [0x01, 0x00]),
        ] as [(PolarCommand, [UInt8])])
    func commands(command: PolarCommand, bytes: [UInt8]) throws {
        #expect(try command.bytes() == bytes)
    }

    @Test(
        "settings an H10 does not offer are refused before anything is sent",
        arguments: [
            (PolarMeasurementType.ecg, PolarSettings(sampleRate: 250, resolution: 14)),
            (.ecg, PolarSettings(sampleRate: 130, resolution: 16)),
            (.accelerometer, PolarSettings(sampleRate: 52, resolution: 16, range: 8)),
            (.accelerometer, PolarSettings(sampleRate: 200, resolution: 16, range: 16)),
            (.accelerometer, PolarSettings(sampleRate: 200, resolution: 16)),
            (.ppg, PolarSettings(sampleRate: 135, resolution: 22)),
        ] as [(PolarMeasurementType, PolarSettings)])
    func invalidSettings(type: PolarMeasurementType, settings: PolarSettings) {
        #expect(throws: PolarError.self) { try PolarCommand.start(type, settings).bytes() }
    }

    @Test("control-point answers: success with parameters, errors, malformed")
    func responses() throws {
        let started = try PolarControlPointResponse(bytes: [0xF0, 0x02, 0x00, 0x00, 0x00])
        #expect(started.opCode == 2 && started.measurement == 0 && started.status == .success)
        #expect(!started.more && started.parameters.isEmpty)
        #expect(started.answers(.start(.ecg, .h10ECG)) && !started.answers(.start(.accelerometer, .h10Accelerometer())))
        let settings = try PolarControlPointResponse(bytes: [
            0xF0, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0x82, 0x00, 0x01, 0x01, 0x0E, 0x00,
        ])
        #expect(settings.parameters == PolarSettings.h10ECG.bytes)
        let again = try PolarControlPointResponse(bytes: [0xF0, 0x02, 0x02, 0x06])
        #expect(again.status == .alreadyInState && again.parameters.isEmpty)
        #expect(try PolarControlPointResponse(bytes: [0xF0, 0x02, 0x02, 0x08]).status == .invalidSampleRate)
        #expect(throws: PolarError.malformedResponse([0xF0, 0x02])) {
            try PolarControlPointResponse(bytes: [0xF0, 0x02])
        }
        #expect(throws: PolarError.malformedResponse([0x0F, 0x05, 0x00, 0x00])) {
            try PolarControlPointResponse(bytes: [0x0F, 0x05, 0x00, 0x00])
        }
        #expect(throws: PolarError.malformedResponse([0xF0, 0x02, 0x00, 0x20])) {
            try PolarControlPointResponse(bytes: [0xF0, 0x02, 0x00, 0x20])
        }
    }

    @Test("settings answers: the H10's offered ECG and ACC settings, a factor, malformed entries")
    func settingsAnswers() throws {
        let ecg = try PolarSettingsAnswer(parameters: PolarSettings.h10ECG.bytes)
        #expect(ecg.sampleRates == [130] && ecg.values[1] == [14] && ecg.factor == nil)
        let acc = try PolarSettingsAnswer(parameters: [
            0x00, 0x04, 0x19, 0x00, 0x32, 0x00, 0x64, 0x00, 0xC8, 0x00, 0x01, 0x01, 0x10, 0x00, 0x02, 0x03, 0x02, 0x00,
            0x04, 0x00, 0x08, 0x00,
        ])
        #expect(acc.sampleRates == [25, 50, 100, 200] && acc.values[1] == [16] && acc.ranges == [2, 4, 8])
        // Factor 2.44E-4 (AccDataTest's) as its float bits, little-endian.
        let bits = Float(2.44e-4).bitPattern
        let factor = try PolarSettingsAnswer(parameters: [
            0x05, 0x01, UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24),
        ])
        #expect(factor.factor == Float(2.44e-4))
        #expect(throws: PolarError.self) { try PolarSettingsAnswer(parameters: [0x00, 0x02, 0x82, 0x00]) }
        #expect(throws: PolarError.self) { try PolarSettingsAnswer(parameters: [0x09, 0x01, 0x00]) }
    }

    @Test("the feature read announces ECG and ACC on an H10")
    func features() {
        #expect(PolarMeasurementType.announced(byFeatures: [0x0F, 0x05, 0x00]) == [.ecg, .accelerometer])
        #expect(PolarMeasurementType.announced(byFeatures: [0x0F, 0x01]) == [.ecg])
        #expect(PolarMeasurementType.announced(byFeatures: [0xF0, 0x05, 0x00]).isEmpty)
        #expect(PolarMeasurementType.announced(byFeatures: [0x0F]).isEmpty)
    }

    /// EcgDataTest's raw type 0 frame: timestamp 0x77359400 (2 000 000 000 ns), samples 02 80 FF, 02 80 00.
    @Test("an ECG frame: int24 LE µV, the timestamp of its last sample")
    func ecgFrame() throws {
        let bytes: [UInt8] = [0x00, 0x00, 0x94, 0x35, 0x77, 0, 0, 0, 0, 0x00, 0x02, 0x80, 0xFF, 0x02, 0x80, 0x00]
        let frame = try PolarDataFrame(bytes: bytes)
        #expect(frame.measurement == .ecg && frame.frameType == 0 && !frame.isCompressed)
        #expect(frame.timestamp == 2_000_000_000)
        #expect(frame.values == [-32766, 32770])
        #expect(frame.sampleTime(1, rate: 130) == 2_000_000_000)
        #expect(frame.sampleTime(0, rate: 130) == 2_000_000_000 - 7_692_308)
    }

    /// AccDataTest's raw type 1 frame: its first two samples (-9, -1, 999), (-8, -2, 997) mG.
    @Test("an ACC frame of type 1: int16 LE x, y, z in mG")
    func accelerometerFrame() throws {
        let header: [UInt8] = [0x02, 0x00, 0x94, 0x35, 0x77, 0, 0, 0, 0, 0x01]
        let body: [UInt8] = [0xF7, 0xFF, 0xFF, 0xFF, 0xE7, 0x03, 0xF8, 0xFF, 0xFE, 0xFF, 0xE5, 0x03]
        let frame = try PolarDataFrame(bytes: header + body)
        #expect(frame.measurement == .accelerometer && frame.channelCount == 3 && frame.sampleCount == 2)
        #expect(frame.values == [-9, -1, 999, -8, -2, 997])
    }

    /// AccDataTest's compressed frame: reference (1905, 27376, −29282), one block of 56 samples of 10-bit deltas;
    /// sample 1 = reference + (190, −105, −85).
    @Test("a compressed (delta) frame decodes as Polar's SDK decodes it")
    func deltaFrame() throws {
        let values = try PolarDeltaFrame.decode(Self.sdkDeltaFrame, channels: 3, resolution: 16)
        #expect(values.count == 57 * 3)
        #expect(Array(values[0..<6]) == [1905, 27376, -29282, 1905 + 190, 27376 - 105, -29282 - 85])
        // As an ACC frame of type 0x81 (compressed type 1), the same values in mG.
        let frame = try PolarDataFrame(bytes: [0x02, 0, 0, 0, 0, 0, 0, 0, 1, 0x81] + Self.sdkDeltaFrame)
        #expect(frame.isCompressed && frame.sampleCount == 57 && frame.values == values)
        #expect(throws: PolarFrameError.self) {
            try PolarDeltaFrame.decode(Array(Self.sdkDeltaFrame.dropLast()), channels: 3, resolution: 16)
        }
        #expect(throws: PolarFrameError.malformedDeltaFrame("a delta width of 0 bits")) {
            try PolarDeltaFrame.decode([1, 0, 2, 0, 3, 0, 0, 4], channels: 3, resolution: 16)
        }
    }

    @Test(
        "malformed frames are typed errors",
        arguments: [
            ([0x00, 0x01, 0x02], PolarFrameError.tooShort(3)),
            ([0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x00], .noSamples),
            ([0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x01, 0x02, 0x03, 0x04], .partialSample(bytes: 4, sampleSize: 3)),
            (
                [0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x01, 0x02, 0x03, 0x04, 0x05],
                .partialSample(bytes: 5, sampleSize: 6)
            ),
            ([0x09, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x01, 0x02, 0x03], .unsupportedMeasurement(0x09)),
            ([0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x01, 0x02, 0x03], .unsupportedFrameType(.ecg, 0x01)),
            ([0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x01, 0x02, 0x03], .unsupportedFrameType(.ecg, 0x80)),
            (
                [0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0x01, 0x02],
                .malformedDeltaFrame("2 bytes hold no 3-channel reference sample")
            ),
        ] as [([UInt8], PolarFrameError)])
    func malformed(bytes: [UInt8], error: PolarFrameError) {
        #expect(throws: error) { try PolarDataFrame(bytes: bytes) }
    }

    @Test("the decoder counts samples from the strap's clock: a lost frame is a jump, a bad frame is counted")
    func decoderGaps() throws {
        let layout = FrameLayout(channelCount: 1)
        let ring = SPSCRing<Double>(capacity: 1024, width: layout.width, overflow: .rejectNewest)
        let writer = FrameWriter(ring: ring, layout: layout)
        let decoder = PolarDecoder()
        let origin: UInt64 = 599_616_000_000_000_000
        func frame(_ k: Int) -> [UInt8] {
            let last = origin + UInt64((k * 73 + 72) * 1_000_000_000 / 130)
            let stamp = (0..<8).map { UInt8(truncatingIfNeeded: last >> (8 * UInt64($0))) }
            return [0x00] + stamp + [0x00]
                + (0..<73).flatMap { i -> [UInt8] in
                    let v = k * 73 + i - 100
                    return [
                        UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8),
                        UInt8(truncatingIfNeeded: v >> 16),
                    ]
                }
        }
        for k in [0, 1, 3] { try decoder.decode(frame(k), arrivalTime: 1, into: writer) { _, _, _ in } }
        #expect(throws: PolarFrameError.tooShort(4)) {
            try decoder.decode([0, 1, 2, 3], arrivalTime: 1, into: writer) { _, _, _ in }
        }
        #expect(decoder.statistics.ecgFrames == 3 && decoder.statistics.ecgSamples == 219)
        #expect(decoder.statistics.missingECGSamples == 73 && decoder.statistics.rejected == 1)
        var slots = [Double](repeating: 0, count: 219 * layout.width)
        let popped = slots.withUnsafeMutableBufferPointer { ring.pop(into: $0) }
        #expect(popped == 219)
        let counters = (0..<219).map { slots[$0 * layout.width + FrameLayout.counterLane] }
        let values = (0..<219).map { slots[$0 * layout.width + FrameLayout.headerLanes] }
        let kept: [Int] = Array(0..<146) + Array(219..<292)
        let expectedCounters: [Double] = kept.map { Double($0) }
        let expectedValues: [Double] = kept.map { Double($0 - 100) }
        #expect(counters == expectedCounters)
        #expect(values == expectedValues)
        let times = (0..<219).map { slots[$0 * layout.width + FrameLayout.deviceTimeLane] }
        #expect(abs(times[0] - Double(origin) / 1e9) < 1e-6)
        #expect(abs((times[146] - times[145]) * 130 - 74) < 0.01)
    }

    @Test("a strap clock set back (a reset) continues the sample indices without a gap; ACC frames report theirs")
    func clockReset() throws {
        let layout = FrameLayout(channelCount: 1)
        let ring = SPSCRing<Double>(capacity: 512, width: layout.width, overflow: .rejectNewest)
        let writer = FrameWriter(ring: ring, layout: layout)
        let decoder = PolarDecoder(accelerometerRate: 200)
        func ecg(lastStamp: UInt64) -> [UInt8] {
            [0x00] + (0..<8).map { UInt8(truncatingIfNeeded: lastStamp >> (8 * UInt64($0))) } + [0x00]
                + [UInt8](repeating: 0, count: 3 * 73)
        }
        let period = UInt64(1_000_000_000 / 130)
        let later: UInt64 = 700_000_000_000_000_000
        let reset: UInt64 = 599_616_000_000_000_000  // 2019-01-01: the H10's time after a power-off
        for stamp in [later, later + 73 * period, reset, reset + 73 * period] {
            try decoder.decode(ecg(lastStamp: stamp), arrivalTime: 1, into: writer) { _, _, _ in }
        }
        #expect(decoder.statistics.missingECGSamples == 0 && decoder.statistics.ecgSamples == 4 * 73)
        var slots = [Double](repeating: 0, count: 4 * 73 * layout.width)
        #expect(slots.withUnsafeMutableBufferPointer { ring.pop(into: $0) } == 4 * 73)
        let counters = (0..<(4 * 73)).map { slots[$0 * layout.width + FrameLayout.counterLane] }
        #expect(counters == (0..<(4 * 73)).map { Double($0) })

        // Two ACC frames of 36 samples at 200 Hz, one lost between them: the third starts at index 72.
        var firsts: [Int64] = []
        for k: UInt64 in [0, 2] {
            let last = later + (k * 36 + 35) * 5_000_000
            let frame: [UInt8] =
                [0x02] + (0..<8).map { UInt8(truncatingIfNeeded: last >> (8 * UInt64($0))) } + [0x01]
                + [UInt8](repeating: 0, count: 6 * 36)
            try decoder.decode(frame, arrivalTime: 1, into: writer) { frame, times, first in
                #expect(frame.sampleCount == 36 && times.count == 36)
                #expect(abs((times[35] - times[0]) - 35.0 / 200) < 1e-6)
                firsts.append(first)
            }
        }
        #expect(firsts == [0, 72])
    }

    static let sdkDeltaFrame: [UInt8] = [
        0x71, 0x07, 0xF0, 0x6A, 0x9E, 0x8D, 0x0A, 0x38, 0xBE, 0x5C, 0xBE, 0xBA, 0x2F, 0x96, 0xB3, 0xEE, 0x4B, 0xE5,
        0xAD,
        0xFB, 0x42, 0xB9, 0xEB, 0xBE, 0x4C, 0xFE, 0xBA, 0x2F, 0x92, 0xBF, 0xEE, 0x4B, 0xE4, 0xB1, 0xFB, 0x12, 0xB9,
        0xEC,
        0xBD, 0x3C, 0x3E, 0xBB, 0x2F, 0x8F, 0xD3, 0xDE, 0x4B, 0xE3, 0xB5, 0xF7, 0xD2, 0xB8, 0xED, 0xBD, 0x30, 0x7E,
        0x7B,
        0x2F, 0x8B, 0xE3, 0xCE, 0x8B, 0xE2, 0xBA, 0xF7, 0xA2, 0xB8, 0xEE, 0xBC, 0x20, 0xBE, 0x7B, 0x2F, 0x88, 0xF3,
        0xCE,
        0xCB, 0xE1, 0xBD, 0xEF, 0x52, 0xF8, 0xEF, 0xBC, 0x18, 0xFE, 0x3B, 0x2F, 0x84, 0x03, 0xBF, 0xCB, 0xE0, 0xC2,
        0xEF,
        0x32, 0xB8, 0xF0, 0xBB, 0x04, 0x4E, 0xBC, 0x2E, 0x81, 0x13, 0xAF, 0x0B, 0xE0, 0xC6, 0xEF, 0xF2, 0xF7, 0xF1,
        0xB9,
        0xFC, 0x7D, 0xBC, 0x2E, 0x7D, 0x27, 0x9F, 0x4B, 0xDF, 0xCA, 0xEB, 0xC2, 0xF7, 0xF2, 0xB8, 0xEC, 0xCD, 0x7C,
        0x2E,
        0x7B, 0x37, 0x8F, 0x4B, 0xDE, 0xCE, 0xE3, 0x92, 0xF7, 0xF3, 0xB8, 0xE0, 0x0D, 0xFD, 0x2D, 0x77, 0x4B, 0x7F,
        0xCB,
        0xDD, 0xD2, 0xDF, 0x62, 0x37, 0xF5, 0xB7, 0xD4, 0x4D, 0xBD, 0x2D, 0x74, 0x5B, 0x6F, 0xCB, 0xDC, 0xD7, 0xD7,
        0x32,
        0x37, 0xF6, 0xB5, 0xC8, 0x8D, 0x7D, 0x2D, 0x71, 0x6B, 0x4F, 0x4B, 0xDC, 0xDC, 0xD3, 0xF2, 0x36, 0xF7, 0xB4,
        0xBC,
        0xDD, 0xFD, 0x2C, 0x6F, 0x7B, 0x3F, 0x4B, 0xDB, 0xE0, 0xCF, 0xD2, 0x36, 0xF8, 0xB2, 0xB0, 0x2D, 0xBE, 0x2C,
        0x6C,
        0x8F, 0x1F, 0xCB, 0xDA, 0xE3, 0xC7, 0xA2, 0x76, 0xF9,
    ]
}
