import ShareKit

/// Who a request signed in as, and how: the identity every authenticator gives (`ShareRequestContext.identity`).
public struct SignedInUser: Sendable, Equatable {
    /// The user's name: events name them, and under per-user histories it is whose history they act on.
    let name: String
    /// How they signed in; nil for `local`, when no way of signing in is configured.
    let method: SignInMethod?

    /// Everyone, when no way of signing in is configured.
    static let local = SignedInUser(name: Credential.localUser, method: nil)
}

/// How a request's user signed in; the page offers *Sign out* by it.
enum SignInMethod: String, Sendable {
    case token
    case proxy
    case unixPeer = "unix-peer"
}
