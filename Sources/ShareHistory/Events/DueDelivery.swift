import ShareKit

/// An event a hook is to be sent now, taken by one node (`ShareStore.takeDueDelivery`), which holds the hook until
/// it records how the delivery went or its lease runs out.
public struct DueDelivery: Sendable {
    public var hookID: String
    public var url: String
    /// The secrets that sign it: the hook's own, and the one it replaced while that one still signs.
    public var secrets: [String]
    public var event: HistoryEvent
    /// This try's number for the event: 1, then 2 for the first retry…
    public var attempt: Int
    /// Sent again because someone asked (`POST …/retry`), not the hook's next event.
    public var isResend: Bool

    public init(hookID: String, url: String, secrets: [String], event: HistoryEvent, attempt: Int, isResend: Bool) {
        self.hookID = hookID
        self.url = url
        self.secrets = secrets
        self.event = event
        self.attempt = attempt
        self.isResend = isResend
    }

    /// The secrets that sign a delivery at `now`: the hook's, and the one it replaced until that one's time is up.
    public static func signingSecrets(_ secret: String, old: String?, oldUntil: Int64?, now: Timestamp) -> [String] {
        guard let old, let oldUntil, oldUntil > now.millisecondsSinceEpoch else { return [secret] }
        return [secret, old]
    }
}

/// How a delivery went and what follows: the hook goes on to its next event, tries this one again later, or stops.
public struct DeliveryOutcome: Sendable {
    public enum Next: Sendable, Equatable {
        case delivered
        case retry(at: Timestamp)
        case disable(reason: String)
    }

    /// The receiver's status; 0 when it gave none.
    public var status: Int
    public var milliseconds: Int
    public var error: String?
    public var next: Next

    public init(status: Int, milliseconds: Int, error: String? = nil, next: Next) {
        self.status = status
        self.milliseconds = milliseconds
        self.error = error
        self.next = next
    }
}
