/// One counted download of a share, as its owner reads the share's access log (`GET /share/{id}/downloads`).
public struct ShareDownload: Codable, Hashable, Sendable {
    public var at: Timestamp
    /// The client's address cut to its network: `203.0.113.0` (/24), `2001:db8:1::` (/48).
    public var address: String
    /// The user agent's family: `Chrome`, `Firefox`, `Safari`, `Edge`, `curl`, `share`, `other`.
    public var agent: String
    /// Bytes sent; absent for a redirect to a share made elsewhere.
    public var bytes: Int64?
    public var complete: Bool

    public init(at: Timestamp, address: String, agent: String, bytes: Int64? = nil, complete: Bool = true) {
        self.at = at
        self.address = address
        self.agent = agent
        self.bytes = bytes
        self.complete = complete
    }
}
