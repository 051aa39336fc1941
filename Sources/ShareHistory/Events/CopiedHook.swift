import ShareKit

/// A webhook with its secrets, as `shared migrate` carries it into another store. Where it stood in its history's
/// events does not carry over (the copy numbers them again): it sends what happens after the copy.
public struct CopiedHook: Sendable, Equatable {
    /// The user whose history it follows ('' for nobody's).
    public var owner: String
    public var hook: Hook
    public var secret: String
    /// A rotated secret that still signs until `oldSecretUntil`.
    public var oldSecret: String?
    public var oldSecretUntil: Timestamp?

    public init(owner: String, hook: Hook, secret: String, oldSecret: String? = nil, oldSecretUntil: Timestamp? = nil) {
        self.owner = owner
        self.hook = hook
        self.secret = secret
        self.oldSecret = oldSecret
        self.oldSecretUntil = oldSecretUntil
    }
}

/// What a history keeps besides its records, as `shared migrate` copies it: its webhooks, its feed's key (the
/// address feed readers hold), how many events its hooks had still to send (which are not sent from the copy), and
/// its file requests, whose links keep opening.
public struct CopiedEventsOut: Sendable, Equatable {
    public var hooks: [CopiedHook]
    /// Each user's feed key ('' for nobody's).
    public var feedKeys: [String: String]
    public var unsent: Int
    /// Each file request with its token, and whose it is ('' for nobody's).
    public var requests: [(owner: String, request: FileRequest)]

    public init(hooks: [CopiedHook] = [], feedKeys: [String: String] = [:], unsent: Int = 0, requests: [(owner: String, request: FileRequest)] = []) {
        self.hooks = hooks
        self.feedKeys = feedKeys
        self.unsent = unsent
        self.requests = requests
    }

    public static func == (left: CopiedEventsOut, right: CopiedEventsOut) -> Bool {
        left.hooks == right.hooks && left.feedKeys == right.feedKeys && left.unsent == right.unsent
            && left.requests.elementsEqual(right.requests) { $0.owner == $1.owner && $0.request == $1.request }
    }
}
