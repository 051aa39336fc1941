import GRDB
import ShareHistory
import ShareKit

/// Reads and writes a `ShareRecord` as a row of the `share` table.
enum SQLiteRow {
    /// A record's columns, in the order `record` and `appendJSON` read them; the columns after them start at
    /// `columnCount`.
    static let columns =
        "id, name, folder, created_at, size, type, trashed_at, thumbnail, link_token, source, expires_at, max_downloads, downloads, revoked_at, code, blob IS NOT NULL AS stored, sender, message, files"
    static let columnCount: Int32 = 19

    /// The record of a row selected with `columns`, showing its link as `form` says.
    static func record(_ row: Row, _ form: RecordForm) -> ShareRecord {
        func time(_ column: String) -> Timestamp? { (row[column] as Int64?).map(Timestamp.init(millisecondsSinceEpoch:)) }
        var record = ShareRecord(
            id: row["id"], name: row["name"], folder: row["folder"], createdAt: Timestamp(millisecondsSinceEpoch: row["created_at"]),
            size: row["size"], type: IconCategory(rawValue: row["type"]) ?? .other, trashedAt: time("trashed_at"),
            thumbnail: row["thumbnail"] ? true : nil)
        record.linkToken = row["link_token"]
        record.source = row["source"]
        record.expiresAt = time("expires_at")
        record.maxDownloads = row["max_downloads"]
        record.downloads = row["downloads"]
        record.revokedAt = time("revoked_at")
        record.code = row["code"]
        record.stored = row["stored"] ? true : nil
        record.sender = row["sender"]
        record.message = row["message"]
        record.files = (row["files"] as String?).flatMap(BundleFiles.files(json:))
        record.show(form)
        return record
    }

    /// Appends a row selected with `columns` as the record's JSON, copying its text straight from SQLite, its link
    /// as `form` says; with the column at `ownerColumn`, the record's owner too, and with the one at
    /// `thumbnailColumn`, its thumbnail's bytes (as an export holds them).
    static func appendJSON(
        _ row: StatementColumns, _ form: RecordForm, ownerColumn: Int32? = nil, thumbnailColumn: Int32? = nil, to bytes: inout [UInt8]
    ) {
        func optionalInteger(_ index: Int32) -> Int64? { row.isNull(index) ? nil : row.integer(index) }
        func optionalText(_ index: Int32) -> UnsafeBufferPointer<UInt8>? { row.isNull(index) ? nil : row.text(index) }
        // Most records have no link at all: their rows are written without reading its columns.
        let hasLink = !(row.isNull(8) && row.isNull(9) && row.isNull(10) && row.isNull(11) && row.isNull(14) && row.isNull(16) && row.isNull(17))
        let link =
            hasLink
            ? LinkColumns(
                token: optionalText(8), source: optionalText(9), expiresAt: optionalInteger(10), maxDownloads: optionalInteger(11),
                downloads: row.integer(12), revokedAt: optionalInteger(13), code: optionalText(14), stored: row.integer(15) != 0,
                sender: optionalText(16), message: optionalText(17)) : nil
        RecordJSON.append(
            id: row.text(0), name: row.text(1), folder: row.text(2), createdAt: row.integer(3), size: row.integer(4),
            type: row.text(5), trashedAt: optionalInteger(6), thumbnail: row.integer(7) != 0, link: link, files: optionalText(18), form: form,
            thumbnailImage: thumbnailColumn.flatMap { row.isNull($0) ? nil : row.blob($0) }, owner: ownerColumn.map(row.text), to: &bytes)
    }

    /// The record of `owner`'s history with this id (case-insensitively), its link shown as `form` says; a trashed
    /// one only when `includeTrashed`, otherwise `.notFound`, as for an id no history holds.
    static func fetch(id: String, owner: Int64, includeTrashed: Bool, _ form: RecordForm, _ db: Database) throws -> ShareRecord {
        record(try fetchRow(columns, id: id, owner: owner, includeTrashed: includeTrashed, db), form)
    }

    /// The `seq` of the record `fetch` would find.
    static func seq(id: String, owner: Int64, includeTrashed: Bool, _ db: Database) throws -> Int64 {
        try fetchRow("seq", id: id, owner: owner, includeTrashed: includeTrashed, db)["seq"]
    }

    private static func fetchRow(_ columns: String, id: String, owner: Int64, includeTrashed: Bool, _ db: Database) throws -> Row {
        let visible = includeTrashed ? "" : " AND trashed_at IS NULL"
        let sql = "SELECT \(columns) FROM share WHERE id = ? AND owner = ?\(visible)"
        guard let row = try Row.fetchOne(db, sql: sql, arguments: [id, owner]) else { throw ShareError.notFound(id: id) }
        return row
    }

    /// Deletes the record of `owner`'s history with this id, with its events and thumbnail (the foreign keys
    /// cascade), trashed or not; `.notFound` when there is none.
    static func purge(id: String, owner: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM share WHERE id = ? AND owner = ?", arguments: [id, owner])
        guard db.changesCount > 0 else { throw ShareError.notFound(id: id) }
    }

    /// The columns a new record fills; `newValues` gives them for a record.
    static let newColumns =
        "id, name, name_key, folder, created_at, size, type, trashed_at, link_token, source, expires_at, max_downloads, downloads, revoked_at, code, sender, message"
    /// `?` for each of `newColumns`.
    static let newPlaceholders = Array(repeating: "?", count: 17).joined(separator: ", ")

    static func newValues(_ record: ShareRecord) -> StatementArguments {
        [
            record.id, record.name, SearchKey.fold(record.name), record.folder, record.createdAt.millisecondsSinceEpoch,
            record.size, record.type.rawValue, record.trashedAt?.millisecondsSinceEpoch, record.linkToken, record.source,
            record.expiresAt?.millisecondsSinceEpoch, record.maxDownloads, record.downloads ?? 0, record.revokedAt?.millisecondsSinceEpoch,
            record.code, record.sender, record.message,
        ]
    }

    static func insert(_ record: ShareRecord, owner: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO share (owner, \(newColumns), files) VALUES (?, \(newPlaceholders), ?)")
            .execute(arguments: [owner] + newValues(record) + [record.files.map(BundleFiles.json)])
    }

    /// The highest `seq` so far: rows stored after it are the ones `indexNames(after:)` adds to name search.
    static func lastSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM share") ?? 0
    }

    /// Adds the names of rows stored after `seq` to the trigram search index, in one statement.
    static func indexNames(after seq: Int64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO share_name_search (rowid, search_text) SELECT doc, search_text FROM share_search_text WHERE seq > ?", arguments: [seq])
    }

    /// Writes what changed from `original` to `record` over its row; nothing when nothing did (a rename to the same
    /// name). Only the changed columns are named: SQLite rewrites the index entries of every column an UPDATE names,
    /// and the name's trigram index (a trigger on `name_key`) whenever the search key is named, changed or not —
    /// a move or a trashing would otherwise rewrite the trigrams of the name too.
    static func update(_ record: ShareRecord, from original: ShareRecord, _ db: Database) throws {
        var assignments: [String] = []
        var arguments: StatementArguments = []
        func assign(_ column: String, _ value: (any DatabaseValueConvertible)?) {
            assignments.append("\(column) = ?")
            arguments += [value]
        }
        if record.name != original.name { assign("name", record.name) }
        let key = SearchKey.fold(record.name)
        if key != SearchKey.fold(original.name) { assign("name_key", key) }
        if record.folder != original.folder { assign("folder", record.folder) }
        if record.type != original.type { assign("type", record.type.rawValue) }
        if record.trashedAt != original.trashedAt { assign("trashed_at", record.trashedAt?.millisecondsSinceEpoch) }
        if record.expiresAt != original.expiresAt { assign("expires_at", record.expiresAt?.millisecondsSinceEpoch) }
        if record.maxDownloads != original.maxDownloads { assign("max_downloads", record.maxDownloads) }
        if record.revokedAt != original.revokedAt { assign("revoked_at", record.revokedAt?.millisecondsSinceEpoch) }
        if record.code != original.code { assign("code", record.code) }
        if record.sender != original.sender { assign("sender", record.sender) }
        if record.message != original.message { assign("message", record.message) }
        guard !assignments.isEmpty else { return }
        try db.cachedStatement(sql: "UPDATE share SET \(assignments.joined(separator: ", ")) WHERE id = ?")
            .execute(arguments: arguments + [record.id])
    }

    /// An access log entry of a row with its `at`, `address`, `agent`, `bytes` and `complete`.
    static func download(_ row: Row) -> ShareDownload {
        ShareDownload(
            at: Timestamp(millisecondsSinceEpoch: row["at"]), address: row["address"], agent: row["agent"], bytes: row["bytes"],
            complete: row["complete"])
    }

    /// An event of a row with its `at`, `action`, `from_value`, `to_value` and `by`.
    static func event(_ row: Row) -> ShareEvent {
        ShareEvent(
            at: Timestamp(millisecondsSinceEpoch: row["at"]), action: ShareEvent.Action(rawValue: row["action"]) ?? .created,
            from: row["from_value"], to: row["to_value"], by: row["by"], downloads: row["downloads"])
    }
}
