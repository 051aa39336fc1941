import ShareKit

/// A webhook about to be made (`POST /hooks`), its fields checked.
public struct HookDraft: Sendable {
    public var url: String
    public var events: [String]
    public var description: String
    /// The secret that signs its deliveries (`HookSecret.make()`).
    public var secret: String

    public init(url: String, events: [String], description: String, secret: String) {
        self.url = url
        self.events = events
        self.description = description
        self.secret = secret
    }
}

/// What `PATCH /hooks/{id}` changes; nil leaves a field as it is. Enabling a hook sends what it missed, from the
/// event it stopped at.
public struct HookChange: Sendable {
    public var url: String?
    public var events: [String]?
    public var description: String?
    public var enabled: Bool?

    public init(url: String? = nil, events: [String]? = nil, description: String? = nil, enabled: Bool? = nil) {
        self.url = url
        self.events = events
        self.description = description
        self.enabled = enabled
    }
}
