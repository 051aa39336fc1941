/// `[hooks]`: webhooks, which send each history's events to the URLs its owner names.
public struct HooksSettings: Sendable, Equatable {
    /// Lets hooks reach loopback, private, link-local and other addresses of a private network.
    public var allowPrivateAddresses = false
    /// The waits, in seconds, before each new try of an event that failed; once they are spent the hook is disabled.
    public var retrySeconds = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]
    /// How long a receiver has to answer one delivery.
    public var timeoutSeconds = 15
    /// The hooks one history may have.
    public var maxPerUser = 20

    public init() {}
}
