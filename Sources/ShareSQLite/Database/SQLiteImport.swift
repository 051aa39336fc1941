import ShareHistory
import ShareKit

/// An import into a `SQLiteHistory`, its records waiting in a temporary table (`SQLiteImportStaging`).
struct SQLiteImport: ShareImport {
    let history: SQLiteHistory
    let staging: SQLiteImportStaging
    /// Who is importing, for the `imported` events.
    let by: String

    func stage(_ batch: [(line: Int, share: NewShare)], after earlier: StagedBatch?) async throws -> [ImportReport.Problem] {
        try await history.stageImport(batch, in: staging, after: earlier)
    }

    func finish() async throws -> FinishedImport {
        try await history.finishImport(staging, by: by)
    }

    func discard() async {
        await history.discardImport(staging)
    }
}
