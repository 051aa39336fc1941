import NIOCore
import ShareKit

/// One share history as the server reads and changes it: the one history everyone shares, or one user's under
/// per-user histories, whose owner it knows and no query names. Reads and writes are named for what they mean,
/// whatever keeps the records; a `ShareStore` hands them out (`history(of:quota:)`), `SQLiteHistory` and
/// `PostgresHistory`.
public protocol HistoryStore: Sendable {
    /// Whose history this is: a user's name, or '' for nobody's (the one history everyone shares).
    var owner: String { get }
    /// The most bytes its live records may hold; nil: no limit.
    var quota: Int64? { get }
    /// How the records it answers with show their links (where links point, codes shown or not).
    var recordForm: RecordForm { get set }

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
    /// Applies `change` to every record of `targets` in one transaction, each with its event: all of them, or none
    /// when one id is not found or a restore would pass the quota. Returns how many records it acted on.
    func batch(_ change: BatchChange, _ targets: BatchTargets, now: Timestamp, by: String) async throws -> Int
    /// Keeps `thumbnail` as the record's (a trashed one only with `includeTrashed`), replacing any; returns the record.
    func setThumbnail(id: String, _ thumbnail: Thumbnail, includeTrashed: Bool) async throws -> ShareRecord
    /// Removes the record's thumbnail; `.noThumbnail` when it has none.
    func removeThumbnail(id: String, includeTrashed: Bool) async throws
    /// Starts an import: its records join the history together when it finishes, or not at all.
    func beginImport(by: String) async throws -> any ShareImport

    // MARK: - Uploads

    /// Starts an upload of the bytes of `share` (as many as its size), refused at once when they would pass the
    /// quota. Nothing of it is visible until its last byte is stored.
    func startUpload(_ share: NewShare, now: Timestamp) async throws -> UploadStatus
    /// Where this history's upload `id` stands; `.uploadNotFound` when it has none in progress by that id.
    func upload(id: String) async throws -> UploadStatus
    /// Where upload `id` stands, as `upload(id:)`; one whose every byte is stored but whose share was never made (its
    /// finish cut off by a crash or a kill) is finished now, the status carrying its share.
    func finishCutOffUpload(id: String, now: Timestamp, by: String) async throws -> UploadStatus
    /// Appends `body` to upload `id`, from `offset`, which must be the bytes it holds (`.uploadOffset` otherwise);
    /// the bytes that arrived before the body broke off are kept. With the last byte the upload becomes its share
    /// (the status's `share`): the record, its bytes and its event `uploaded` in one transaction.
    func appendToUpload<Body: AsyncSequence>(
        id: String, at offset: Int64, _ body: Body, now: Timestamp, by: String
    ) async throws -> UploadStatus where Body.Element == ByteBuffer
    /// Drops this history's upload `id` and its bytes.
    func abandonUpload(id: String) async throws

    /// Makes a file request of this history: a link through which anyone sends files into `draft.folder`. A file sent
    /// through it is an upload whose `NewShare` `arrives(through:)` it: its place is held as it starts (refused with
    /// `FileRequestError` when the request does not take it: of senders racing for the last place, one wins), and its
    /// last byte makes the share with the event `received`.
    func createRequest(_ draft: RequestDraft, now: Timestamp) async throws -> FileRequest
    /// This history's file requests, newest first, in their state at `now`.
    func requests(now: Timestamp) async throws -> [FileRequest]
    /// One of this history's file requests, by id whatever its case; `FileRequestError.notFound` when it has none.
    func request(id: String, now: Timestamp) async throws -> FileRequest
    func changeRequest(id: String, _ change: RequestChange, now: Timestamp) async throws -> FileRequest
    /// Deletes a file request: its link opens no more; the files it received stay.
    func deleteRequest(id: String) async throws

    // MARK: - Reads

    /// A page of a record's history (`ShareEvent`), oldest first, trashed or not, after the event at `after`
    /// (0 for the first page), and where the next page starts if one follows.
    func events(id: String, after: Int64, limit: Int) async throws -> (events: [ShareEvent], next: Int64?)
    /// A page of a record's access log, newest first, trashed or not, before the entry at `before` (0 for the first
    /// page), and where the next page starts if one follows.
    func downloads(id: String, before: Int64, limit: Int) async throws -> (downloads: [ShareDownload], next: Int64?)
    /// One record by id, case-insensitively; a trashed one only with `includeTrashed`.
    func share(id: String, includeTrashed: Bool) async throws -> ShareRecord
    /// The record's thumbnail; `.noThumbnail` when it has none.
    func thumbnail(id: String, includeTrashed: Bool) async throws -> Thumbnail
    /// The bytes the service holds for the record `id`; nil when it holds none (a record only, or a `source`).
    func storedBytes(id: String, includeTrashed: Bool) async throws -> (any StoredBytes)?
    /// One page of the records `query` selects, as the JSON array the API answers with.
    func listShares(_ query: ShareQuery) async throws -> SharePage
    /// How many live records there are and their bytes: what the history holds (`GET /me`).
    func usage() async throws -> ShareStats.Total
    /// The bytes of the live shares whose files the service holds (uploaded): what the files take (`GET /me`).
    func filesBytes() async throws -> Int64
    /// What the history's quota counts (`GET /me`, and every write that adds bytes).
    func quotaUsage() async throws -> QuotaUsage
    /// The subfolders of `parent` (a normalised path) holding live records, by name, each with the count and bytes
    /// of the live records in it and below it (`GET /share/folders`).
    func folders(in parent: String) async throws -> [FolderUsage]
    /// Counts and bytes of the records `query` selects, in total, per icon category and per day, month or year in
    /// its zone (`period`; nil: the one that fits their span).
    func stats(_ query: ShareQuery, by period: StatsPeriod?) async throws -> ShareStats
    /// What this history's responses' ETags are made of at `now`: a word that changes with every change to this
    /// history and with nothing else (another history's changes never show in it), the same on every node that
    /// serves the store. (A count of the history's changes, after a random word that a restore draws anew, since a
    /// restored history may bring the count back to an earlier value; and the latest expiry its links passed by
    /// `now`, since a listing's states change then though nothing is written.)
    func historyTag(at now: Timestamp) async throws -> String
    /// This history's tag at `now`, then one page of `query`: `historyTag(at:)` and `listShares(_:)` in that order (a
    /// change between them shows in the next tag), on one session of the database where the store has sessions.
    func taggedPage(_ query: ShareQuery, at now: Timestamp) async throws -> (tag: String, page: SharePage)
    /// This history's tag at `now`, then the statistics of `query`, as `taggedPage` does for a page.
    func taggedStats(_ query: ShareQuery, by period: StatsPeriod?, at now: Timestamp) async throws -> (tag: String, stats: ShareStats)
    /// Live records (and trashed ones, with `trashedAt`, when `includingTrash`) stored after `position`, in the
    /// order they were stored, as NDJSON lines, and the position of the last one (nil when none is left).
    func exportChunk(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?)

    // MARK: - Events out

    /// This history's events after the one numbered `after` (0: from the first), oldest first, at most `limit`.
    func historyEvents(after: Int64, limit: Int) async throws -> [HistoryEvent]
    /// This history's latest `limit` events, newest first (the feed).
    func latestEvents(limit: Int) async throws -> [HistoryEvent]
    /// The number of this history's latest event; 0 when it has none.
    func lastEventNumber() async throws -> Int64
    /// The key of this history's feed (`/feed/{key}.atom`), made when first asked for; `renewing` draws a new one,
    /// and the old one opens nothing from then on.
    func feedKey(renewing: Bool) async throws -> String
    /// Makes a webhook of this history, which sends the events that follow; `.tooManyHooks` past `limit`.
    func addHook(_ draft: HookDraft, limit: Int, now: Timestamp) async throws -> Hook
    /// This history's webhooks, oldest first.
    func hooks() async throws -> [Hook]
    /// One of this history's webhooks; `.hookNotFound` when it has none by that id.
    func hook(id: String) async throws -> Hook
    /// Changes a webhook; enabling a disabled one makes it try its stopped event again at once.
    func changeHook(id: String, _ change: HookChange) async throws -> Hook
    func deleteHook(id: String) async throws
    /// Gives a webhook `secret`; the one it had signs too until `oldSigns`. The hook comes back with the new secret.
    func replaceHookSecret(id: String, with secret: String, oldSigns: Timestamp) async throws -> Hook
    /// A page of a webhook's deliveries, newest first, before the one numbered `before` (0: the latest), and where
    /// the next page starts if one follows.
    func hookDeliveries(id: String, before: Int64, limit: Int) async throws -> (deliveries: [HookDelivery], next: Int64?)
    /// Sends the event of delivery `delivery` to webhook `id` again, before its next one; a disabled hook is enabled.
    func resendDelivery(hook id: String, delivery: Int64) async throws
}

extension HistoryStore {
    public func historyTag() async throws -> String {
        try await historyTag(at: .now())
    }

    public func taggedPage(_ query: ShareQuery, at now: Timestamp) async throws -> (tag: String, page: SharePage) {
        let tag = try await historyTag(at: now)
        return (tag, try await listShares(query))
    }

    public func taggedStats(_ query: ShareQuery, by period: StatsPeriod?, at now: Timestamp) async throws -> (tag: String, stats: ShareStats) {
        let tag = try await historyTag(at: now)
        return (tag, try await stats(query, by: period))
    }

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
