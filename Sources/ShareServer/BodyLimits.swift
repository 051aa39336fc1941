/// How much of a request body a route reads, and how long it waits for it.
struct BodyLimits: Sendable {
    /// Bytes at most (`[server] max_body_bytes`).
    let maxBytes: Int
    /// Time from the head to the end of the body (`[server] request_timeout_seconds`).
    let time: Duration
}
