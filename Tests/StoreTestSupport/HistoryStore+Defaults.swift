import ShareHistory
import ShareKit
import ShareSQLite

/// What the tests mostly ask a store, as the local user would: live records, now.
extension HistoryStore {
    public func createShare(_ new: NewShare, now: Timestamp = .now()) async throws -> ShareRecord {
        try await createShare(new, now: now, by: Credential.localUser)
    }

    public func updateShare(id: String, _ patch: SharePatch, includeTrashed: Bool = false) async throws -> ShareRecord {
        try await updateShare(id: id, patch, includeTrashed: includeTrashed, by: Credential.localUser)
    }

    public func trashShare(id: String, includeTrashed: Bool = false, now: Timestamp = .now()) async throws {
        try await trashShare(id: id, includeTrashed: includeTrashed, now: now, by: Credential.localUser)
    }

    public func restoreShare(id: String) async throws -> ShareRecord {
        try await restoreShare(id: id, by: Credential.localUser)
    }

    public func batch(_ change: BatchChange, _ targets: BatchTargets, now: Timestamp = .now()) async throws -> Int {
        try await batch(change, targets, now: now, by: Credential.localUser)
    }

    public func beginImport() async throws -> any ShareImport {
        try await beginImport(by: Credential.localUser)
    }

    public func share(id: String) async throws -> ShareRecord {
        try await share(id: id, includeTrashed: false)
    }

    public func stats(_ query: ShareQuery) async throws -> ShareStats {
        try await stats(query, by: nil)
    }

    public func setThumbnail(id: String, _ thumbnail: Thumbnail) async throws -> ShareRecord {
        try await setThumbnail(id: id, thumbnail, includeTrashed: false)
    }

    public func thumbnail(id: String) async throws -> Thumbnail {
        try await thumbnail(id: id, includeTrashed: false)
    }

    public func removeThumbnail(id: String) async throws {
        try await removeThumbnail(id: id, includeTrashed: false)
    }

    /// Stores a record from raw fields, as a client would send them.
    @discardableResult
    public func add(
        _ name: String, size: Int64 = 1, folder: String? = nil, at createdAt: String? = nil, id: String? = nil
    ) async throws -> ShareRecord {
        try await createShare(NewShare(id: id, name: name, folder: folder, createdAt: createdAt, size: size))
    }
}

extension ShareStore {
    /// The one history everyone shares, with no quota: nobody's.
    public var sharedHistory: History { history(of: "", quota: nil) }
}
