import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Reads and writes a `ShareRecord` as a row of `share`, as `SQLiteRow` does in SQLite.
enum PostgresRows {
    /// The columns of a record, in the order `Columns` reads them; the columns after them start at `columnCount`.
    static let columns =
        "id, name, folder, created_at, size, type, trashed_at, thumbnail, link_token, source, expires_at, max_downloads, downloads, revoked_at, code, blob IS NOT NULL"
    static let columnCount = 16

    /// A record's columns, read from a row that starts with `columns`.
    struct Columns: Sendable {
        let id, name, folder: String
        let createdAt, size: Int64
        let type: String
        let trashedAt: Int64?
        let thumbnail: Bool
        let linkToken, source: String?
        let expiresAt, maxDownloads: Int64?
        let downloads: Int64
        let revokedAt: Int64?
        let code: String?
        let stored: Bool

        init(_ row: PostgresRandomAccessRow) throws {
            (id, name, folder) = (try row.string(0), try row.string(1), try row.string(2))
            (createdAt, size, type) = (try row.integer(3), try row.integer(4), try row.string(5))
            (trashedAt, thumbnail) = (try row.optionalInteger(6), try row.boolean(7))
            (linkToken, source) = (try row.optionalString(8), try row.optionalString(9))
            (expiresAt, maxDownloads, downloads) = (try row.optionalInteger(10), try row.optionalInteger(11), try row.integer(12))
            (revokedAt, code, stored) = (try row.optionalInteger(13), try row.optionalString(14), try row.boolean(15))
        }

        /// The record, its link shown as `form` says.
        func record(_ form: RecordForm) -> ShareRecord {
            func time(_ milliseconds: Int64?) -> Timestamp? { milliseconds.map(Timestamp.init(millisecondsSinceEpoch:)) }
            var record = ShareRecord(
                id: id, name: name, folder: folder, createdAt: Timestamp(millisecondsSinceEpoch: createdAt), size: size,
                type: IconCategory(rawValue: type) ?? .other, trashedAt: time(trashedAt), thumbnail: thumbnail ? true : nil)
            record.linkToken = linkToken
            record.source = source
            record.expiresAt = time(expiresAt)
            record.maxDownloads = maxDownloads
            record.downloads = downloads
            record.revokedAt = time(revokedAt)
            record.code = code
            record.stored = stored ? true : nil
            record.show(form)
            return record
        }

        /// Appends the record's JSON, its link as `form` says, with its owner and thumbnail's bytes when given (as
        /// exports hold them).
        func appendJSON(_ form: RecordForm, owner: String? = nil, thumbnailImage: ByteBuffer? = nil, to bytes: inout [UInt8]) {
            let link = LinkColumns(
                token: linkToken?.utf8, source: source?.utf8, expiresAt: expiresAt, maxDownloads: maxDownloads, downloads: downloads,
                revokedAt: revokedAt, code: code?.utf8, stored: stored)
            func append(_ image: UnsafeRawBufferPointer?, to bytes: inout [UInt8]) {
                RecordJSON.append(
                    id: id.utf8, name: name.utf8, folder: folder.utf8, createdAt: createdAt, size: size, type: type.utf8, trashedAt: trashedAt,
                    thumbnail: thumbnail, link: link, form: form, thumbnailImage: image, owner: owner?.utf8, to: &bytes)
            }
            if let thumbnailImage { thumbnailImage.withUnsafeReadableBytes { append($0, to: &bytes) } } else { append(nil, to: &bytes) }
        }
    }

    /// How ids compare: ASCII letters folded, as SQLite's NOCASE does (ids are ASCII).
    static func idKey(_ id: String) -> String {
        String(decoding: id.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The `seq` and record of `owner`'s history with this id; a trashed one only when `includeTrashed`, otherwise
    /// `.notFound`, as for an id no history holds. `locking` holds the row until the transaction ends.
    static func fetch(
        id: String, owner: Int64, includeTrashed: Bool, locking: Bool = false, form: RecordForm = .plain, _ connection: PostgresConnection,
        logger: Logger
    ) async throws -> (seq: Int64, record: ShareRecord) {
        var sql = BoundSQL("SELECT \(columns), seq FROM share WHERE id_key = ")
        sql.bind(idKey(id))
        sql.append(" AND owner = ")
        sql.bind(owner)
        if !includeTrashed { sql.append(" AND trashed_at IS NULL") }
        if locking { sql.append(" FOR UPDATE") }
        let rows = try await connection.query(sql.query, logger: logger)
        for try await row in rows {
            let cells = row.makeRandomAccess()
            return (try cells[columnCount].decode(Int64.self), try Columns(cells).record(form))
        }
        throw ShareError.notFound(id: id)
    }

    /// Stores `record` in `owner`'s history unless its id is taken; its `seq`, or nil when the id is taken.
    static func insert(_ record: ShareRecord, owner: Int64, _ connection: PostgresConnection, logger: Logger) async throws -> Int64? {
        let rows = try await connection.query(
            """
            INSERT INTO share (owner, \(unescaped: newColumns))
            VALUES (\(owner), \(record.id), \(idKey(record.id)), \(record.name), \(SearchKey.fold(record.name)), \(record.folder),
                \(record.createdAt.millisecondsSinceEpoch), \(record.size), \(record.type.rawValue), \(record.trashedAt?.millisecondsSinceEpoch),
                \(record.linkToken), \(record.source), \(record.expiresAt?.millisecondsSinceEpoch), \(record.maxDownloads), \(record.downloads ?? 0),
                \(record.revokedAt?.millisecondsSinceEpoch), \(record.code))
            ON CONFLICT (id_key) DO NOTHING RETURNING seq
            """, logger: logger)
        for try await seq in rows.decode(Int64.self) { return seq }
        return nil
    }

    /// The columns a new record fills, which `arrayValues` gives in this order.
    static let newColumns =
        "id, id_key, name, name_key, folder, created_at, size, type, trashed_at, link_token, source, expires_at, max_downloads, downloads, revoked_at, code"

    /// The columns `bindArrays` gives for `unnest(...) AS r (…)`. Arrays hold no nulls: a time or a number that is
    /// absent is `absent`, a text that is absent is empty.
    static let arrayColumns =
        "id, id_key, name, name_key, folder, created_at, size, type, trashed_at, link_token, source, expires_at, max_downloads, downloads, revoked_at, code"
    /// `newColumns` from the arrays' row `r`, absent values back to NULL.
    static let arrayValues = """
        r.id, r.id_key, r.name, r.name_key, r.folder, r.created_at, r.size, r.type, NULLIF(r.trashed_at, \(absent)), NULLIF(r.link_token, ''),
        NULLIF(r.source, ''), NULLIF(r.expires_at, \(absent)), NULLIF(r.max_downloads, \(absent)), r.downloads,
        NULLIF(r.revoked_at, \(absent)), NULLIF(r.code, '')
        """
    static let absent = Int64.min

    /// Binds the fields of `records` as one array per column of `arrayColumns`, each after a comma: the rows an
    /// `unnest` inserts many records with, in one statement.
    static func bindArrays(of records: [ShareRecord], to sql: inout BoundSQL) throws {
        func texts(_ values: [String]) throws {
            sql.append(", ")
            try sql.bind(array: values)
        }
        func numbers(_ values: [Int64?]) throws {
            sql.append(", ")
            try sql.bind(array: values.map { $0 ?? absent })
        }
        try texts(records.map(\.id))
        try texts(records.map { idKey($0.id) })
        try texts(records.map(\.name))
        try texts(records.map { SearchKey.fold($0.name) })
        try texts(records.map(\.folder))
        try numbers(records.map(\.createdAt.millisecondsSinceEpoch))
        try numbers(records.map(\.size))
        try texts(records.map(\.type.rawValue))
        try numbers(records.map(\.trashedAt?.millisecondsSinceEpoch))
        try texts(records.map { $0.linkToken ?? "" })
        try texts(records.map { $0.source ?? "" })
        try numbers(records.map(\.expiresAt?.millisecondsSinceEpoch))
        try numbers(records.map(\.maxDownloads))
        try numbers(records.map { $0.downloads ?? 0 })
        try numbers(records.map(\.revokedAt?.millisecondsSinceEpoch))
        try texts(records.map { $0.code ?? "" })
    }

    /// Writes `record` over the row at `seq`.
    static func update(_ record: ShareRecord, seq: Int64, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            UPDATE share SET name = \(record.name), name_key = \(SearchKey.fold(record.name)), folder = \(record.folder),
                type = \(record.type.rawValue), trashed_at = \(record.trashedAt?.millisecondsSinceEpoch),
                expires_at = \(record.expiresAt?.millisecondsSinceEpoch), max_downloads = \(record.maxDownloads),
                revoked_at = \(record.revokedAt?.millisecondsSinceEpoch), code = \(record.code)
            WHERE seq = \(seq)
            """, logger: logger)
    }
}
