import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Reads and writes a `ShareRecord` as a row of `share`, as `SQLiteRow` does in SQLite.
enum PostgresRows {
    /// The columns of a record, in the order `Columns` reads them.
    static let columns =
        "id, name, folder, created_at, size, type, trashed_at, thumbnail, link_token, source, expires_at, max_downloads, downloads, revoked_at, code, blob IS NOT NULL, sender, message, files"

    /// A record's columns as the server sent them, texts as their bytes: listings and exports write every row they
    /// read as JSON, which needs no `String` of them.
    struct Columns {
        let id, name, folder: ByteBuffer
        let createdAt, size: Int64
        let type: ByteBuffer
        let trashedAt: Int64?
        let thumbnail: Bool
        let linkToken, source: ByteBuffer?
        let expiresAt, maxDownloads: Int64?
        let downloads: Int64
        let revokedAt: Int64?
        let code: ByteBuffer?
        let stored: Bool
        let sender, message: ByteBuffer?
        let files: ByteBuffer?

        /// Reads `columns` from `cells`, which it leaves at the column after them.
        init(_ cells: inout PostgresRow.Iterator) throws {
            (id, name, folder) = (try cells.following().text(), try cells.following().text(), try cells.following().text())
            (createdAt, size, type) = (try cells.following().integer(), try cells.following().integer(), try cells.following().text())
            (trashedAt, thumbnail) = (try cells.following().optionalInteger(), try cells.following().boolean())
            (linkToken, source) = (try cells.following().optionalText(), try cells.following().optionalText())
            (expiresAt, maxDownloads) = (try cells.following().optionalInteger(), try cells.following().optionalInteger())
            (downloads, revokedAt) = (try cells.following().integer(), try cells.following().optionalInteger())
            (code, stored) = (try cells.following().optionalText(), try cells.following().boolean())
            (sender, message) = (try cells.following().optionalText(), try cells.following().optionalText())
            files = try cells.following().optionalText()
        }

        /// The record, its link shown as `form` says.
        func record(_ form: RecordForm) -> ShareRecord {
            func time(_ milliseconds: Int64?) -> Timestamp? { milliseconds.map(Timestamp.init(millisecondsSinceEpoch:)) }
            var record = ShareRecord(
                id: String(buffer: id), name: String(buffer: name), folder: String(buffer: folder),
                createdAt: Timestamp(millisecondsSinceEpoch: createdAt), size: size,
                type: IconCategory(rawValue: String(buffer: type)) ?? .other, trashedAt: time(trashedAt), thumbnail: thumbnail ? true : nil)
            record.linkToken = linkToken.map { String(buffer: $0) }
            record.source = source.map { String(buffer: $0) }
            record.expiresAt = time(expiresAt)
            record.maxDownloads = maxDownloads
            record.downloads = downloads
            record.revokedAt = time(revokedAt)
            record.code = code.map { String(buffer: $0) }
            record.stored = stored ? true : nil
            record.sender = sender.map { String(buffer: $0) }
            record.message = message.map { String(buffer: $0) }
            record.files = files.flatMap { BundleFiles.files(json: String(buffer: $0)) }
            record.show(form)
            return record
        }

        /// Appends the record's JSON, its link as `form` says, with its owner and thumbnail's bytes when given (as
        /// exports hold them).
        func appendJSON(_ form: RecordForm, owner: ByteBuffer? = nil, thumbnailImage: ByteBuffer? = nil, to bytes: inout [UInt8]) {
            let link = LinkColumns(
                token: linkToken?.readableBytesView, source: source?.readableBytesView, expiresAt: expiresAt, maxDownloads: maxDownloads,
                downloads: downloads, revokedAt: revokedAt, code: code?.readableBytesView, stored: stored,
                sender: sender?.readableBytesView, message: message?.readableBytesView)
            func append(_ image: UnsafeRawBufferPointer?, to bytes: inout [UInt8]) {
                RecordJSON.append(
                    id: id.readableBytesView, name: name.readableBytesView, folder: folder.readableBytesView, createdAt: createdAt,
                    size: size, type: type.readableBytesView, trashedAt: trashedAt, thumbnail: thumbnail, link: link,
                    files: files?.readableBytesView, form: form,
                    thumbnailImage: image, owner: owner?.readableBytesView, to: &bytes)
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
            var cells = row.makeIterator()
            let record = try Columns(&cells).record(form)
            return (try cells.following().integer(), record)
        }
        throw ShareError.notFound(id: id)
    }

    /// Stores `record` in `owner`'s history unless its id is taken; its `seq`, or nil when the id is taken.
    static func insert(_ record: ShareRecord, owner: Int64, _ connection: PostgresConnection, logger: Logger) async throws -> Int64? {
        let rows = try await connection.query(
            """
            INSERT INTO share (owner, \(unescaped: newColumns), files)
            VALUES (\(owner), \(record.id), \(idKey(record.id)), \(record.name), \(SearchKey.fold(record.name)), \(record.folder),
                \(record.createdAt.millisecondsSinceEpoch), \(record.size), \(record.type.rawValue), \(record.trashedAt?.millisecondsSinceEpoch),
                \(record.linkToken), \(record.source), \(record.expiresAt?.millisecondsSinceEpoch), \(record.maxDownloads), \(record.downloads ?? 0),
                \(record.revokedAt?.millisecondsSinceEpoch), \(record.code), \(record.sender), \(record.message),
                \(record.files.map(BundleFiles.json)))
            ON CONFLICT (id_key) DO NOTHING RETURNING seq
            """, logger: logger)
        for try await seq in rows.decode(Int64.self) { return seq }
        return nil
    }

    /// The columns a new record fills, which `arrayValues` gives in this order.
    static let newColumns =
        "id, id_key, name, name_key, folder, created_at, size, type, trashed_at, link_token, source, expires_at, max_downloads, downloads, revoked_at, code, sender, message"

    /// The columns `bindArrays` gives for `unnest(...) AS r (…)`. Arrays hold no nulls: a time or a number that is
    /// absent is `absent`, a text that is absent is empty.
    static let arrayColumns =
        "id, id_key, name, name_key, folder, created_at, size, type, trashed_at, link_token, source, expires_at, max_downloads, downloads, revoked_at, code, sender, message"
    /// `newColumns` from the arrays' row `r`, absent values back to NULL.
    static let arrayValues = """
        r.id, r.id_key, r.name, r.name_key, r.folder, r.created_at, r.size, r.type, NULLIF(r.trashed_at, \(absent)), NULLIF(r.link_token, ''),
        NULLIF(r.source, ''), NULLIF(r.expires_at, \(absent)), NULLIF(r.max_downloads, \(absent)), r.downloads,
        NULLIF(r.revoked_at, \(absent)), NULLIF(r.code, ''), NULLIF(r.sender, ''), NULLIF(r.message, '')
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
        try texts(records.map { $0.sender ?? "" })
        try texts(records.map { $0.message ?? "" })
    }

    /// Writes `record` over the row at `seq`.
    static func update(_ record: ShareRecord, seq: Int64, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            UPDATE share SET name = \(record.name), name_key = \(SearchKey.fold(record.name)), folder = \(record.folder),
                type = \(record.type.rawValue), trashed_at = \(record.trashedAt?.millisecondsSinceEpoch),
                expires_at = \(record.expiresAt?.millisecondsSinceEpoch), max_downloads = \(record.maxDownloads),
                revoked_at = \(record.revokedAt?.millisecondsSinceEpoch), code = \(record.code),
                sender = \(record.sender), message = \(record.message)
            WHERE seq = \(seq)
            """, logger: logger)
    }
}
