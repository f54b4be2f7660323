import CAxonABI
import Foundation

/// Calling axon.h from Swift as a C program would, for the tests.
enum C {
    /// The calling thread's last error message.
    static var lastError: String { String(cString: axon_last_error()) }

    /// Opens `path`; the status and the handle (NULL on failure).
    static func open(_ path: String) -> (status: CInt, recording: OpaquePointer?) {
        var recording: OpaquePointer?
        let status = axon_recording_open(path, &recording)
        return (status, recording)
    }

    /// A text getter's result with a large enough buffer.
    static func text(
        _ getter: (UnsafeMutablePointer<CChar>?, Int, UnsafeMutablePointer<Int>?) -> CInt
    ) -> (status: CInt, text: String) {
        var buffer = [CChar](repeating: 0, count: 4096)
        var length = 0
        let status = buffer.withUnsafeMutableBufferPointer { getter($0.baseAddress, $0.count, &length) }
        return (status, status == AXON_OK ? string(buffer) : "")
    }

    /// The NUL-terminated text in a char buffer.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A config at the defaults.
    static func defaultConfig() -> axon_engine_config {
        var config = axon_engine_config()
        precondition(axon_engine_config_default(&config) == AXON_OK)
        return config
    }

    /// Makes an engine; the status and the handle.
    static func engine(_ config: axon_engine_config) -> (status: CInt, engine: OpaquePointer?) {
        var config = config
        var engine: OpaquePointer?
        let status = axon_engine_create(&config, &engine)
        return (status, engine)
    }

    /// Every waiting spectrum row, taken `chunk` at a time.
    static func takeSpectra(_ engine: OpaquePointer?, chunk: Int = 7) -> [axon_spectrum_row] {
        var rows: [axon_spectrum_row] = []
        var buffer = [axon_spectrum_row](repeating: axon_spectrum_row(), count: chunk)
        while true {
            var count = 0
            let status = buffer.withUnsafeMutableBufferPointer {
                axon_engine_take_spectra(engine, $0.baseAddress, chunk, &count)
            }
            precondition(status == AXON_OK, lastError)
            rows += buffer.prefix(count)
            if count == 0 { return rows }
        }
    }

    /// The doubles of a C array member.
    static func doubles<Tuple>(_ array: Tuple, count: Int) -> [Double] {
        withUnsafeBytes(of: array) { Array($0.bindMemory(to: Double.self).prefix(count)) }
    }

    /// Bitwise equal, NaN equal to NaN.
    static func same(_ a: Double, _ b: Double) -> Bool { a.isNaN ? b.isNaN : a == b }
}
