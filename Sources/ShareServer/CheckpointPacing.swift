/// When the write-ahead log's next checkpoint may run, and how long it may hold writes while it waits for the
/// readers of older snapshots (`LogCheckpoints`).
///
/// A checkpoint holds writes only as long as the reads in flight need, but a try that gives up has held them for
/// its whole wait, for nothing. So the wait follows what the last checkpoint needed (twice that), grows after a
/// try that gave up, and stays between the shortest and the longest; and after a try that gave up, writes go on
/// for three times as long as it held them before the next one (a long export keeping the log must not hold
/// writes more than a quarter of the time).
struct CheckpointPacing {
    static let shortestWait = Duration.milliseconds(100)
    static let longestWait = Duration.seconds(1)

    /// The first checkpoint may wait the longest: it learns what the reads need.
    private(set) var wait = CheckpointPacing.longestWait
    private var restUntil: ContinuousClock.Instant?

    func mayTry(at now: ContinuousClock.Instant) -> Bool {
        restUntil.map { now >= $0 } ?? true
    }

    mutating func restarted(took elapsed: Duration) {
        wait = min(max(elapsed * 2, Self.shortestWait), Self.longestWait)
        restUntil = nil
    }

    mutating func gaveUp(after elapsed: Duration, at now: ContinuousClock.Instant) {
        wait = min(wait * 2, Self.longestWait)
        restUntil = now + elapsed * 3
    }
}
