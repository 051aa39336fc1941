import ArgumentParser
import ShareHistory
import ShareKit
import ShareSQLite

/// `shared backup --to FILE`: a consistent copy while the daemon keeps serving and writing.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the history into a new file while shared keeps serving, check the copy, and say what it holds.",
        discussion: "Example:\n  shared backup --to /backups/share-2026-11-22.db")

    @Option(help: "The new file to write.")
    var to: String

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let file = ConfigLoader.absolutePath(to, relativeTo: ConfigLoader().workingDirectory)
        if let postgres = try database.settings().postgres {
            // PostgreSQL has its own consistent online copy: say so, and give the command, but make no file.
            print("pg_dump --format=custom --file='\(file)' '\(postgres)'")
            throw ValidationError(
                "the history is in PostgreSQL ([database] url): back it up with pg_dump, as printed above (PGPASSWORD as for shared)")
        }
        let summary = try SQLiteBackups.backUp(databaseAt: try database.sqlitePath(for: "backup"), to: file)
        print("backup OK: \(summary)")
    }
}

/// `shared restore --from FILE`: puts a checked backup in place of the history, the daemon stopped.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the history with a backup, checked first; the replaced database is kept aside.",
        discussion: """
            shared must be stopped. A backup of a newer schema is refused, and so is one holding fewer records \
            than the history unless --force is given. The replaced database is kept as share.db.replaced-TIME.

            Example:
              shared restore --from /backups/share-2026-11-22.db
            """)

    @Option(help: "The backup to restore.")
    var from: String

    @Flag(help: "Replace the history even with a backup that holds fewer records.")
    var force = false

    @OptionGroup var database: DatabaseOptions

    func run() throws {
        let backup = ConfigLoader.absolutePath(from, relativeTo: ConfigLoader().workingDirectory)
        let (aside, restored) = try SQLiteBackups.restore(from: backup, to: try database.sqlitePath(for: "restore"), force: force)
        if let aside { print("the replaced database is kept as \(aside)") }
        print("restore OK: \(restored)")
    }
}
