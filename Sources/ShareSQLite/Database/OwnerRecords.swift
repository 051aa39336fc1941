import GRDB
import ShareHistory

/// What `shared check` asks of the records' owners (`share_user`): every number a record carries names a user, and
/// the records written while their owner's history existed were written by requests for that history, as their
/// `created` or `imported` event says (`by`: the user, or `ADMIN for USER`).
enum OwnerRecords {
    /// Throws `StoreError.misplacedRecords` describing the first owners whose records break either rule.
    static func verify(_ db: Database, path: String) throws {
        let orphans = try Row.fetchAll(
            db,
            sql: """
                SELECT owner, count(*) AS records FROM share WHERE owner > 0 AND owner NOT IN (SELECT id FROM share_user)
                GROUP BY owner ORDER BY owner LIMIT 3
                """)
        let misplaced = try Row.fetchAll(
            db,
            sql: """
                SELECT u.name, e.by, count(*) AS records FROM share s
                JOIN share_user u ON u.id = s.owner
                JOIN share_event e ON e.share_seq = s.seq AND e.action IN ('created', 'imported')
                WHERE u.made_at IS NOT NULL AND e.at >= u.made_at
                    AND CASE WHEN instr(e.by, ' for ') > 0 THEN substr(e.by, instr(e.by, ' for ') + 5) ELSE e.by END <> u.name
                GROUP BY 1, 2 ORDER BY 1, 2 LIMIT 3
                """)
        let findings =
            orphans.map { row -> String in "\(count(row["records"])) carrying owner number \(row["owner"] as Int64), which names no user" }
            + misplaced.map { row -> String in
                "\(count(row["records"])) in \((row["name"] as String).debugDescription)'s history made by requests of \((row["by"] as String).debugDescription)"
            }
        guard findings.isEmpty else { throw StoreError.misplacedRecords(path: path, report: findings.joined(separator: "; ")) }
    }

    private static func count(_ records: Int) -> String {
        records == 1 ? "1 record" : "\(records) records"
    }
}
