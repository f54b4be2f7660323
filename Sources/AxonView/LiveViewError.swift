// AxonView — the view's errors.

/// Why the view cannot start or a stream cannot be shown.
///
/// Threading: a value type; share freely.
public enum LiveViewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A listen address other than loopback was asked for without an access token (`--no-token`).
    case tokenRequired(address: String)
    /// The token given is empty.
    case emptyToken
    /// An `--allow-host` name is not a host name or IP literal (no port, no path).
    case invalidAllowedHost(String)
    /// The listen address is not an IPv4/IPv6 literal or `localhost`.
    case invalidAddress(String)
    /// The port is outside 0…65535.
    case invalidPort(Int)
    /// The stream has another channel count than the view was made for.
    case channelCountMismatch(expected: Int, actual: Int)
    /// The page's files are missing from the page directory or the package resources.
    case missingResource(String)

    /// A sentence a person can act on.
    public var description: String {
        switch self {
        case .tokenRequired(let address):
            "refusing to listen on \(address) without a token: anyone who can reach this address could watch the "
                + "EEG; leave out --no-token (a random token is made and printed in the URL) or listen on 127.0.0.1"
        case .emptyToken: "--token needs a non-empty value (or leave it out: a random token is made)"
        case .invalidAllowedHost(let name):
            "--allow-host \(name) is not a host name or IP address (give the name alone: no port, scheme or path)"
        case .invalidAddress(let address):
            "--listen \(address) is not an IP address (e.g. 127.0.0.1, 0.0.0.0, ::1) or localhost"
        case .invalidPort(let port): "--port \(port) is outside 0…65535"
        case .channelCountMismatch(let expected, let actual):
            "the view was made for \(expected) channels, the stream has \(actual)"
        case .missingResource(let name): "the view's page file \(name) is missing (from the page directory or the build's resources)"
        }
    }
}
