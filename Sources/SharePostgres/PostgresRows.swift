import Logging
import PostgresNIO
import ShareHistory
import ShareKit

/// Reads and writes a `ShareRecord` as a row of `share`, as `SQLiteRow` does in SQLite.
enum PostgresRows {
    /// The columns of a record, in the order `record` and `appendJSON` read them.
    static let columns = "id, name, folder, created_at, size, type, trashed_at, thumbnail"
    typealias Columns = (String, String, String, Int64, Int64, String, Int64?, Bool)

    static func record(_ columns: Columns) -> ShareRecord {
        ShareRecord(
            id: columns.0, name: columns.1, folder: columns.2, createdAt: Timestamp(millisecondsSinceEpoch: columns.3), size: columns.4,
            type: IconCategory(rawValue: columns.5) ?? .other, trashedAt: columns.6.map(Timestamp.init(millisecondsSinceEpoch:)),
            thumbnail: columns.7 ? true : nil)
    }

    /// Appends a record's columns as its JSON, with its owner and thumbnail's bytes when given (as exports hold them).
    static func appendJSON(_ columns: Columns, owner: String? = nil, thumbnail: ByteBuffer? = nil, to bytes: inout [UInt8]) {
        func append(_ image: UnsafeRawBufferPointer?, to bytes: inout [UInt8]) {
            RecordJSON.append(
                id: columns.0.utf8, name: columns.1.utf8, folder: columns.2.utf8, createdAt: columns.3, size: columns.4, type: columns.5.utf8,
                trashedAt: columns.6, thumbnail: columns.7, thumbnailImage: image, owner: owner?.utf8, to: &bytes)
        }
        if let thumbnail { thumbnail.withUnsafeReadableBytes { append($0, to: &bytes) } } else { append(nil, to: &bytes) }
    }

    /// How ids compare: ASCII letters folded, as SQLite's NOCASE does (ids are ASCII).
    static func idKey(_ id: String) -> String {
        String(decoding: id.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The `seq` and record of `owner`'s history with this id; a trashed one only when `includeTrashed`, otherwise
    /// `.notFound`, as for an id no history holds. `locking` holds the row until the transaction ends.
    static func fetch(
        id: String, owner: Int64, includeTrashed: Bool, locking: Bool = false, _ connection: PostgresConnection, logger: Logger
    ) async throws -> (seq: Int64, record: ShareRecord) {
        var sql = BoundSQL("SELECT seq, \(columns) FROM share WHERE id_key = ")
        sql.bind(idKey(id))
        sql.append(" AND owner = ")
        sql.bind(owner)
        if !includeTrashed { sql.append(" AND trashed_at IS NULL") }
        if locking { sql.append(" FOR UPDATE") }
        let rows = try await connection.query(sql.query, logger: logger)
        for try await row in rows.decode((Int64, String, String, String, Int64, Int64, String, Int64?, Bool).self) {
            return (row.0, record((row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8)))
        }
        throw ShareError.notFound(id: id)
    }

    /// Stores `record` in `owner`'s history unless its id is taken; its `seq`, or nil when the id is taken.
    static func insert(_ record: ShareRecord, owner: Int64, _ connection: PostgresConnection, logger: Logger) async throws -> Int64? {
        let rows = try await connection.query(
            """
            INSERT INTO share (owner, id, id_key, name, name_key, folder, created_at, size, type, trashed_at)
            VALUES (\(owner), \(record.id), \(idKey(record.id)), \(record.name), \(SearchKey.fold(record.name)), \(record.folder),
                \(record.createdAt.millisecondsSinceEpoch), \(record.size), \(record.type.rawValue), \(record.trashedAt?.millisecondsSinceEpoch))
            ON CONFLICT (id_key) DO NOTHING RETURNING seq
            """, logger: logger)
        for try await seq in rows.decode(Int64.self) { return seq }
        return nil
    }

    /// The columns `bindArrays` gives for `unnest(...) AS r (…)`: a record's, with `trashed` saying whether
    /// `trashed_at` holds a time (arrays hold no nulls).
    static let arrayColumns = "id, id_key, name, name_key, folder, created_at, size, type, trashed, trashed_at"

    /// Binds the fields of `records` as one array per column of `arrayColumns`, each after a comma: the rows an
    /// `unnest` inserts many records with, in one statement.
    static func bindArrays(of records: [ShareRecord], to sql: inout BoundSQL) throws {
        for texts in [
            records.map(\.id), records.map { idKey($0.id) }, records.map(\.name), records.map { SearchKey.fold($0.name) }, records.map(\.folder),
        ] {
            sql.append(", ")
            try sql.bind(array: texts)
        }
        for numbers in [records.map(\.createdAt.millisecondsSinceEpoch), records.map(\.size)] {
            sql.append(", ")
            try sql.bind(array: numbers)
        }
        sql.append(", ")
        try sql.bind(array: records.map(\.type.rawValue))
        sql.append(", ")
        try sql.bind(array: records.map { $0.trashedAt != nil })
        sql.append(", ")
        try sql.bind(array: records.map { $0.trashedAt?.millisecondsSinceEpoch ?? 0 })
    }

    /// Writes `record` over the row at `seq`.
    static func update(_ record: ShareRecord, seq: Int64, _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            UPDATE share SET name = \(record.name), name_key = \(SearchKey.fold(record.name)), folder = \(record.folder),
                type = \(record.type.rawValue), trashed_at = \(record.trashedAt?.millisecondsSinceEpoch)
            WHERE seq = \(seq)
            """, logger: logger)
    }
}
