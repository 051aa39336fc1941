import GRDB
import ShareHistory
import ShareKit

/// Keeps the stored `name_key` of every record made by the current `SearchKey.fold`: SQLite's `user_version`
/// records the folding the keys were made with, and keys made by an earlier one are made again on opening.
enum StoredSearchKeys {
    static func refresh(_ writer: any DatabaseWriter) throws {
        try writer.write { db in
            guard try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 < SearchKey.version else { return }
            // ASCII names fold alike in every version, so only the others are read (their length in characters
            // differs from their length in bytes). The trigram index follows through its update trigger.
            let rows = try Row.fetchAll(
                db, sql: "SELECT seq, name, name_key FROM share WHERE length(name) <> length(CAST(name AS BLOB))")
            let update = try db.makeStatement(sql: "UPDATE share SET name_key = ? WHERE seq = ?")
            for row in rows {
                let key = SearchKey.fold(row["name"])
                if key != row["name_key"] as String { try update.execute(arguments: [key, row["seq"] as Int64]) }
            }
            try db.execute(sql: "PRAGMA user_version = \(SearchKey.version)")
        }
    }
}
