// AxonC — writing EDF+ and BDF+ files through axon.h.

import AxonRecording
import AxonStreams
import CAxonABI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sets a writer config to the defaults, struct_size included (`axon.h`).
@c @implementation
public func axon_writer_config_default(_ config: UnsafeMutablePointer<axon_writer_config>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        guard let config else { throw .null("config", in: "axon_writer_config_default") }
        var result = axon_writer_config()
        result.struct_size = MemoryLayout<axon_writer_config>.stride
        result.format = AXON_FORMAT_EDF_PLUS
        result.sample_rate = 250
        result.channel_count = 4
        result.channel_labels = nil
        result.unit = staticCString("uV")
        result.physical_min = 0
        result.physical_max = 0
        result.start_time = .nan
        result.record_seconds = 1
        config.pointee = result
    }
}

/// Creates an EDF+/BDF+ file and writes its header (`axon.h`).
@c @implementation
public func axon_writer_create(
    _ path: UnsafePointer<CChar>?, _ config: UnsafePointer<axon_writer_config>?,
    _ writer: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_writer_create"
        guard let path else { throw .null("path", in: function) }
        guard let config else { throw .null("config", in: function) }
        guard let writer else { throw .null("writer", in: function) }
        let settings = try WriterSettings(config.pointee, in: function)
        let created: EDFWriter
        do throws(EDFWriterError) {
            created = try EDFWriter(
                path: String(cString: path), descriptor: settings.descriptor,
                startUnixTime: settings.startTime ?? 0, options: settings.options)
        } catch { throw CallFailure(error, in: function) }
        writer.pointee = HandleRegistry.shared.open(WriterHandle(created))
    }
}

/// Appends channel-major frames (`axon.h`).
@c @implementation
public func axon_writer_append(
    _ writer: OpaquePointer?, _ samples: UnsafePointer<Double>?, _ channels: Int, _ count: Int
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_writer_append"
        let handle = try WriterHandle.from(writer, in: function)
        guard
            let samples = try checkedSampleBlock(
                samples, channels: channels, count: count, expected: handle.channelCount,
                mismatch: "\(channels) channels given; the file has \(handle.channelCount)", in: function)
        else { return }
        do throws(EDFWriterError) { try handle.append(samples, count: count) } catch {
            throw CallFailure(error, in: function)
        }
    }
}

/// Annotates a text at an onset (`axon.h`).
@c @implementation
public func axon_writer_annotate(
    _ writer: OpaquePointer?, _ onsetSeconds: Double, _ durationSeconds: Double, _ text: UnsafePointer<CChar>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_writer_annotate"
        let handle = try WriterHandle.from(writer, in: function)
        guard let text else { throw .null("text", in: function) }
        guard onsetSeconds.isFinite else { throw .invalidArgument("\(function): onset_seconds is \(onsetSeconds)") }
        guard !handle.writer.isClosed else {
            throw CallFailure(EDFWriterError.closed(path: handle.writer.path), in: function)
        }
        let duration = durationSeconds.isFinite && durationSeconds >= 0 ? durationSeconds : nil
        handle.writer.annotate(
            onset: onsetSeconds, duration: duration, utf8: UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }
}

/// Completes and closes the file, frees the writer and sets the caller's pointer to NULL (`axon.h`).
@c @implementation
public func axon_writer_close(_ writer: UnsafeMutablePointer<OpaquePointer?>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_writer_close"
        guard let writer else { throw .null("writer", in: function) }
        guard let value = writer.pointee else { return }
        let handle = try WriterHandle.from(value, in: function)
        // The handle goes whatever the file's end does: a failed close cannot be retried on a discarded descriptor.
        try HandleRegistry.shared.close(writer, as: WriterHandle.self, kind: WriterHandle.kind, in: function)
        do throws(EDFWriterError) { try handle.writer.close() } catch { throw CallFailure(error, in: function) }
    }
}
