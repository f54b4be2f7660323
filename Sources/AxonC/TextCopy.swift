// AxonC — copying a text into a caller's char buffer, the one way every text getter of axon.h does it.

import CAxonABI

/// Copies `text` as UTF-8 with a terminating NUL into `buffer` of `capacity` bytes, and its length without the NUL
/// into `length` (when not NULL) whether or not it fits.
///
/// - Throws: `AXON_ERR_BUFFER_TOO_SMALL` when `capacity` is not above the length (the buffer is then untouched);
///   `AXON_ERR_INVALID_ARGUMENT` for a NULL buffer with a capacity.
func copyText(
    _ text: String, into buffer: UnsafeMutablePointer<CChar>?, capacity: Int,
    length: UnsafeMutablePointer<Int>?, in function: String
) throws(CallFailure) {
    let count = text.utf8.count
    length?.pointee = count
    guard capacity > count else {
        throw .bufferTooSmall(
            "\(function): the text is \(count) bytes and needs a buffer of \(count + 1) with its NUL; the buffer "
                + "holds \(capacity)")
    }
    guard let buffer else { throw .null("buffer", in: function) }
    var text = text
    text.withUTF8 { bytes in
        if let start = bytes.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: start, byteCount: count) }
    }
    buffer[count] = 0
}
