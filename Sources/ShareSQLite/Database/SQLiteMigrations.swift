import GRDB
import ShareHistory

/// Applies `migrations/*.sql` in order, each in its own transaction, recording them in `grdb_migrations`.
enum SQLiteMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in EmbeddedMigrations.files {
            migrator.registerMigration(migration.name) { db in
                try db.execute(sql: migration.text)
            }
        }
        return migrator
    }

    /// Migrates `writer`, refusing a database that already holds migrations this binary does not know.
    static func migrate(_ writer: any DatabaseWriter, path: String) throws {
        let migrator = migrator
        let unknown = try writer.read { db in
            try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
        }
        guard unknown.isEmpty else { throw StoreError.newerSchema(path: path, unknownMigrations: unknown) }
        try migrator.migrate(writer)
    }

    static func isUpToDate(_ db: Database) throws -> Bool {
        try migrator.hasCompletedMigrations(db)
    }
}
