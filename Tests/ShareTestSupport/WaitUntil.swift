import Foundation

/// Returns once `condition` holds, checking it every 20 ms for at most `limit`; past that, throws naming `what`.
/// Tests wait for what they need to see through this, never for a length of time.
public func waitUntil(_ what: String, within limit: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitedTooLong(what: what, limit: limit) }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// `waitUntil` for synchronous code (a process being started or stopped), blocking its thread between checks: never
/// from async code, where it would hold one of the few threads the tasks it waits for need.
@available(*, noasync)
public func waitUntilBlocking(_ what: String, within limit: Duration = .seconds(60), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + limit
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw WaitedTooLong(what: what, limit: limit) }
        Thread.sleep(forTimeInterval: 0.02)
    }
}

/// What `waitUntil` and `waitUntilBlocking` throw when its condition did not come in time.
public struct WaitedTooLong: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration

    public var description: String { "not within \(limit): \(what)" }
}
