// AxonC — making, feeding, reading and destroying an engine through axon.h.

import AxonEEG
import CAxonABI

/// Makes an engine from a config (`axon.h`). Plans the FFT: tens of milliseconds.
@c @implementation
public func axon_engine_create(
    _ config: UnsafePointer<axon_engine_config>?, _ engine: UnsafeMutablePointer<OpaquePointer?>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_engine_create"
        guard let config else { throw .null("config", in: function) }
        guard let engine else { throw .null("engine", in: function) }
        let configuration = try EEGEngine.Configuration(config.pointee, in: function)
        let handle: EngineHandle
        do throws(EEGError) {
            handle = try EngineHandle(
                configuration, baseline: config.pointee.baseline_seconds > 0, startTime: config.pointee.start_time)
        } catch { throw CallFailure(error, in: function) }
        engine.pointee = HandleRegistry.shared.open(handle)
    }
}

/// Destroys an engine and sets the caller's pointer to NULL (`axon.h`).
@c @implementation
public func axon_engine_destroy(_ engine: UnsafeMutablePointer<OpaquePointer?>?) -> CInt {
    reportingFailure { () throws(CallFailure) in
        try HandleRegistry.shared.close(
            engine, as: EngineHandle.self, kind: EngineHandle.kind, in: "axon_engine_destroy")
    }
}

/// Feeds channel-major frames at the untimed clock (`axon.h`).
@c @implementation
public func axon_engine_push(
    _ engine: OpaquePointer?, _ samples: UnsafePointer<Double>?, _ channels: Int, _ count: Int
) -> CInt {
    push(
        engine, samples: samples, channelStride: count, times: nil, timed: false, channels: channels, count: count,
        in: "axon_engine_push")
}

/// Feeds channel-major frames with their times (`axon.h`).
@c @implementation
public func axon_engine_push_timed(
    _ engine: OpaquePointer?, _ samples: UnsafePointer<Double>?, _ times: UnsafePointer<Double>?, _ channels: Int,
    _ count: Int
) -> CInt {
    push(
        engine, samples: samples, channelStride: count, times: times, timed: true, channels: channels, count: count,
        in: "axon_engine_push_timed")
}

/// Feeds channel-major frames cut out of a longer array, timed or not (`axon.h`).
@c @implementation
public func axon_engine_push_strided(
    _ engine: OpaquePointer?, _ samples: UnsafePointer<Double>?, _ channelStride: Int, _ times: UnsafePointer<Double>?,
    _ channels: Int, _ count: Int
) -> CInt {
    push(
        engine, samples: samples, channelStride: channelStride, times: times, timed: false, channels: channels,
        count: count, in: "axon_engine_push_strided")
}

/// Every push: every argument and value checked before the first frame goes in, so a refused push changes nothing.
/// `channelStride` is `count` for a block of its own.
private func push(
    _ engine: OpaquePointer?, samples: UnsafePointer<Double>?, channelStride: Int,
    times: UnsafePointer<Double>?, timed: Bool, channels: Int, count: Int, in function: String
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let handle = try EngineHandle.from(engine, in: function)
        guard
            let samples = try checkedSampleBlock(
                samples, channels: channels, count: count, channelStride: channelStride,
                expected: handle.channelCount,
                mismatch: "\(channels) channels pushed; the engine was made for \(handle.channelCount)", in: function)
        else { return }
        if timed, times == nil { throw .null("times", in: function) }
        if let times {
            for index in 0..<count where !times[index].isFinite {
                throw .invalidArgument("\(function): times[\(index)] is \(times[index]); every time must be finite")
            }
        }
        handle.push(samples, channelStride: channelStride, times: times, count: count)
    }
}

/// Counts samples lost before the next frame (`axon.h`).
@c @implementation
public func axon_engine_skip(_ engine: OpaquePointer?, _ missing: Int64) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_engine_skip"
        let handle = try EngineHandle.from(engine, in: function)
        guard missing >= 0, missing <= Int64(Int32.max) else {
            throw .invalidArgument("\(function): missing = \(missing); it must lie in 0…\(Int32.max)")
        }
        handle.skip(Int(missing))
    }
}

/// How many spectrum rows and indicators wait (`axon.h`).
@c @implementation
public func axon_engine_pending(
    _ engine: OpaquePointer?, _ spectrumRows: UnsafeMutablePointer<Int>?, _ indicators: UnsafeMutablePointer<Int>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let handle = try EngineHandle.from(engine, in: "axon_engine_pending")
        spectrumRows?.pointee = handle.spectra.count
        indicators?.pointee = handle.indicators.count
    }
}

/// Moves waiting spectrum rows into the caller's array (`axon.h`).
@c @implementation
public func axon_engine_take_spectra(
    _ engine: OpaquePointer?, _ rows: UnsafeMutablePointer<axon_spectrum_row>?, _ capacity: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_engine_take_spectra"
        let handle = try EngineHandle.from(engine, in: function)
        guard let count else { throw .null("count", in: function) }
        guard capacity >= 0 else { throw .invalidArgument("\(function): capacity is negative") }
        guard capacity > 0, handle.spectra.count > 0 else {
            count.pointee = 0
            return
        }
        guard let rows else { throw .null("rows", in: function) }
        count.pointee = handle.takeSpectra(into: rows, capacity: capacity)
    }
}

/// Moves waiting indicators, and their channels' zones, into the caller's arrays (`axon.h`).
@c @implementation
public func axon_engine_take_indicators(
    _ engine: OpaquePointer?, _ indicators: UnsafeMutablePointer<axon_indicator>?, _ capacity: Int,
    _ zones: UnsafeMutablePointer<axon_channel_zone>?, _ zoneCapacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> CInt {
    reportingFailure { () throws(CallFailure) in
        let function = "axon_engine_take_indicators"
        let handle = try EngineHandle.from(engine, in: function)
        guard let count else { throw .null("count", in: function) }
        guard capacity >= 0, zoneCapacity >= 0 else { throw .invalidArgument("\(function): a capacity is negative") }
        guard capacity > 0, handle.indicators.count > 0 else {
            count.pointee = 0
            return
        }
        guard let indicators else { throw .null("indicators", in: function) }
        if zones != nil, zoneCapacity < handle.channelCount {
            throw .bufferTooSmall(
                "\(function): each indicator has \(handle.channelCount) channel zones; zones holds \(zoneCapacity)")
        }
        count.pointee = handle.takeIndicators(
            into: indicators, capacity: capacity, zones: zones, zoneCapacity: zoneCapacity)
    }
}

/// The name of an activity zone (`axon.h`). Any thread.
@c @implementation
public func axon_zone_name(_ zone: CInt) -> UnsafePointer<CChar>! {
    let name: StaticString =
        switch zone {
        case AXON_ZONE_RELAXATION: "Relaxation"
        case AXON_ZONE_HIGH_RELAXATION: "HighRelaxation"
        case AXON_ZONE_DREAM: "Dream"
        case AXON_ZONE_NORMAL_ACTIVITY: "NormalActivity"
        case AXON_ZONE_AGITATION: "Agitation"
        case AXON_ZONE_HIGH_AGITATION: "HighAgitation"
        case AXON_ZONE_LEFT_OUT: "left out"
        default: "unknown zone"
        }
    return staticCString(name)
}
