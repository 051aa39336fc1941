import Foundation
import GRDB
import ShareHistory
import ShareKit
import SharePictures

/// What a restore may take in: exactly the schema `shared`'s own migrations make (no trigger, view or table
/// beyond it, none changed), records that pass the rules an import applies, and running totals that add up to
/// them. A backup is a file anyone may hand over; what it holds is carried into the live database, so nothing in
/// it is trusted.
enum BackupContents {
    /// Throws `SQLiteFileError.foreignContents` naming the first thing that is not what `shared` would have written.
    static func verify(_ db: Database, path: String) throws {
        try verifySchema(db, path: path)
        try verifyRecords(db, path: path)
        try verifyEvents(db, path: path)
        try verifyThumbnails(db, path: path)
        try SQLiteRunningTotals.verify(db, path: path)
    }

    /// The backup's objects against those of an empty database migrated as far as the backup says it is.
    private static func verifySchema(_ db: Database, path: String) throws {
        let migrator = SQLiteMigrations.migrator
        let applied = try migrator.appliedMigrations(db)
        guard applied == Array(migrator.migrations.prefix(applied.count)) else {
            throw SQLiteFileError.foreignContents(
                path: path, reason: "its migrations (\(applied.joined(separator: ", "))) are not shared's, in order")
        }
        let reference = try DatabaseQueue()
        if let last = applied.last { try migrator.migrate(reference, upTo: last) }
        let expected = try reference.read(objects)
        let found = try objects(db)
        if let extra = found.subtracting(expected).sorted(by: { $0.name < $1.name }).first {
            throw SQLiteFileError.foreignContents(path: path, reason: "its \(extra.type) '\(extra.name)' is not one shared's migrations make")
        }
        if let missing = expected.subtracting(found).sorted(by: { $0.name < $1.name }).first {
            throw SQLiteFileError.foreignContents(path: path, reason: "its \(missing.type) '\(missing.name)' is missing or not as shared makes it")
        }
    }

    private struct SchemaObject: Hashable {
        let type: String
        let name: String
        let table: String
        let sql: String?
    }

    private static func objects(_ db: Database) throws -> Set<SchemaObject> {
        let rows = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        return Set(rows.map { SchemaObject(type: $0["type"], name: $0["name"], table: $0["tbl_name"], sql: $0["sql"]) })
    }

    /// Every record as an import would have stored it (`StoredRecordRules`).
    private static func verifyRecords(_ db: Database, path: String) throws {
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, name, name_key, folder, created_at, size, type, trashed_at FROM share")
        while let row = try cursor.next() {
            let id: String = row["id"]
            if let problem = StoredRecordRules.problem(
                id: id, name: row["name"], nameKey: row["name_key"], folder: row["folder"], createdAt: row["created_at"], size: row["size"],
                type: row["type"], trashedAt: row["trashed_at"])
            {
                throw SQLiteFileError.foreignContents(path: path, reason: "its record \(String(id.prefix(64)).debugDescription) \(problem)")
            }
        }
    }

    /// Every thumbnail as `shared` makes them (a small WebP without metadata, under the tag of its bytes), served
    /// from this origin as they are; and each record's flag saying whether it has one.
    private static func verifyThumbnails(_ db: Database, path: String) throws {
        guard try db.tableExists("share_thumbnail") else { return }
        let mismatched = "SELECT EXISTS (SELECT 1 FROM share WHERE thumbnail IS NOT (seq IN (SELECT share_seq FROM share_thumbnail)))"
        if try Bool.fetchOne(db, sql: mismatched) == true {
            throw SQLiteFileError.foreignContents(path: path, reason: "its records do not say rightly which have a thumbnail")
        }
        let cursor = try Row.fetchCursor(db, sql: "SELECT tag, image FROM share_thumbnail")
        while let row = try cursor.next() {
            let image = (row["image"] as Data?).map { [UInt8]($0) } ?? []
            guard ThumbnailFile.isThumbnail(image), (row["tag"] as String?) == ContentHash.of(image) else {
                throw SQLiteFileError.foreignContents(path: path, reason: "it holds a thumbnail shared would not have made")
            }
        }
    }

    private static func verifyEvents(_ db: Database, path: String) throws {
        let actions = ShareEvent.Action.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM share_event WHERE action NOT IN (\(actions)))") == true {
            throw SQLiteFileError.foreignContents(path: path, reason: "its events hold an action shared does not record")
        }
        if try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
            throw SQLiteFileError.foreignContents(path: path, reason: "its events or thumbnails name records it does not hold")
        }
        if try Int.fetchOne(db, sql: "SELECT count(*) FROM history_version") != 1 {
            throw SQLiteFileError.foreignContents(path: path, reason: "its history version is not one row")
        }
    }
}
