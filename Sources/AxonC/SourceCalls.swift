// AxonC — live sources through axon.h: any SOURCE the commands take, opened, described, read and closed.

import AxonBluetooth
import AxonBrainiac
import AxonConnect
import AxonDevices
import AxonLSL
import AxonRecording
import AxonStreams
import CAxonABI
import Foundation

/// How `axon_source_open` opens a SOURCE, from its JSON options.
private struct SourceOptions {
    static let keys: Set<String> = ["channels", "bus", "search_seconds", "lsl_config", "muse_preset", "seconds", "speed"]
    var device = LiveEEGDevice.Options()
    /// Seconds a simulator or a test sequence runs (nil: until closed); seconds of a recording replayed.
    var seconds: Double?
    /// The speed of a simulator or a replayed recording (1: real time).
    var speed = 1.0

    init(json text: String?, in function: String) throws(CallFailure) {
        let options = try JSONOptions(text, known: Self.keys, in: function)
        device.channels = try options.texts("channels", "a non-empty list of channel labels")
        if let bus = try options.text("bus", "a D-Bus address") { device.bus = .address(bus) }
        device.searchSeconds = try options.number("search_seconds") ?? device.searchSeconds
        device.lslConfiguration = .forCommand(path: try options.text("lsl_config", "a liblsl configuration file's path"))
        device.musePreset = try options.text("muse_preset", "a preset name (p20, p21)") ?? device.musePreset
        seconds = try options.number("seconds")
        speed = try options.number("speed") ?? speed
        guard device.searchSeconds > 0, device.searchSeconds <= 30 else {
            throw .invalidArgument("\(function): search_seconds takes 0 < s ≤ 30")
        }
        guard seconds.map({ $0 > 0 && $0.isFinite }) ?? true, speed > 0, speed.isFinite else {
            throw .invalidArgument("\(function): seconds and speed take finite numbers above 0")
        }
    }
}

/// Opens a SOURCE and starts streaming it (`axon.h`). Any thread; blocks while a device is searched for.
@c @implementation
public func axon_source_open(
    _ text: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?, _ source: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_source_open"
        guard let text else { throw .null("source_text", in: function) }
        guard let source else { throw .null("source", in: function) }
        guard let sourceText = String(validatingCString: text) else {
            throw .invalidArgument("\(function): the SOURCE is not UTF-8")
        }
        let optionText = options.flatMap { String(validatingCString: $0) }
        if options != nil, optionText == nil { throw .invalidArgument("\(function): options are not UTF-8") }
        let parsed = try SourceOptions(json: optionText, in: function)
        let specifier: SourceSpecifier
        do throws(SourceSpecifierError) { specifier = try SourceSpecifier(parsing: sourceText) } catch {
            throw .invalidArgument("\(function): \(error)")
        }
        source.pointee = HandleRegistry.shared.open(try openSource(specifier, options: parsed, in: function))
    }
}

/// The handle streaming `specifier`.
private func openSource(_ specifier: SourceSpecifier, options: SourceOptions, in function: String) throws(CallFailure)
    -> SourceHandle
{
    switch specifier {
    case .simulator:
        let simulator = SimulatedSource(
            configuration: .init(duration: options.seconds, samplesPerPacket: 5, speed: options.speed))
        return try SourceHandle(
            source: simulator, pipeline: .init(), kind: "simulator", title: "simulated 4-channel EEG", release: {})
    case .testSequence(let frequency):
        let headset = SimulatedBrainiacHeadset(configuration: .init(dominantFrequency: frequency, duration: options.seconds))
        return try SourceHandle(
            source: headset, pipeline: .init(timeline: BrainiacHeadset.timelineConfiguration), kind: "test-sequence",
            title: "simulated Brainiac headset's test sequence", release: {})
    case .file(let path):
        var recording: Recording
        do throws(RecordingError) {
            recording = try RecordingReader.read(path: path)
            if let seconds = options.seconds, seconds < recording.duration {
                recording = try recording.segment(from: 0, to: seconds)
            }
        } catch { throw CallFailure(error, in: function) }
        let replay = RecordingReplaySource(recording: recording, options: .init(speed: .realTime(multiplier: options.speed)))
        return try SourceHandle(
            source: replay, pipeline: replay.pipelineConfiguration(), kind: "recording", title: "replay of \(path)",
            release: {})
    case .brainiac:
        throw .invalidArgument("\(function): a Brainiac headset (ble:) is run by axon demo and axon record, not opened here")
    case .cyton, .muse, .ganglion, .polar, .lsl, .sensor:
        let device: LiveEEGDevice
        do throws(DeviceOpeningError) { device = try blockingOpen(specifier, options: options.device) } catch {
            throw CallFailure(status: AXON_ERR_DEVICE, message: "\(function): \(error)")
        }
        let kind = String(specifier.description.prefix { $0 != ":" })
        return try SourceHandle(
            source: device.source, pipeline: .init(timeline: device.timeline), kind: kind, title: device.title,
            release: device.close)
    }
}

/// ``LiveEEGDevice/open(_:options:progress:)`` from a C caller's thread, which is not one of Swift's: the async
/// opening runs as a task and this thread waits for it.
private func blockingOpen(_ specifier: SourceSpecifier, options: LiveEEGDevice.Options) throws(DeviceOpeningError)
    -> LiveEEGDevice
{
    let outcome = ThreadLocked<Result<LiveEEGDevice, DeviceOpeningError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let result: Result<LiveEEGDevice, DeviceOpeningError>
        do throws(DeviceOpeningError) { result = .success(try await LiveEEGDevice.open(specifier, options: options)) } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}

/// Stops a source, lets go of its device and sets the caller's pointer to NULL (`axon.h`).
@c @implementation
public func axon_source_close(_ source: UnsafeMutablePointer<OpaquePointer?>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_source_close"
        guard let source else { throw .null("source", in: function) }
        if let value = source.pointee { try SourceHandle.from(value, in: function).close() }
        try HandleRegistry.shared.close(source, as: SourceHandle.self, kind: SourceHandle.kind, in: function)
    }
}

/// What a source streams (`axon.h`).
@c @implementation
public func axon_source_get_info(_ source: OpaquePointer?, _ info: UnsafeMutablePointer<axon_source_info>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_source_get_info"
        let handle = try SourceHandle.from(source, in: function)
        guard let info else { throw .null("info", in: function) }
        var result = axon_source_info()
        result.channel_count = handle.descriptor.channelCount
        result.sample_rate = handle.descriptor.nominalRate
        info.pointee = result
    }
}

/// A source's texts: a channel's label or unit, its kind, its title (`axon.h`'s text convention).
private func sourceText(
    _ source: OpaquePointer?, channel: Int?, buffer: UnsafeMutablePointer<CChar>?, capacity: Int,
    length: UnsafeMutablePointer<Int>?, in function: String, _ text: (SourceHandle, Int) -> String
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let handle = try SourceHandle.from(source, in: function)
        if let channel, !(0..<handle.descriptor.channelCount).contains(channel) {
            throw .invalidArgument("\(function): channel \(channel) is outside 0…\(handle.descriptor.channelCount - 1)")
        }
        try copyText(text(handle, channel ?? 0), into: buffer, capacity: capacity, length: length, in: function)
    }
}

/// A channel's label (`axon.h`'s text convention). One thread at a time per source.
@c @implementation
public func axon_source_channel_label(
    _ source: OpaquePointer?, _ channel: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    sourceText(source, channel: channel, buffer: buffer, capacity: capacity, length: length, in: "axon_source_channel_label") {
        $0.descriptor.channels[$1].label
    }
}

/// A channel's unit (`axon.h`'s text convention). One thread at a time per source.
@c @implementation
public func axon_source_channel_unit(
    _ source: OpaquePointer?, _ channel: Int, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    sourceText(source, channel: channel, buffer: buffer, capacity: capacity, length: length, in: "axon_source_channel_unit") {
        $0.descriptor.channels[$1].unit
    }
}

/// The source's kind: `simulator`, `recording`, `cyton`, `lsl`, … (`axon.h`). One thread at a time per source.
@c @implementation
public func axon_source_kind(
    _ source: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    sourceText(source, channel: nil, buffer: buffer, capacity: capacity, length: length, in: "axon_source_kind") { handle, _ in
        handle.kind
    }
}

/// A title for people, `OpenBCI Cyton on /dev/ttyUSB0` (`axon.h`). One thread at a time per source.
@c @implementation
public func axon_source_title(
    _ source: OpaquePointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int, _ length: UnsafeMutablePointer<Int>?
) -> CInt {
    sourceText(source, channel: nil, buffer: buffer, capacity: capacity, length: length, in: "axon_source_title") { handle, _ in
        handle.title
    }
}

/// Reads the next frames, or the next gap record, waiting up to `timeout` seconds (`axon.h`). One thread at a time.
@c @implementation
public func axon_source_read(
    _ source: OpaquePointer?, _ count: Int, _ timeout: Double, _ samples: UnsafeMutablePointer<Double>?,
    _ capacity: Int, _ times: UnsafeMutablePointer<Double>?, _ counters: UnsafeMutablePointer<Double>?,
    _ framesRead: UnsafeMutablePointer<Int>?, _ gap: UnsafeMutablePointer<axon_source_gap>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_source_read"
        let handle = try SourceHandle.from(source, in: function)
        guard let framesRead else { throw .null("frames_read", in: function) }
        guard let gap else { throw .null("gap", in: function) }
        guard let samples else { throw .null("samples", in: function) }
        guard count >= 1 else { throw .invalidArgument("\(function): count must be at least 1") }
        guard timeout >= 0, timeout.isFinite else {
            throw .invalidArgument("\(function): timeout must be a finite number of seconds ≥ 0")
        }
        let channels = handle.descriptor.channelCount
        let (needed, overflow) = channels.multipliedReportingOverflow(by: count)
        guard !overflow, capacity >= needed else {
            throw .bufferTooSmall(
                "\(function): \(count) frames of \(channels) channels need \(needed) doubles; the buffer holds \(capacity)")
        }
        framesRead.pointee = 0
        gap.pointee = axon_source_gap()
        let read = try handle.read(
            count: count, timeout: timeout, samples: samples, times: times, counters: counters, in: function)
        framesRead.pointee = read.frames
        if let found = read.gap { gap.pointee = found }
    }
}
