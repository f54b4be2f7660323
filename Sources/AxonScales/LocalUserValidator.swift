import AxonStreams

/// The default validator: checks the credentials' shape on the machine and keeps the users it has seen, so the
/// first validation of a user is `registerSuccess` and later ones `loginSuccess`.
///
/// A user id must look like an email address (`invalidUserInfo` otherwise, as must empty client id or secret);
/// `authorisedClients`, when given, limits which client ids may use the SDK (`sdkNotAuthorised` otherwise).
/// Trial success is never given to an HS5, for which the seed calls it invalid.
///
/// Threading: `Sendable`; its set of known users is lock-protected.
public final class LocalUserValidator: UserValidator {
    private let known = ThreadLocked<Set<String>>([])
    private let authorisedClients: Set<String>?

    /// A validator that knows no users yet; `authorisedClients` limits the client ids (`nil`: any).
    public init(authorisedClients: Set<String>? = nil) { self.authorisedClients = authorisedClients }

    /// Checks the credentials' shape and remembers the user.
    public func validate(_ user: ScaleUserCredentials, model: ScaleModel) async -> UserValidationResult {
        let parts = user.userID.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !user.clientID.isEmpty,
            !user.clientSecret.isEmpty, user.heightCM > 0
        else { return .invalidUserInfo }
        if let authorisedClients, !authorisedClients.contains(user.clientID) { return .sdkNotAuthorised }
        let isNew = known.withLock { $0.insert(user.userID).inserted }
        return isNew ? .registerSuccess : .loginSuccess
    }
}
