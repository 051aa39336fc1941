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
            configured store: the SQLite file, or the PostgreSQL database of [database] url. With [files] store = \
            "s3", the bucket too: every object a share needs there and whole, and those no share needs counted \
            (deleted with --repair).

            Examples:
              shared check
              shared check --repair-totals
              shared check --repair
            """)

    @Flag(help: "Rebuild the running totals from the records before checking.")
    var repairTotals = false

    @Flag(help: "Delete the objects in the bucket that no share needs.")
    var repair = false

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let settings = try database.settings()
        let bucket = try await BucketChoice.client(try database.files(), requestTimeout: 30).map(BucketCheck.init)
        let (repairTotals, repair) = (repairTotals, repair)
        if let postgres = settings.postgres {
            let (summary, repaired, files, objects) = try await StoreChoice.withPostgres(postgres, settings) { store in
                let (summary, repaired) = try await store.check(repairingTotals: repairTotals)
                let objects = try await bucket?.run(named: { try await store.bucketObjects() }, repair: repair)
                return (summary, repaired, try await store.auditFiles(), objects)
            }
            if let repaired { Self.printRepaired(repaired) }
            print(
                "check OK: \(summary), running totals match the records, every record's owner is a user, \(files)" + (objects.map { "; \($0)" } ?? "")
            )
            return
        }
        if repairTotals { Self.printRepaired(try SQLiteRunningTotals.repair(databaseAt: settings.path)) }
        let summary = try SQLiteBackups.checkServed(settings.path)
        let objects = try await bucket?.run(named: { try SQLiteStore.bucketObjects(databaseAt: settings.path) }, repair: repair)
        print(
            "check OK: \(summary), running totals match the records, every record is in its owner's history, "
                + "\(try SQLiteStore.auditFiles(databaseAt: settings.path))" + (objects.map { "; \($0)" } ?? ""))
    }

    private static func printRepaired(_ differing: Int) {
        print("running totals rebuilt from the records (\(differing == 1 ? "1 row differed" : "\(differing) rows differed"))")
    }
}
