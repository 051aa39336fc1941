import ArgumentParser
import ShareHistory
import ShareKit
import SharePostgres
import ShareSQLite

/// `shared check`: the checks a backup passes, run on the history itself, and the running totals' repair.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the history: integrity, schema, records, their owners, running totals, and the files of shares.",
        discussion: """
            Runs while shared serves (on SQLite it reads one snapshot). With --repair-totals, the running totals \
            that statistics and quotas read are first rebuilt from the records, in one transaction. Works on the \
            configured store: the SQLite file, or the PostgreSQL database of [database] url.

            Examples:
              shared check
              shared check --repair-totals
            """)

    @Flag(help: "Rebuild the running totals from the records before checking.")
    var repairTotals = false

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let settings = try database.settings()
        if let postgres = settings.postgres {
            let repair = repairTotals
            let (summary, repaired, files) = try await StoreChoice.withPostgres(postgres, settings) { store in
                let (summary, repaired) = try await store.check(repairingTotals: repair)
                return (summary, repaired, try await store.auditFiles())
            }
            if let repaired { Self.printRepaired(repaired) }
            print("check OK: \(summary), running totals match the records, every record's owner is a user, \(files)")
            return
        }
        if repairTotals { Self.printRepaired(try SQLiteRunningTotals.repair(databaseAt: settings.path)) }
        let summary = try SQLiteBackups.checkServed(settings.path)
        print(
            "check OK: \(summary), running totals match the records, every record is in its owner's history, "
                + "\(try SQLiteStore.auditFiles(databaseAt: settings.path))")
    }

    private static func printRepaired(_ differing: Int) {
        print("running totals rebuilt from the records (\(differing == 1 ? "1 row differed" : "\(differing) rows differed"))")
    }
}
