// AxonC — which Axon and which C interface a program has loaded.

import CAxonABI

/// Axon's version, kept equal to `axon --version` (a test compares them).
let axonVersion: StaticString = "0.3.0"

/// Axon's version, for example "0.3.0" (`axon.h`). Any thread.
@c @implementation
public func axon_version() -> UnsafePointer<CChar>! {
    staticCString(axonVersion)
}

/// The interface version the library implements, `AXON_ABI_VERSION` of the header it was built with (`axon.h`).
/// Any thread.
@c @implementation
public func axon_abi_version() -> CInt {
    AXON_ABI_VERSION
}
