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
