/// A webhook as `/hooks` shows it: where its history's events go, which ones, and whether it still sends.
public struct Hook: Codable, Sendable, Equatable {
    public var id: String
    public var url: String
    /// The actions it sends (`uploaded`, `downloaded`…), or `["*"]` for every one.
    public var events: [String]
    public var description: String
    public var enabled: Bool
    /// Why it stopped sending: the receiver answered 410, or every retry failed.
    public var disabledReason: String?
    public var createdAt: Timestamp
    /// The secret that signs its deliveries: shown when the hook is made and when a new one is drawn, never after.
    public var secret: String?

    public init(
        id: String, url: String, events: [String], description: String, enabled: Bool, disabledReason: String? = nil,
        createdAt: Timestamp, secret: String? = nil
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.description = description
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.createdAt = createdAt
        self.secret = secret
    }

    /// Every action a hook may name, and `*` for all of them.
    public static let eventNames = ShareEvent.Action.allCases.map(\.rawValue).filter { $0 != "imported" }

    /// True when a hook asking for `events` sends `action`.
    public static func sends(_ action: String, asked events: [String]) -> Bool {
        events.contains("*") || events.contains(action)
    }
}

/// One attempt to deliver an event to a hook (`GET /hooks/{id}/deliveries`), newest first.
public struct HookDelivery: Codable, Sendable, Equatable {
    public var id: Int64
    public var eventId: String
    public var type: String
    /// 1 for the first try of the event, 2 for the first retry…
    public var attempt: Int
    public var at: Timestamp
    /// The receiver's status; 0 when it gave none (unreachable, timed out, refused before connecting).
    public var status: Int
    public var ms: Int
    public var error: String?

    public init(id: Int64, eventId: String, type: String, attempt: Int, at: Timestamp, status: Int, ms: Int, error: String? = nil) {
        self.id = id
        self.eventId = eventId
        self.type = type
        self.attempt = attempt
        self.at = at
        self.status = status
        self.ms = ms
        self.error = error
    }
}
