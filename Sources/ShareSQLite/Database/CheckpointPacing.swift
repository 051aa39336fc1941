/// When the write-ahead log's next checkpoint may run, and how long it may hold writes while it waits for the
/// readers of older snapshots (`LogCheckpoints`).
///
/// A checkpoint holds writes only as long as the reads in flight need, but a try that gives up has held them for
/// its whole wait, for nothing. So the wait follows what the last checkpoint needed (twice that), grows after a
/// try that gave up, and stays between the shortest and the longest. One try that gives up is soon followed by
/// another (the log keeps growing meanwhile); tries that keep giving up are behind a long read (an export, a
/// backup), and writes then go on for once, then up to three times, as long as each try held them before the next
/// one: such a read holds writes a quarter of the time at most.
struct CheckpointPacing {
    static let shortestWait = Duration.milliseconds(100)
    static let longestWait = Duration.seconds(1)

    /// The first checkpoint may wait the longest: it learns what the reads need.
    private(set) var wait = CheckpointPacing.longestWait
    private var triesGivenUp = 0
    private var restUntil: ContinuousClock.Instant?

    func mayTry(at now: ContinuousClock.Instant) -> Bool {
        restUntil.map { now >= $0 } ?? true
    }

    mutating func restarted(took elapsed: Duration) {
        wait = min(max(elapsed * 2, Self.shortestWait), Self.longestWait)
        (triesGivenUp, restUntil) = (0, nil)
    }

    mutating func gaveUp(after elapsed: Duration, at now: ContinuousClock.Instant) {
        wait = min(wait * 2, Self.longestWait)
        triesGivenUp += 1
        restUntil = now + elapsed * min(triesGivenUp - 1, 3)
    }
}
