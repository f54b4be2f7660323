#if canImport(Glibc)
    import Glibc
#endif

/// `lsl_resolve_all(buffer, elements, wait_time)`.
typealias LSLResolveAll = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UInt32, Double) -> Int32
/// `lsl_resolve_byprop(buffer, elements, prop, value, minimum, timeout)`.
typealias LSLResolveByProperty =
    @convention(c) (
        UnsafeMutablePointer<UnsafeMutableRawPointer?>, UInt32, UnsafePointer<CChar>, UnsafePointer<CChar>, Int32,
        Double
    ) -> Int32
/// `lsl_create_streaminfo(name, type, channel_count, nominal_srate, channel_format, source_id)`.
typealias LSLCreateStreamInfo =
    @convention(c) (
        UnsafePointer<CChar>, UnsafePointer<CChar>, Int32, Double, Int32, UnsafePointer<CChar>
    ) -> UnsafeMutableRawPointer?
/// `lsl_pull_chunk_d(inlet, data, timestamps, data_elements, timestamp_elements, timeout, ec)`.
typealias LSLPullChunkDouble =
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>, UInt, UInt, Double,
        UnsafeMutablePointer<Int32>
    ) -> UInt
/// `lsl_pull_sample_str(inlet, buffer, elements, timeout, ec)`.
typealias LSLPullSampleString =
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, Int32, Double,
        UnsafeMutablePointer<Int32>
    ) -> Double
/// `lsl_push_sample_strtp(outlet, data, timestamp, pushthrough)`.
typealias LSLPushSampleString =
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<UnsafePointer<CChar>?>, Double, Int32
    ) -> Int32

/// The liblsl C API functions Axon uses, as typed function pointers looked up with `dlsym`: the declaration shim
/// of the C API (`lsl_c.h` of liblsl 1.16–1.18), so nothing links against the library.
///
/// Opaque liblsl handles (`lsl_streaminfo`, `lsl_inlet`, `lsl_outlet`, `lsl_xml_ptr`) are raw pointers here.
///
/// Threading contract: immutable after init; share freely (the functions themselves follow liblsl's rules).
struct LSLFunctions: @unchecked Sendable {
    // Sendable invariant: every stored property is a C function pointer, written once in init.
    typealias Handle = UnsafeMutableRawPointer

    let libraryVersion: @convention(c) () -> Int32
    let localClock: @convention(c) () -> Double
    let lastError: @convention(c) () -> UnsafePointer<CChar>?
    let destroyString: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    /// `lsl_set_config_content` / `lsl_set_config_filename` (liblsl 1.16+; nil in builds without them).
    let setConfigContent: (@convention(c) (UnsafePointer<CChar>) -> Void)?
    let setConfigFilename: (@convention(c) (UnsafePointer<CChar>) -> Void)?

    // Resolving.
    let resolveAll: LSLResolveAll
    let resolveByProperty: LSLResolveByProperty

    // Stream info.
    let createStreamInfo: LSLCreateStreamInfo
    let destroyStreamInfo: @convention(c) (Handle?) -> Void
    let name: @convention(c) (Handle?) -> UnsafePointer<CChar>?
    let type: @convention(c) (Handle?) -> UnsafePointer<CChar>?
    let channelCount: @convention(c) (Handle?) -> Int32
    let nominalRate: @convention(c) (Handle?) -> Double
    let channelFormat: @convention(c) (Handle?) -> Int32
    let sourceID: @convention(c) (Handle?) -> UnsafePointer<CChar>?
    let hostname: @convention(c) (Handle?) -> UnsafePointer<CChar>?
    /// `lsl_get_uid`: the outlet's unique id (one per outlet instance).
    let uid: @convention(c) (Handle?) -> UnsafePointer<CChar>?
    let description: @convention(c) (Handle?) -> Handle?
    /// `lsl_get_xml`: the info as XML, to be freed with `lsl_destroy_string`.
    let xml: @convention(c) (Handle?) -> UnsafeMutablePointer<CChar>?

    // XML description.
    let child: @convention(c) (Handle?, UnsafePointer<CChar>) -> Handle?
    let nextSiblingNamed: @convention(c) (Handle?, UnsafePointer<CChar>) -> Handle?
    let isEmpty: @convention(c) (Handle?) -> Int32
    let childValueNamed: @convention(c) (Handle?, UnsafePointer<CChar>) -> UnsafePointer<CChar>?
    let appendChild: @convention(c) (Handle?, UnsafePointer<CChar>) -> Handle?
    let appendChildValue: @convention(c) (Handle?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Handle?

    // Inlets.
    let createInlet: @convention(c) (Handle?, Int32, Int32, Int32) -> Handle?
    let destroyInlet: @convention(c) (Handle?) -> Void
    let fullInfo: @convention(c) (Handle?, Double, UnsafeMutablePointer<Int32>) -> Handle?
    let openStream: @convention(c) (Handle?, Double, UnsafeMutablePointer<Int32>) -> Void
    let timeCorrection: @convention(c) (Handle?, Double, UnsafeMutablePointer<Int32>) -> Double
    let pullChunkDouble: LSLPullChunkDouble
    let pullSampleString: LSLPullSampleString
    /// `lsl_inlet_flush`: drops the samples the inlet holds, returns how many.
    let flushInlet: @convention(c) (Handle?) -> UInt32

    // Outlets.
    let createOutlet: @convention(c) (Handle?, Int32, Int32) -> Handle?
    let destroyOutlet: @convention(c) (Handle?) -> Void
    let pushSampleDouble: @convention(c) (Handle?, UnsafePointer<Double>, Double, Int32) -> Int32
    let pushSampleString: LSLPushSampleString
    let haveConsumers: @convention(c) (Handle?) -> Int32
    let waitForConsumers: @convention(c) (Handle?, Double) -> Int32

    /// Looks every function up in an open library.
    ///
    /// - Throws: ``LSLError/missingSymbol(_:)`` naming the first function the library lacks.
    init(handle: UnsafeMutableRawPointer) throws(LSLError) {
        func symbol<T>(_ name: String, as type: T.Type) throws(LSLError) -> T {
            guard let pointer = dlsym(handle, name) else { throw .missingSymbol(name) }
            return unsafeBitCast(pointer, to: type)
        }
        libraryVersion = try symbol("lsl_library_version", as: (@convention(c) () -> Int32).self)
        localClock = try symbol("lsl_local_clock", as: (@convention(c) () -> Double).self)
        lastError = try symbol("lsl_last_error", as: (@convention(c) () -> UnsafePointer<CChar>?).self)
        destroyString = try symbol(
            "lsl_destroy_string", as: (@convention(c) (UnsafeMutablePointer<CChar>?) -> Void).self)
        setConfigContent = dlsym(handle, "lsl_set_config_content").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafePointer<CChar>) -> Void).self)
        }
        setConfigFilename = dlsym(handle, "lsl_set_config_filename").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafePointer<CChar>) -> Void).self)
        }
        resolveAll = try symbol("lsl_resolve_all", as: LSLResolveAll.self)
        resolveByProperty = try symbol("lsl_resolve_byprop", as: LSLResolveByProperty.self)
        createStreamInfo = try symbol("lsl_create_streaminfo", as: LSLCreateStreamInfo.self)
        destroyStreamInfo = try symbol("lsl_destroy_streaminfo", as: (@convention(c) (Handle?) -> Void).self)
        name = try symbol("lsl_get_name", as: (@convention(c) (Handle?) -> UnsafePointer<CChar>?).self)
        self.type = try symbol("lsl_get_type", as: (@convention(c) (Handle?) -> UnsafePointer<CChar>?).self)
        channelCount = try symbol("lsl_get_channel_count", as: (@convention(c) (Handle?) -> Int32).self)
        nominalRate = try symbol("lsl_get_nominal_srate", as: (@convention(c) (Handle?) -> Double).self)
        channelFormat = try symbol("lsl_get_channel_format", as: (@convention(c) (Handle?) -> Int32).self)
        sourceID = try symbol("lsl_get_source_id", as: (@convention(c) (Handle?) -> UnsafePointer<CChar>?).self)
        hostname = try symbol("lsl_get_hostname", as: (@convention(c) (Handle?) -> UnsafePointer<CChar>?).self)
        uid = try symbol("lsl_get_uid", as: (@convention(c) (Handle?) -> UnsafePointer<CChar>?).self)
        description = try symbol("lsl_get_desc", as: (@convention(c) (Handle?) -> Handle?).self)
        xml = try symbol("lsl_get_xml", as: (@convention(c) (Handle?) -> UnsafeMutablePointer<CChar>?).self)
        child = try symbol("lsl_child", as: (@convention(c) (Handle?, UnsafePointer<CChar>) -> Handle?).self)
        nextSiblingNamed = try symbol(
            "lsl_next_sibling_n", as: (@convention(c) (Handle?, UnsafePointer<CChar>) -> Handle?).self)
        isEmpty = try symbol("lsl_empty", as: (@convention(c) (Handle?) -> Int32).self)
        childValueNamed = try symbol(
            "lsl_child_value_n", as: (@convention(c) (Handle?, UnsafePointer<CChar>) -> UnsafePointer<CChar>?).self)
        appendChild = try symbol(
            "lsl_append_child", as: (@convention(c) (Handle?, UnsafePointer<CChar>) -> Handle?).self)
        appendChildValue = try symbol(
            "lsl_append_child_value",
            as: (@convention(c) (Handle?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Handle?).self)
        createInlet = try symbol(
            "lsl_create_inlet", as: (@convention(c) (Handle?, Int32, Int32, Int32) -> Handle?).self)
        destroyInlet = try symbol("lsl_destroy_inlet", as: (@convention(c) (Handle?) -> Void).self)
        fullInfo = try symbol(
            "lsl_get_fullinfo", as: (@convention(c) (Handle?, Double, UnsafeMutablePointer<Int32>) -> Handle?).self)
        openStream = try symbol(
            "lsl_open_stream", as: (@convention(c) (Handle?, Double, UnsafeMutablePointer<Int32>) -> Void).self)
        timeCorrection = try symbol(
            "lsl_time_correction", as: (@convention(c) (Handle?, Double, UnsafeMutablePointer<Int32>) -> Double).self)
        pullChunkDouble = try symbol("lsl_pull_chunk_d", as: LSLPullChunkDouble.self)
        pullSampleString = try symbol("lsl_pull_sample_str", as: LSLPullSampleString.self)
        flushInlet = try symbol("lsl_inlet_flush", as: (@convention(c) (Handle?) -> UInt32).self)
        createOutlet = try symbol("lsl_create_outlet", as: (@convention(c) (Handle?, Int32, Int32) -> Handle?).self)
        destroyOutlet = try symbol("lsl_destroy_outlet", as: (@convention(c) (Handle?) -> Void).self)
        pushSampleDouble = try symbol(
            "lsl_push_sample_dtp", as: (@convention(c) (Handle?, UnsafePointer<Double>, Double, Int32) -> Int32).self)
        pushSampleString = try symbol("lsl_push_sample_strtp", as: LSLPushSampleString.self)
        haveConsumers = try symbol("lsl_have_consumers", as: (@convention(c) (Handle?) -> Int32).self)
        waitForConsumers = try symbol("lsl_wait_for_consumers", as: (@convention(c) (Handle?, Double) -> Int32).self)
    }
}
