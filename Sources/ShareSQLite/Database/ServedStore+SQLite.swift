import Logging
import ServiceLifecycle
import ShareHistory
import ShareKit

extension ServedStore {
    /// Opens and migrates the SQLite file of `[database] path`, its reads through `lanes`, with the jobs that keep
    /// it: the write-ahead log's checkpoints and, with `backup_dir`, the automatic backups.
    public static func sqlite(_ settings: DatabaseSettings, lanes: ReadLanes, logger: Logger, bucket: (any BlobBucket)? = nil) throws -> ServedStore {
        SQLiteStore.limitCaches(toBytes: settings.cacheBytes)
        var database = try SQLiteStore(path: settings.path, logLimitBytes: settings.walCheckpointBytes)
        database.lanes = lanes
        database.bucket = bucket
        logger.info("database ready", metadata: ["path": "\(database.path)", "heavy_reads": "\(database.lanes.heavySlots)"])
        var services: [any Service] = [
            LogCheckpoints(log: try SQLiteWriteAheadLog(databasePath: settings.path), limitBytes: Int64(settings.walCheckpointBytes), logger: logger)
        ]
        if let directory = settings.backupDirectory {
            services.append(
                AutomaticBackups(
                    directory: directory, every: .seconds(settings.backupEverySeconds), keep: settings.backupKeep,
                    writer: SQLiteBackupWriter(database: settings.path), logger: logger))
        }
        return ServedStore(store: database, services: services)
    }
}
