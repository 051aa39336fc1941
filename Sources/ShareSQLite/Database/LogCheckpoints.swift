import Logging
import Metrics
import ServiceLifecycle
import ShareHistory

/// Looks at the database's write-ahead log four times a second and checkpoints it once it passes `[database]
/// wal_checkpoint_bytes`, so that a busy server never fills its disk with the log (`SQLiteWriteAheadLog`). Counts the
/// checkpoints and their time in `/metrics`, and warns when the log keeps growing all the same.
struct LogCheckpoints: Service {
    let log: SQLiteWriteAheadLog
    let limitBytes: Int64
    let logger: Logger

    /// Often enough that a log filling at tens of megabytes a second is caught near its limit.
    static let interval = Duration.milliseconds(250)
    /// A log that could not be started over for this long is worth a line in the log, at most this often.
    static let warningAfter = Duration.seconds(30)

    /// How the last checkpoints went.
    struct State {
        var busySince: ContinuousClock.Instant?
        var lastWarning: ContinuousClock.Instant?
        var pacing = CheckpointPacing()
    }

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                var state = State()
                while true {
                    try await Task.sleep(for: Self.interval)
                    await look(&state)
                }
            }
        } catch is CancellationError {
            // The daemon is stopping, between two looks.
        }
    }

    /// One look: a checkpoint when the log is over the limit.
    func look(_ state: inout State, now: ContinuousClock.Instant = .now) async {
        let bytes = log.bytes
        guard bytes > limitBytes else {
            state.busySince = nil
            return
        }
        guard state.pacing.mayTry(at: now) else { return }
        let outcome: SQLiteWriteAheadLog.Outcome
        do {
            outcome = try await log.checkpoint(waitingAtMost: state.pacing.wait)
        } catch  where Task.isCancelled {
            return  // The daemon is stopping: the checkpoint was interrupted, and the next start has the log.
        } catch {
            logger.error("checkpoint of the write-ahead log failed", metadata: ["error": "\(error)"])
            return
        }
        let elapsed = now.duration(to: .now)
        Counter(label: "share_wal_checkpoints_total", dimensions: [("outcome", outcome.rawValue)]).increment()
        Timer(label: "share_wal_checkpoint_duration_seconds", preferredDisplayUnit: .seconds)
            .recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        guard outcome == .busy else {
            state.busySince = nil
            state.pacing.restarted(took: elapsed)
            return
        }
        state.pacing.gaveUp(after: elapsed, at: .now)
        let since = state.busySince ?? now
        state.busySince = since
        guard since.duration(to: now) >= Self.warningAfter, state.lastWarning.map({ $0.duration(to: now) >= Self.warningAfter }) ?? true
        else { return }
        state.lastWarning = now
        logger.warning(
            "the write-ahead log keeps growing: a long write (a large import finishing) or a long read (an export, a backup) holds it",
            metadata: ["wal_bytes": "\(bytes)", "busy_seconds": "\(since.duration(to: now).components.seconds)"])
    }
}
