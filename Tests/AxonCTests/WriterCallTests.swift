import AxonRecording
import CAxonABI
import Foundation
import Testing

/// The writer calls of axon.h: an EDF+ and a BDF+ file written from channel-major blocks read back with Axon's
/// reader to within one digital step, with their annotations; and the errors.
@Suite("axon.h writer: EDF+ and BDF+ written from C read back; errors")
struct WriterCallTests {
    static func temporaryPath(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("axon-c-\(UUID().uuidString).\(ext)").path
    }

    @Test(
        "10 s of 3 channels in odd blocks, read back within a step; the annotation at 2.5 s",
        arguments: [(AXON_FORMAT_EDF_PLUS, "edf", 0.1), (AXON_FORMAT_BDF_PLUS, "bdf", 0.1)])
    func roundTrip(_ format: CInt, _ ext: String, _ step: Double) throws {
        let path = Self.temporaryPath(ext)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var config = axon_writer_config()
        #expect(axon_writer_config_default(&config) == AXON_OK)
        config.format = format
        config.channel_count = 3
        config.physical_min = -3276.7
        config.physical_max = 3276.7
        config.start_time = 1_600_000_000
        let labels: [UnsafeMutablePointer<CChar>] = ["Fz", "Cz", "Pz"].map { (label: String) in strdup(label)! }
        defer { labels.forEach { free($0) } }
        var labelPointers: [UnsafePointer<CChar>?] = labels.map { UnsafePointer($0) }
        var writer: OpaquePointer?
        let status = labelPointers.withUnsafeMutableBufferPointer { pointers in
            config.channel_labels = UnsafePointer(pointers.baseAddress)
            return axon_writer_create(path, &config, &writer)
        }
        try #require(status == AXON_OK, "\(C.lastError)")
        let frames = 2500
        var values = [Double](repeating: 0, count: 3 * frames)
        for channel in 0..<3 {
            for frame in 0..<frames {
                let phase = 2 * Double.pi * 10 * Double(frame) / 250 + Double(channel)
                values[channel * frames + frame] = 40 * sin(phase) + Double(channel) * 100
            }
        }
        // Annotated before its record is written, as a live recorder does (a later one goes in an extra record).
        #expect(axon_writer_annotate(writer, 2.5, .nan, "eyes closed") == AXON_OK)
        var from = 0
        for block in [1, 333, 1000, 1166] {
            var chunk: [Double] = []
            for channel in 0..<3 { chunk += values[(channel * frames + from)..<(channel * frames + from + block)] }
            #expect(axon_writer_append(writer, chunk, 3, block) == AXON_OK, "\(C.lastError)")
            from += block
        }
        var copy = writer
        #expect(axon_writer_close(&writer) == AXON_OK && writer == nil, "\(C.lastError)")
        #expect(axon_writer_append(copy, values, 3, 1) == AXON_ERR_CLOSED_HANDLE)
        #expect(axon_writer_close(&copy) == AXON_ERR_CLOSED_HANDLE)

        let recording = try RecordingReader.read(path: path)
        #expect(recording.channelLabels == ["Fz", "Cz", "Pz"])
        #expect(recording.frameCount == frames)
        #expect(recording.sampleRate == 250 && recording.startTime == 1_600_000_000)
        var worst = 0.0
        for frame in 0..<frames {
            for channel in 0..<3 {
                worst = max(
                    worst, abs(recording.value(frame: frame, channel: channel) - values[channel * frames + frame]))
            }
        }
        #expect(worst <= step, "worst error \(worst)")
        let texts = recording.markers.compactMap { marker in marker.text.map { (marker.frame, $0) } }
        #expect(texts.contains { $0 == (625, "eyes closed") }, "\(texts)")
    }

    @Test("configs the format cannot hold, a missing folder, misuse")
    func errors() throws {
        func created(_ path: String, _ change: (inout axon_writer_config) -> Void) -> CInt {
            var config = axon_writer_config()
            _ = axon_writer_config_default(&config)
            change(&config)
            var writer: OpaquePointer?
            let status = axon_writer_create(path, &config, &writer)
            if status == AXON_OK { _ = axon_writer_close(&writer) }
            return status
        }
        let path = Self.temporaryPath("edf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(created(path) { $0.format = 7 } == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError.contains("format = 7"))
        #expect(created(path) { $0.sample_rate = 250.5 } == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError.contains("not a whole number of samples"), "\(C.lastError)")
        #expect(
            created(path) {
                $0.physical_min = 5; $0.physical_max = -5
            } == AXON_ERR_INVALID_ARGUMENT)
        #expect(created(path) { $0.struct_size = 1 } == AXON_ERR_INVALID_ARGUMENT)
        #expect(created("/nonexistent/folder/x.edf") { _ in } == AXON_ERR_IO)
        #expect(C.lastError.contains("/nonexistent/folder/x.edf"), "\(C.lastError)")

        var config = axon_writer_config()
        _ = axon_writer_config_default(&config)
        var writer: OpaquePointer?
        try #require(axon_writer_create(path, &config, &writer) == AXON_OK)
        #expect(axon_writer_append(writer, [1, 2, 3], 3, 1) == AXON_ERR_INVALID_ARGUMENT)
        #expect(C.lastError == "axon_writer_append: 3 channels given; the file has 4")
        #expect(axon_writer_append(writer, [1, 2, .infinity, 4], 4, 1) == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_writer_annotate(writer, .nan, 0, "x") == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_writer_annotate(writer, 0, 0, nil) == AXON_ERR_INVALID_ARGUMENT)
        #expect(axon_writer_close(&writer) == AXON_OK)
        #expect(axon_writer_close(nil) == AXON_ERR_INVALID_ARGUMENT)
    }
}
