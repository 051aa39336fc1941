import ShareKit

/// The share history as the server uses it: reads and writes named for what they mean, whatever keeps the
/// records. SQLite (`SQLiteStore`) is one such store; a PostgreSQL one can stand beside it without a route
/// changing.
public protocol ShareRepository: Sendable {
    /// The same store, reading and changing `owner`'s history ('' is nobody's: the one history everyone shares, and
    /// records from before per-user histories), whose live records may hold `quota` bytes (nil: no limit). Every
    /// method below acts on that history alone, except where it says otherwise.
    func history(of owner: String, quota: Int64?) -> Self

    // MARK: - Writes

    /// Stores a new record, generating its id unless one was given; `now` is its time unless it has one.
    func createShare(_ new: NewShare, now: Timestamp, by: String) async throws -> ShareRecord
    /// Renames and/or moves a record (a trashed one only with `includeTrashed`); the type follows the new name.
    func updateShare(id: String, _ patch: SharePatch, includeTrashed: Bool, by: String) async throws -> ShareRecord
    /// Moves a live record to the trash; with `includeTrashed`, a record already there stays as it is.
    func trashShare(id: String, includeTrashed: Bool, now: Timestamp, by: String) async throws
    /// Brings a record back from the trash; restoring a live record changes nothing.
    func restoreShare(id: String, by: String) async throws -> ShareRecord
    /// Deletes a record for good, whether or not it is in the trash.
    func purgeShare(id: String) async throws
    /// Deletes for good every record, in every history, put in the trash before `time`; returns how many.
    func purgeTrash(trashedBefore time: Timestamp) async throws -> Int
    /// Applies `change` to every record of `targets` in one transaction, each with its event: all of them, or none
    /// when one id is not found or a restore would pass the quota. Returns how many records it acted on.
    func batch(_ change: BatchChange, _ targets: BatchTargets, now: Timestamp, by: String) async throws -> Int
    /// Keeps `thumbnail` as the record's (a trashed one only with `includeTrashed`), replacing any; returns the record.
    func setThumbnail(id: String, _ thumbnail: Thumbnail, includeTrashed: Bool) async throws -> ShareRecord
    /// Removes the record's thumbnail; `.noThumbnail` when it has none.
    func removeThumbnail(id: String, includeTrashed: Bool) async throws
    /// Starts an import: its records join the history together when it finishes, or not at all.
    func beginImport(by: String) async throws -> any ShareImport

    // MARK: - Reads

    /// A page of a record's history (`ShareEvent`), oldest first, trashed or not, after the event at `after`
    /// (0 for the first page), and where the next page starts if one follows.
    func events(id: String, after: Int64, limit: Int) async throws -> (events: [ShareEvent], next: Int64?)
    /// One record by id, case-insensitively; a trashed one only with `includeTrashed`.
    func share(id: String, includeTrashed: Bool) async throws -> ShareRecord
    /// The record's thumbnail; `.noThumbnail` when it has none.
    func thumbnail(id: String, includeTrashed: Bool) async throws -> Thumbnail
    /// One page of the records `query` selects, as the JSON array the API answers with.
    func listShares(_ query: ShareQuery) async throws -> SharePage
    /// Live records (and trashed ones, with `trashedAt`, when `includingTrash`) stored after `position`, in the
    /// order they were stored, as NDJSON lines, and the position of the last one (nil when none is left); with
    /// `everyone`, of every history, each line with its `owner` ('' for nobody's).
    func exportChunk(
        after position: Int64, limit: Int, includingTrash: Bool, everyone: Bool
    ) async throws -> (lines: [UInt8], last: Int64?)
    /// Gives every record that belongs to nobody to `user` (any history's value does it); returns how many.
    func assignUnowned(to user: String) async throws -> Int

    /// How many records are live and how many are in the trash, in every history.
    func recordCounts() async throws -> (live: Int, trashed: Int)
    /// The sizes of the files the store keeps, by what each is (`database`, `wal`): none for a store without files.
    func fileSizes() -> [(file: String, bytes: Int64)]
    /// How many live records there are and their bytes: what the history holds (`GET /me`).
    func usage() async throws -> ShareStats.Total
    /// The subfolders of `parent` (a normalised path) holding live records, by name, each with the count and bytes
    /// of the live records in it and below it (`GET /share/folders`).
    func folders(in parent: String) async throws -> [FolderUsage]
    /// Every user whose history holds live records, by name, with their count and bytes (`GET /users`).
    func users() async throws -> [UserUsage]
    /// Counts and bytes of the records `query` selects, in total, per icon category and per day, month or year in
    /// its zone (`period`; nil: the one that fits their span).
    func stats(_ query: ShareQuery, by period: StatsPeriod?) async throws -> ShareStats
    /// True when the store answers and its schema is the one this program knows.
    func isReady() async -> Bool
    /// What this history's responses' ETags are made of: a word that changes with every change to this history and
    /// with nothing else (another history's changes never show in it), the same on every node that serves the store.
    /// (A count of the history's changes, after a random word that a restore draws anew, since a restored history
    /// may bring the count back to an earlier value.)
    func historyTag() async throws -> String
}

extension ShareRepository {
    public func createShare(_ new: NewShare, by: String) async throws -> ShareRecord {
        try await createShare(new, now: .now(), by: by)
    }

    public func batch(_ change: BatchChange, _ targets: BatchTargets, by: String) async throws -> Int {
        try await batch(change, targets, now: .now(), by: by)
    }

    public func trashShare(id: String, includeTrashed: Bool, by: String) async throws {
        try await trashShare(id: id, includeTrashed: includeTrashed, now: .now(), by: by)
    }
}

/// What the end of an import stored.
public struct FinishedImport: Sendable {
    /// The records that joined the history, as the statement that stored them counted them.
    public let stored: Int
    /// The staged records left out because their id was taken since they were staged, by line.
    public let problems: [ImportReport.Problem]

    public init(stored: Int, problems: [ImportReport.Problem]) {
        self.stored = stored
        self.problems = problems
    }
}

extension FinishedImport {
    /// What an import throws when fewer records would join the history than its batches staged (the database lost
    /// them, restarting): none of them joins, and the client is told to send it again.
    package static func stagingLost(staged: Int, stored: Int) -> ShareError {
        .storeUnreachable(
            "it lost \(staged - stored) of the \(staged) records staged for the import while restarting; nothing was imported: send it again")
    }
}

/// An import in progress: batches are staged as the stream arrives, and join the history together at the end.
public protocol ShareImport: Sendable {
    /// Stages checked records; those whose id is taken are skipped and reported by line.
    func stage(_ batch: [(line: Int, share: NewShare)]) async throws -> [ImportReport.Problem]
    /// Ends the import: its records join the history, all at once, unless they would take it past its quota
    /// (`ShareError.quotaExceeded`, and none of them is kept). When fewer records would join than were staged (the
    /// database lost them, restarting), none does (`ShareError.storeUnreachable`).
    func finish() async throws -> FinishedImport
    /// Abandons the import (its stream broke): none of it is kept.
    func discard() async
}
