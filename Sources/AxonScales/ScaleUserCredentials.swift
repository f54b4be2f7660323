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
