import Synchronization

/// The window the links' throttles count tries in: a minute (tests that must not depend on the machine's pace give
/// an hour).
public struct LinkLimits: Sendable {
    public var window: Duration

    public init(window: Duration = .seconds(60)) {
        self.window = window
    }
}

/// Failures at opening links (wrong codes, links that do not exist), counted per key (an address, a share) over the
/// last minute: past `allowed`, the key is refused until its oldest failure is a minute old. Kept in this node's
/// memory; the links' 128 random bits, not this count, are what keep a link from being found.
final class LinkThrottle: Sendable {
    let allowed: Int
    let window: Duration
    /// At most this many keys are remembered; past it, the ones whose failures are oldest go first.
    let capacity: Int
    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])

    init(allowed: Int = 5, window: Duration = .seconds(60), capacity: Int = 100_000) {
        self.allowed = allowed
        self.window = window
        self.capacity = capacity
    }

    /// Seconds until `key` may try again, having failed `allowed` times (by default the throttle's own number) in the
    /// window; nil when it may now.
    func refusal(_ key: String, allowed: Int? = nil, now: ContinuousClock.Instant = .now) -> Int? {
        let allowed = min(allowed ?? self.allowed, self.allowed)
        return failures.withLock { failures in
            let recent = recentFailures(failures, key, now).suffix(allowed)
            guard recent.count >= allowed, let oldest = recent.first else { return nil }
            let wait = window - (now - oldest)
            return max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        }
    }

    /// How many more failures `key` may make before it is refused (of `allowed`, by default the throttle's own).
    func triesLeft(_ key: String, allowed: Int? = nil, now: ContinuousClock.Instant = .now) -> Int {
        let allowed = min(allowed ?? self.allowed, self.allowed)
        return failures.withLock { failures in max(0, allowed - recentFailures(failures, key, now).count) }
    }

    private func recentFailures(
        _ failures: [String: [ContinuousClock.Instant]], _ key: String, _ now: ContinuousClock.Instant
    ) -> [ContinuousClock.Instant] {
        (failures[key] ?? []).filter { now - $0 < window }
    }

    /// Counts a failure of `key`.
    func fail(_ key: String, now: ContinuousClock.Instant = .now) {
        failures.withLock { failures in
            if failures.count >= capacity, failures[key] == nil { forgetOldest(&failures, now: now) }
            failures[key, default: []] = (failures[key] ?? []).filter { now - $0 < window }.suffix(allowed - 1) + [now]
        }
    }

    /// Drops the keys whose failures are all past the window, or, when none is, the one whose last failure is oldest.
    private func forgetOldest(_ failures: inout [String: [ContinuousClock.Instant]], now: ContinuousClock.Instant) {
        let before = failures.count
        failures = failures.filter { _, times in times.last.map { now - $0 < window } ?? false }
        if failures.count == before, let oldest = failures.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
            failures[oldest] = nil
        }
    }
}
