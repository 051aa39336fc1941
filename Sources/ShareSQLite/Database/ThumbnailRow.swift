import Foundation
import GRDB
import ShareHistory
import ShareKit

/// Reads and writes a record's `Thumbnail` in `share_thumbnail`, and the flag listings show (`share.thumbnail`).
enum ThumbnailRow {
    /// Keeps `thumbnail` as the record's at `seq`, replacing any.
    static func store(_ thumbnail: Thumbnail, seq: Int64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO share_thumbnail (share_seq, tag, image) VALUES (?, ?, ?)",
            arguments: [seq, thumbnail.tag, Data(thumbnail.image)])
        try db.execute(sql: "UPDATE share SET thumbnail = 1 WHERE seq = ? AND thumbnail = 0", arguments: [seq])
    }

    /// The thumbnail of the record at `seq`, if it has one.
    static func fetch(seq: Int64, _ db: Database) throws -> Thumbnail? {
        try Row.fetchOne(db, sql: "SELECT image, tag FROM share_thumbnail WHERE share_seq = ?", arguments: [seq]).map(thumbnail)
    }

    /// Removes the thumbnail of the record at `seq`; false when it had none.
    static func remove(seq: Int64, _ db: Database) throws -> Bool {
        try db.execute(sql: "DELETE FROM share_thumbnail WHERE share_seq = ?", arguments: [seq])
        guard db.changesCount > 0 else { return false }
        try db.execute(sql: "UPDATE share SET thumbnail = 0 WHERE seq = ?", arguments: [seq])
        return true
    }

    /// The thumbnail of a row with its `image` and `tag`.
    static func thumbnail(_ row: Row) -> Thumbnail {
        Thumbnail(image: [UInt8](row["image"] as Data), tag: row["tag"])
    }
}
