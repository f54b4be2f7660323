/// The answer to an access check, shaped like the seed's `onAuthenticationResult(authenticationResult:message:)`:
/// code 200 means the services are available.
///
/// Threading: a value type; share freely.
public struct OBDAuthenticationResult: Sendable, Hashable {
    /// 200 on success; 401 for an unknown key, 403 for a key not issued to this application.
    public var code: Int
    /// What the validator says, for people.
    public var message: String
    /// Whether access was granted.
    public var isSuccess: Bool { code == 200 }

    /// Creates a result.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}

/// Decides whether an application may use the gateway, before any service (the seed's `validateToken`).
///
/// Threading contract: implementations are `Sendable`; the gateway calls ``validate(apiKey:issuedTo:)`` on the
/// caller's thread, once per ``OBDGateway/authenticate(apiKey:issuedTo:)``.
public protocol OBDAccessValidator: Sendable {
    /// Checks `apiKey` for the application `issuedTo` (a bundle or executable name).
    func validate(apiKey: String, issuedTo: String) -> OBDAuthenticationResult
}

/// The default validator: a local list of keys, each issued to one application name or to any (`"*"`).
///
///     let validator = LocalKeyValidator(keys: ["k-1234": "axon"])
///     validator.validate(apiKey: "k-1234", issuedTo: "axon").code   // 200
///
/// Threading: immutable; share freely.
public struct LocalKeyValidator: OBDAccessValidator {
    /// Key → the application it was issued to (`"*"`: any).
    public let keys: [String: String]

    /// A validator accepting `keys`.
    public init(keys: [String: String]) { self.keys = keys }

    /// Reads keys from a file: one `KEY APPLICATION` pair a line (`APPLICATION` defaults to `*`), `#` comments.
    public init(contentsOf text: String) {
        var keys: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let key = fields.first else { continue }
            keys[String(key)] = fields.count > 1 ? String(fields[1]) : "*"
        }
        self.keys = keys
    }

    /// 200 for a listed key issued to `issuedTo` or to any application, 403 for a key issued to another, 401 else.
    public func validate(apiKey: String, issuedTo: String) -> OBDAuthenticationResult {
        guard let owner = keys[apiKey] else {
            return OBDAuthenticationResult(code: 401, message: "unknown API key")
        }
        guard owner == "*" || owner == issuedTo else {
            return OBDAuthenticationResult(code: 403, message: "API key issued to \(owner), not to \(issuedTo)")
        }
        return OBDAuthenticationResult(code: 200, message: "authenticated")
    }
}
