import ArgumentParser
import Foundation
import Logging
import ShareHistory
import ShareKit
import SharePostgres
import ShareSQLite
import ShareServer

/// `shared migrate --to postgres://…`: the way to outgrow one machine. Copies a SQLite history into an empty
/// PostgreSQL database in one transaction, then checks that the copy holds what the file does.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract:
            "Copy the SQLite history (records, trash, events, thumbnails, downloads, files, users, webhooks, feed addresses, file requests) into an empty PostgreSQL database.",
        discussion: """
            Run it while shared is stopped (it takes the SQLite file's lock). The copy is one transaction: all of \
            it or nothing; each file's bytes are checked against their SHA-256 as they are copied (files in the \
            bucket of [files] stay there, named by the copy); then the counts, \
            each user's bytes and the files are compared with the file's. Then set \
            [database] url to the same URL (and remove path), and start shared on it, on as many machines as \
            you like. The password comes from PGPASSWORD or [database] password_file, never from the URL. \
            Webhooks keep their ids and secrets and send what happens after the copy; events they had not sent \
            yet are counted, not sent. Feed addresses stay the same.

            Example:
              shared migrate --to postgres://share@db.internal/share --db /var/lib/share/share.db
            """)

    @Option(help: "The PostgreSQL database: postgres://USER@HOST:PORT/DB, or postgresql:///DB?host=/socket/folder.")
    var to: String

    @OptionGroup var database: DatabaseOptions

    /// Records read from the file at a time.
    static let chunk = 2_000

    func run() async throws {
        var settings = try database.settings()
        var opened = try SQLiteStore(path: try database.sqlitePath(for: "migrate"))
        let logger = Logger(label: "shared")
        // Files in a bucket stay there: the copy names their objects.
        opened.bucket = try await BucketChoice.open(try database.files(), requestTimeout: 30, logger: logger)
        let source = opened
        let address: PostgresAddress
        do {
            address = try PostgresAddress(url: to)
        } catch {
            throw ValidationError("--to \(error.reason)")
        }
        settings.postgres = address
        let eventsOut = try await source.eventsOutToCopy()
        let reader = ChunkReader(source: source, eventsOut: eventsOut)
        let copied = try await PostgresStore.withRunningClient(try ServedStore.postgresConfiguration(address, settings), logger: logger) { client in
            let target = PostgresStore(client: client, logger: logger)
            try await target.migrate()
            guard try await target.isEmpty() else {
                throw ValidationError("\(address) already holds a history: shared migrate copies into an empty database")
            }
            let copied = try await target.copyIn(
                { try await reader.next() },
                bytes: { hash in
                    guard let bytes = try await source.storedBytes(hash: hash) else {
                        throw ValidationError("no share holds the bytes named \(hash) any more: is shared still running on the file?")
                    }
                    return bytes
                }, eventsOut: eventsOut)
            try await verify(copied, read: await reader.read, source: source, target: target)
            return copied
        }
        let (live, trashed) = try await source.recordCounts()
        let files = try await source.storedBlobs()
        print(
            "migrated \(copied.records) records (\(live) live, \(trashed) in the trash), \(copied.events) events, \(copied.thumbnails) thumbnails, \(copied.downloads) downloads and \(copied.files) files (\(ByteSize.text(files.bytes))) into \(address)"
        )
        print("with \(copied.hooks) webhooks, \(copied.feedKeys) feed addresses and \(copied.requests) file requests")
        if eventsOut.unsent > 0 {
            print("warning: webhooks had \(eventsOut.unsent) events still to send; they are not sent from PostgreSQL")
        }
        print("next: set [database] url = \"\(address)\" (and remove path), then start shared")
    }

    /// Throws unless the database holds what was read, and every history's counts and bytes are the file's.
    private func verify(_ copied: PostgresCopiedCounts, read: PostgresCopiedCounts, source: SQLiteStore, target: PostgresStore) async throws {
        guard copied == read else {
            throw ValidationError("the copy holds \(copied) where the file gave \(read); nothing was kept")
        }
        let (sourceCounts, targetCounts) = (try await source.recordCounts(), try await target.recordCounts())
        let (nobodys, nobodysCopy) = (source.history(of: "", quota: nil), target.history(of: "", quota: nil))
        guard sourceCounts == targetCounts, try await source.users() == target.users(), try await nobodys.usage() == nobodysCopy.usage(),
            try await source.storedBlobs() == target.storedBlobs()
        else {
            throw ValidationError("the copy's totals differ from the file's (\(targetCounts) against \(sourceCounts))")
        }
    }
}

/// The file's records, chunk after chunk, counted as they are read.
private actor ChunkReader {
    let source: SQLiteStore
    private var position: Int64 = 0
    private(set) var read: PostgresCopiedCounts
    private var hashes: Set<String> = []

    init(source: SQLiteStore, eventsOut: CopiedEventsOut) {
        self.source = source
        read = PostgresCopiedCounts(hooks: eventsOut.hooks.count, feedKeys: eventsOut.feedKeys.count, requests: eventsOut.requests.count)
    }

    func next() async throws -> [CopiedRecord]? {
        let (records, last) = try await source.copyChunk(after: position, limit: MigrateCommand.chunk)
        guard let last else { return nil }
        position = last
        read.records += records.count
        read.events += records.reduce(0) { $0 + $1.events.count }
        read.thumbnails += records.filter { $0.thumbnail != nil }.count
        read.downloads += records.reduce(0) { $0 + $1.downloads.count }
        let files = Set(records.compactMap(\.blob)).subtracting(hashes)
        read.files += files.count
        hashes.formUnion(files)
        return records
    }
}
