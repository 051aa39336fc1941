/// Returns once `condition` holds, checking it every 20 ms for at most `limit`; past that, throws naming `what`.
/// Tests wait for what they need to see through this, never for a length of time.
public func waitUntil(_ what: String, within limit: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitedTooLong(what: what, limit: limit) }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// What `waitUntil` throws when its condition did not come in time.
public struct WaitedTooLong: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration

    public var description: String { "not within \(limit): \(what)" }
}
