/// The iHealth user: who is measuring, as the SDK's `User` carries it for validation.
///
/// Threading: a value type; share freely.
public struct ScaleUserCredentials: Sendable, Hashable, Codable {
    /// An email address (the SDK does not take phone numbers yet).
    public var userID: String
    /// The SDK licensee's id and secret.
    public var clientID: String
    /// The SDK licensee's secret.
    public var clientSecret: String
    /// Height in centimetres.
    public var heightCM: Double

    /// Credentials for `userID` (an email address); client id and secret default to the local validator's.
    public init(userID: String, clientID: String = "axon", clientSecret: String = "local", heightCM: Double = 175) {
        self.userID = userID
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.heightCM = heightCM
    }
}

/// The SDK's user-validation results (`UserAuthen_*`): the first four let a measurement go on, the last four stop
/// it.
///
/// Threading: a value type; share freely.
public enum UserValidationResult: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case registerSuccess, loginSuccess, combinedSuccess, trySuccess
    case invalidUserInfo, sdkNotAuthorised, userNotAuthorised, networkError

    /// Whether the SDK goes on measuring after this result (cases 1–4 of the seed).
    public var permitsMeasurement: Bool {
        switch self {
        case .registerSuccess, .loginSuccess, .combinedSuccess, .trySuccess: true
        default: false
        }
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .registerSuccess: "new-user registration succeeded"
        case .loginSuccess: "user login succeeded"
        case .combinedSuccess: "an iHealth user; measurement via the SDK is activated for this user"
        case .trySuccess: "trial without an internet connection succeeded"
        case .invalidUserInfo: "user id / client id / client secret verification failed"
        case .sdkNotAuthorised: "the SDK has not been authorised"
        case .userNotAuthorised: "the user has not been authorised"
        case .networkError: "internet error, verification failed"
        }
    }
}

/// Validates a user before a scale session measures or transfers memory. Plug in a network validator for an
/// online service; ``LocalUserValidator`` needs no network.
///
/// Threading contract: called from the session's task; may suspend.
public protocol UserValidator: Sendable {
    func validate(_ user: ScaleUserCredentials, model: ScaleModel) async -> UserValidationResult
}

/// The default validator: checks the credentials' shape on the machine and keeps the users it has seen, so the
/// first validation of a user is `registerSuccess` and later ones `loginSuccess`.
///
/// A user id must look like an email address (`invalidUserInfo` otherwise, as must empty client id or secret);
/// `authorisedClients`, when given, limits which client ids may use the SDK (`sdkNotAuthorised` otherwise).
/// Trial success is never given to an HS5, for which the seed calls it invalid.
///
/// Threading: `Sendable`; its set of known users is lock-protected.
public final class LocalUserValidator: UserValidator {
    private let known = Locked<Set<String>>([])
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
