import AxonDevices

/// What went wrong on the byte link to an OBD dongle: the shared ``AxonDevices/ByteLinkError``.
///
/// Threading: a value type; share freely.
public typealias OBDLinkError = ByteLinkError
