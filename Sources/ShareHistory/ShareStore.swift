import ShareKit

/// A store of share histories as the service uses it: the history of each user (`history(of:quota:)`), and what spans
/// them all (links, users, retention, readiness, the bytes it keeps). SQLite (`SQLiteStore`) and PostgreSQL
/// (`PostgresStore`) are the two.
public protocol ShareStore: Sendable {
    associatedtype History: HistoryStore

    /// How the records it answers with show their links; the histories it hands out start with it.
    var recordForm: RecordForm { get set }

    /// The history of `owner` ('' is nobody's: the one history everyone shares, and records from before per-user
    /// histories), whose live records may hold `quota` bytes (nil: no limit).
    func history(of owner: String, quota: Int64?) -> History

    /// Deletes for good every record, in every history, put in the trash before `time`; returns how many.
    func purgeTrash(trashedBefore time: Timestamp) async throws -> Int
    /// The records of every history, as `exportChunk` reads one history's, each line with its `owner` ('' for
    /// nobody's).
    func exportEveryHistory(after position: Int64, limit: Int, includingTrash: Bool) async throws -> (lines: [UInt8], last: Int64?)
    /// Gives every record that belongs to nobody to `user`; returns how many.
    func assignUnowned(to user: String) async throws -> Int
    /// How many records are live and how many are in the trash, in every history.
    func recordCounts() async throws -> (live: Int, trashed: Int)
    /// The bytes the store keeps on this node's own disk, by part (`database`, `wal`), for the metrics: none for a
    /// store kept elsewhere.
    func bytesOnDisk() -> [(part: String, bytes: Int64)]
    /// The memory this node's database caches hold now, for the metrics (SQLite's page caches, which
    /// `[database] cache_bytes` bounds); nil for a store whose database keeps its own.
    func cacheBytes() -> Int64?
    /// Every user whose history holds live records, by name, with their count and bytes (`GET /users`).
    func users() async throws -> [UserUsage]
    /// True when the store answers and its schema is the one this program knows.
    func isReady() async -> Bool

    /// The live share, in whichever history, whose link has this token (`/s/{token}`), with its code and its bytes;
    /// nil when none has.
    func openLink(token: String) async throws -> OpenedLink?
    /// Keeps `download` (a request for the file, with the bytes it asks for) in the access log of the share whose link
    /// has this token, and counts it as a download when it is `complete`, if the link still opens at its time and,
    /// under a download limit, if its bytes keep the link within `DownloadAllowance`: the log entry's number, or nil
    /// when it no longer opens (expired, revoked, trashed, purged, spent). A request refused for want of allowance
    /// spends the link. Of downloads racing for the last one allowed, exactly one counts. An entry with bytes to send
    /// holds a lease of `DownloadLease.length` from its time (`keepSending` renews it, `endDownload` ends it).
    func countDownload(token: String, _ download: ShareDownload) async throws -> Int64?
    /// Renews the lease of the download `entry` still being sent, to `until`.
    func keepSending(_ entry: Int64, until: Timestamp) async throws
    /// Ends the sending of `entry` after `sent` bytes: one that broke off before all it asked for gives back what it
    /// did not send (the entry says so and is not whole, and a download it counted is counted no more).
    func endDownload(_ entry: Int64, sent: Int64) async throws
    /// Gives back every download whose lease ran out before `now` (its node was killed or lost the store), as one
    /// that broke off after an unknown number of bytes: how many.
    func giveBackStoppedDownloads(now: Timestamp) async throws -> Int
    /// The file request, in whichever history, whose link (`/r/{token}`) has this token, in its state at `now`, and
    /// whose it is; nil when none has.
    func openRequest(token: String, now: Timestamp) async throws -> OpenedRequest?
    /// Records that the link with this token was refused at `now` for having expired: an `expired` event, once until
    /// its limits change.
    func noteExpired(token: String, at now: Timestamp) async throws
    /// The CRC-32s of the files of share `id` (in whichever history), in their order, once `keepFileChecksums` kept
    /// them; nil before, or for a share of one file.
    func fileChecksums(id: String) async throws -> [UInt32]?
    /// Keeps the CRC-32s of the files of share `id`, read from its bytes, for its ZIP.
    func keepFileChecksums(id: String, _ checksums: [UInt32]) async throws
    /// The thumbnail of the live share whose link has this token; nil when it has none.
    func linkedThumbnail(token: String) async throws -> Thumbnail?
    /// The distinct contents kept for shares, in every history, and their bytes (a file shared twice counts once).
    func storedBlobs() async throws -> (count: Int, bytes: Int64)
    /// Drops every upload, in every history, that got no byte since its expiry (and what an import a node could not
    /// clean up left staged a day ago); returns how many uploads.
    func dropStaleUploads(now: Timestamp) async throws -> Int
    /// Deletes in the bucket (`[files] store = "s3"`) what the store let go: objects of forgotten blobs, multipart
    /// uploads abandoned. Returns how many; 0 without a bucket.
    func releaseFreedObjects() async throws -> Int

    /// The owner of the history whose feed has this key ('' for nobody's); nil when none has.
    func feedOwner(key: String) async throws -> String?
    /// The delivery due first at `now` among every history's enabled webhooks whose node's lease has run out, leased to
    /// the caller until `leaseUntil`: a resend asked for, else the hook's next event it sends. Nil when none is due.
    func takeDueDelivery(now: Timestamp, leaseUntil: Timestamp) async throws -> DueDelivery?
    /// Records an attempt of `due` in its hook's log and moves the hook on as `outcome` says, ending the lease.
    func recordDelivery(_ due: DueDelivery, _ outcome: DeliveryOutcome, now: Timestamp) async throws
    /// Forgets the events that happened before `time`, but those an enabled hook of their history has still to send,
    /// and the deliveries logged before it: how many events.
    func forgetEvents(before time: Timestamp) async throws -> Int
}
