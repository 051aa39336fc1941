import ArgumentParser
import ShareHistory
import ShareKit
import ShareObjectStore

/// `shared files`: where the bytes behind shares are kept.
struct FilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files", abstract: "Move the bytes behind shares between where they can be kept.", subcommands: [FilesCopyCommand.self])
}

/// `shared files copy --to s3`: the files kept with the history (beside the SQLite file, or as chunks in PostgreSQL)
/// moved into the bucket of `[files]`.
struct FilesCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Move the files kept with the history into the bucket of [files] store = \"s3\".",
        discussion: """
            Each file is written to the bucket, read back and checked against its SHA-256, and only then recorded \
            as kept there, which lets the database's chunks or the file beside the SQLite database go. Run it again \
            after it stopped for any reason: what moved is not copied twice.

            First set [files] store = "s3" and the bucket's settings, and restart shared with them: new files go to \
            the bucket, the old ones are still served from where they are. On PostgreSQL, run it while the nodes \
            serve (a download of a file being moved breaks off, and resumes from the bucket). On SQLite, stop shared \
            for it (it takes the database file's lock).

            Example:
              shared files copy --to s3 --config /etc/share/share.toml
            """)

    @Option(help: "Where the files go: s3 (the bucket of [files]).")
    var to: String

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        guard to == "s3" else { throw ValidationError("--to is s3 (the bucket of [files]), got '\(to)'") }
    }

    func run() async throws {
        let files = try database.files()
        guard let client = try await BucketChoice.client(files, requestTimeout: 30) else {
            throw ValidationError("[files] store is \"local\": set store = \"s3\" and the bucket's settings first")
        }
        let bucket = S3Bucket(client: client)
        let (count, bytes) = try await database.withStore { store in
            guard let moving = store as? any BlobMoving else { throw ValidationError("this store cannot move its files") }
            return try await BlobCopy(store: moving, bucket: bucket).run { blob in
                print("moved \(blob.hash.prefix(12))… (\(ByteSize.text(blob.size)))")
            }
        }
        print(
            count == 0
                ? "nothing to move: every file is in the \(bucket.name)"
                : "moved \(count) files (\(ByteSize.text(bytes))) into the \(bucket.name), each checked by its SHA-256")
    }
}
