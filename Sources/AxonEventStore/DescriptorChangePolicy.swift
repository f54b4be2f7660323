/// What ``EventStore/register(_:ifChanged:)`` does when the stream is registered with a different descriptor.
///
/// Threading: a value type; share freely.
public enum DescriptorChangePolicy: Sendable, Hashable {
    /// Throw ``EventStoreError/descriptorChanged(sourceID:name:)`` and keep the stored descriptor.
    case reject
    /// Store the new descriptor (the old one goes to the history table) and keep every stored record.
    case replace
}
