import Logging
import Metrics
import ServiceLifecycle
import ShareHistory
import ShareKit
import ShareStore

/// The store `shared` serves, opened from `[database]`, and the jobs that keep that kind of store: for SQLite, the
/// write-ahead log's checkpoints and the automatic backups. Nothing above it asks which store it is.
public struct ServedStore: Sendable {
    public var store: any ShareRepository
    /// What runs beside the server for as long as it serves.
    public var services: [any Service]

    public init(store: any ShareRepository, services: [any Service] = []) {
        self.store = store
        self.services = services
    }

    /// Opens and migrates the SQLite file of `setup`'s `[database] path`, with its read lanes sized by
    /// `[server] heavy_reads`.
    public static func sqlite(_ setup: ServerSetup, logger: Logger) throws -> ServedStore {
        let (settings, server) = (setup.config.database, setup.config.server)
        var database = try ShareDatabase(path: settings.path, logLimitBytes: settings.walCheckpointBytes)
        database.lanes = readLanes(server)
        logger.info("database ready", metadata: ["path": "\(database.path)", "heavy_reads": "\(database.lanes.heavySlots)"])
        var services: [any Service] = [
            LogCheckpoints(log: try WriteAheadLog(databasePath: settings.path), limitBytes: Int64(settings.walCheckpointBytes), logger: logger)
        ]
        if let directory = settings.backupDirectory {
            services.append(
                AutomaticBackups(
                    directory: directory, every: .seconds(settings.backupEverySeconds), keep: settings.backupKeep,
                    writer: SQLiteBackupWriter(database: settings.path), logger: logger))
        }
        return ServedStore(store: database, services: services)
    }

    /// The read lanes `[server] heavy_reads` and `heavy_wait_seconds` ask for, counting each read's lane for `/metrics`.
    static func readLanes(_ server: ServerSettings) -> ReadLanes {
        ReadLanes(
            heavySlots: server.heavyReads == 0 ? ReadLanes.defaultHeavySlots : server.heavyReads, heavyWait: .seconds(server.heavyWaitSeconds),
            observe: { outcome in
                if outcome == .shed {
                    Counter(label: "share_reads_shed_total").increment()
                } else {
                    Counter(label: "share_reads_total", dimensions: [("lane", outcome.rawValue)]).increment()
                }
            })
    }
}
