import GRDB

/// The running totals per UTC quarter hour (`share_total_quarter`, migration 0020), kept by triggers.
enum QuarterHourTotals {
    /// Adds the records stored after `seq` to the totals, a quarter hour at a time: what an import does once its
    /// records are in, with the per-record trigger put aside. Straight into the table, not through the view of
    /// changes whose trigger also deletes rows that fall to zero: an import only adds (a fifth faster at a million).
    static func add(recordsAfter seq: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO share_total_quarter (owner, trashed, quarter, type, count, bytes_high, bytes_low)
                SELECT owner, trashed, quarter, type, count(*), sum(size >> 32), sum(size & 4294967295)
                FROM (SELECT owner, trashed_at IS NOT NULL AS trashed, (created_at + 86400000000000) / 900000 - 96000000 AS quarter,
                    type, size FROM share WHERE seq > ?)
                WHERE true GROUP BY 1, 2, 3, 4
                ON CONFLICT DO UPDATE SET
                    count = count + excluded.count, bytes_high = bytes_high + excluded.bytes_high, bytes_low = bytes_low + excluded.bytes_low
                """,
            arguments: [seq])
    }
}
