import CMalloc
import GRDB
import ShareHistory
import ShareKit

extension SQLiteHistory {
    // MARK: - Imports: see `SQLiteImportStaging`

    public func beginImport(by: String) async throws -> any ShareImport {
        let staging = SQLiteImportStaging()
        try await SQLiteStore.storing { try await store.writer.writeWithoutTransaction { db in try staging.create(db) } }
        return SQLiteImport(history: self, staging: staging, by: by)
    }

    /// Stages a batch of an import once `earlier` is stored, its rows made meanwhile. A record whose id is taken is
    /// skipped and reported by its line.
    func stageImport(
        _ batch: [(line: Int, share: NewShare)], in staging: SQLiteImportStaging, after earlier: StagedBatch?, now: Timestamp = .now()
    ) async throws -> [ImportReport.Problem] {
        let rows = batch.map { line, new in staging.row(new.record(at: now), thumbnail: new.thumbnail, line: line) }
        _ = try await earlier?.value
        let (problems, staged) = try await SQLiteStore.storing {
            try await store.writer.write { db in
                var problems: [ImportReport.Problem] = []
                var staged: [ShareRecord] = []
                for ((line, new), row) in zip(batch, rows) {
                    do {
                        try staging.insert(row, db)
                        staged.append(row.record)
                    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                        guard new.id == nil else {
                            problems.append(ImportReport.Problem.idTaken(line: line, id: row.record.id))
                            continue
                        }
                        // A generated id that is taken is drawn again, as a create draws it.
                        staged.append(
                            try SQLiteStore.insert(new, now: now) { try staging.insert(staging.row($0, thumbnail: new.thumbnail, line: line), db) })
                    }
                }
                return (problems, staged)
            }
        }
        staging.count(staged)
        return problems
    }

    /// Ends an import: its records join the history, all at once. Reports those whose id was taken meanwhile.
    func finishImport(_ staging: SQLiteImportStaging, by: String, now: Timestamp = .now()) async throws -> FinishedImport {
        let finished = try await change { db in
            try staging.merge(
                by: by, owner: try store.ownerNumbers.numbering(owner, db), at: now, admitting: { try refusePastQuota(adding: $0, db) }, db)
        }
        store.trigramCounts.forgetAll()
        // An import fills the writer's page cache with pages no request will want, and sorting its indexes
        // takes as much again: give that memory back to the system (the import itself is done either way).
        try? await store.writer.writeWithoutTransaction { db in db.releaseMemory() }
        share_release_free_memory()
        return finished
    }

    /// Abandons an import whose stream broke: none of it is kept.
    func discardImport(_ staging: SQLiteImportStaging) async {
        try? await store.writer.writeWithoutTransaction { db in try staging.drop(db) }
    }
}
