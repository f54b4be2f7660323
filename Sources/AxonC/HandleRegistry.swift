// AxonC — opaque handles as numbers that are never reused, so a closed handle is always recognised.

import AxonStreams
import CAxonABI

/// The objects behind the C interface's handles.
///
/// A handle is not an address but a serial number cast to a pointer: `axon_recording *` 0x1, 0x2, … Numbers are never
/// given out twice, so a call with a closed handle finds nothing and fails with `AXON_ERR_CLOSED_HANDLE` instead of
/// reading freed memory or, worse, another object that took its address. Each call looks its handle up under a lock
/// and holds a strong reference for the call's length, so a close on another thread cannot free an object in use.
///
/// Threading: any thread; the table is behind a mutex held only for the lookup.
final class HandleRegistry: Sendable {
    private struct Table {
        var objects: [UInt: AnyObject] = [:]
        var lastIssued: UInt = 0
    }

    private let table = ThreadLocked(Table())

    /// The one registry of the process.
    static let shared = HandleRegistry()

    /// Registers `object` and returns its new handle.
    func open(_ object: AnyObject) -> OpaquePointer {
        let number = table.withLock { table in
            table.lastIssued += 1
            table.objects[table.lastIssued] = object
            return table.lastIssued
        }
        // Serial numbers start at 1: never the NULL pointer.
        return OpaquePointer(bitPattern: number)!
    }

    /// The object of type `Object` behind `handle`, named `kind` in messages (`recording`, `engine`).
    func object<Object: AnyObject>(
        _ handle: OpaquePointer?, as type: Object.Type, kind: String, in function: String
    ) throws(CallFailure) -> Object {
        guard let handle else { throw .null(kind, in: function) }
        let number = UInt(bitPattern: handle)
        let (found, issued) = table.withLock { ($0.objects[number], number <= $0.lastIssued) }
        guard let found else {
            throw CallFailure(
                status: AXON_ERR_CLOSED_HANDLE,
                message: issued
                    ? "\(function): the \(kind) handle is closed"
                    : "\(function): \(kind) is not a handle this library made")
        }
        guard let object = found as? Object else {
            throw CallFailure(
                status: AXON_ERR_CLOSED_HANDLE, message: "\(function): the handle given as \(kind) is not a \(kind)")
        }
        return object
    }

    /// Closes `*handle` (a `Object`): forgets it, so its object is freed once no call holds it, and sets `*handle` to
    /// NULL. A NULL `*handle` is no error.
    func close<Object: AnyObject>(
        _ handle: UnsafeMutablePointer<OpaquePointer?>?, as type: Object.Type, kind: String, in function: String
    ) throws(CallFailure) {
        guard let handle else { throw .null(kind, in: function) }
        guard let value = handle.pointee else { return }
        defer { handle.pointee = nil }
        _ = try object(value, as: type, kind: kind, in: function)
        // The removed object is released after the lock is: its deinit may take time (an engine's FFT plans).
        _ = table.withLock { $0.objects.removeValue(forKey: UInt(bitPattern: value)) }
    }
}
