import ArgumentParser
import ShareHistory
import ShareKit
import ShareSQLite

/// `shared check`: the checks a backup passes, run on the history itself, and the running totals' repair.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the history: integrity, schema, records, their owners, and running totals against the records.",
        discussion: """
            Runs while shared serves (it reads one snapshot). With --repair-totals, the running totals that \
            statistics and quotas read are first rebuilt from the records, in one transaction.

            Examples:
              shared check
              shared check --repair-totals
            """)

    @Flag(help: "Rebuild the running totals from the records before checking.")
    var repairTotals = false

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let path = try database.sqlitePath(for: "check")
        if repairTotals {
            let differing = try SQLiteRunningTotals.repair(databaseAt: path)
            print("running totals rebuilt from the records (\(differing == 1 ? "1 row differed" : "\(differing) rows differed"))")
        }
        print("check OK: \(try SQLiteBackups.checkServed(path)), running totals match the records, every record is in its owner's history")
    }
}
