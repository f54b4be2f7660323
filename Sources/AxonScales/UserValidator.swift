/// Validates a user before a scale session measures or transfers memory. Plug in a network validator for an
/// online service; ``LocalUserValidator`` needs no network.
///
/// Threading contract: called from the session's task; may suspend.
public protocol UserValidator: Sendable {
    func validate(_ user: ScaleUserCredentials, model: ScaleModel) async -> UserValidationResult
}
