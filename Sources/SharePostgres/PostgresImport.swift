import Foundation
import PostgresNIO
import ShareHistory
import ShareKit
import Synchronization

/// An import into a `PostgresHistory`: its records wait in `share_import` under the import's own key, seen by no
/// listing, whichever node and connection stage them, and join the history in one transaction at the end.
struct PostgresImport: ShareImport {
    let history: PostgresHistory
    /// The import's rows in `share_import`.
    let key: String
    /// Who is importing, for the `imported` events.
    let by: String
    /// How many records the import's batches sent and staged.
    let counts = ImportCounts()

    /// Imports left behind by a node that stopped in the middle of one are forgotten after this long.
    static let abandonedAfter = Timestamp.millisecondsPerDay

    func stage(_ batch: [(line: Int, share: NewShare)], after earlier: StagedBatch?) async throws -> [ImportReport.Problem] {
        _ = try await earlier?.value
        let first = counts.sent.add(batch.count, ordering: .relaxed).oldValue
        let problems = try await history.stageImport(batch, key: key, firstPosition: first)
        counts.staged.add(batch.count - problems.count, ordering: .relaxed)
        return problems
    }

    func finish() async throws -> FinishedImport {
        let finished = try await history.finishImport(key: key, staged: counts.staged.load(ordering: .relaxed), by: by)
        await history.store.analyzeAfterLoading(finished.stored)
        return finished
    }

    /// Takes the import's staged rows out. An import that failed for want of the database (restarting) may not reach
    /// it now either: the rows are taken out after 1, 2, 4… seconds, for about a minute, beside the failed request;
    /// past that, the hourly sweep (`dropStaleUploads`) takes them a day after the import began.
    func discard() async {
        let (store, key) = (history.store, key)
        Task {
            for wait in [0, 1, 2, 4, 8, 16, 32] {
                try? await Task.sleep(for: .seconds(wait))
                let done = try? await store.write { connection in
                    try await connection.query("DELETE FROM share_import WHERE import = \(key)", logger: store.logger)
                }
                if done != nil { return }
            }
        }
    }
}

/// The records an import has sent to be staged so far (their positions in the import), and those staged.
final class ImportCounts: Sendable {
    let sent = Atomic<Int>(0)
    let staged = Atomic<Int>(0)
}
