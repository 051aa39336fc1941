import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import ShareHistory
import ShareKit

extension ServedStore {
    /// Migrates the PostgreSQL database at `address` (refusing a newer schema), then serves it through a pool of
    /// `pool_size` connections, which runs beside the server and reconnects by itself when the database comes back;
    /// listings, statistics and exports read through `lanes`, and new files go to `bucket` when one is given.
    public static func postgres(
        _ address: PostgresAddress, _ settings: DatabaseSettings, lanes: ReadLanes, logger: Logger, bucket: (any BlobBucket)? = nil
    ) async throws -> ServedStore {
        let password = try password(settings)
        let dump = try settings.backupDirectory.map { _ in try PostgresDump(address: address, password: password) }
        let configuration = PostgresStore.clientConfiguration(address, password: password, poolSize: settings.poolSize)
        do {
            try await PostgresStore.withRunningClient(configuration, logger: logger) { client in
                try await PostgresStore(client: client, logger: logger).migrate()
            }
        } catch {
            let reason = await PostgresStore.whyNoConnection(address, password: password, logger: logger) ?? PostgresStore.describe(error)
            throw PostgresSetupFailure("cannot open the PostgreSQL database \(address): \(reason)")
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        var store = PostgresStore(client: client, logger: logger)
        store.lanes = lanes
        store.bucket = bucket
        logger.info("database ready", metadata: ["url": "\(address)", "pool_size": "\(settings.poolSize)", "heavy_reads": "\(lanes.heavySlots)"])
        var services: [any Service] = [client]
        if let directory = settings.backupDirectory, let dump {
            services.append(
                AutomaticBackups(
                    directory: directory, every: .seconds(settings.backupEverySeconds), keep: settings.backupKeep,
                    writer: PostgresBackupWriter(store: store, dump: dump), logger: logger))
        }
        return ServedStore(store: store, services: services)
    }

    /// The pool's configuration for the database at `address`, with the password and pool size of `settings`.
    public static func postgresConfiguration(_ address: PostgresAddress, _ settings: DatabaseSettings) throws -> PostgresClient.Configuration {
        PostgresStore.clientConfiguration(address, password: try password(settings), poolSize: settings.poolSize)
    }

    /// The password: the first line of `password_file`, else `PGPASSWORD`, else none (trust or peer sign-in).
    private static func password(_ settings: DatabaseSettings) throws -> String? {
        guard let file = settings.passwordFile else { return ProcessInfo.processInfo.environment["PGPASSWORD"] }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw PostgresSetupFailure("[database] password_file \(file) cannot be read")
        }
        return String(text.prefix { $0 != "\n" && $0 != "\r" })
    }
}

/// `shared` cannot serve the configured PostgreSQL database; the description says why, never the password.
struct PostgresSetupFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
