import Foundation
import ShareHistory
import ShareKit
import _NIOFileSystem

/// Where a SQLite history keeps the bytes behind its shares: a folder beside the database (`share.db.files`), each
/// distinct content once under `blobs/`, named by its SHA-256, and each upload in progress under `uploads/`. Files
/// are created 0600, like the database.
struct SQLiteBlobFiles: Sendable {
    let root: String
    /// A database in memory's folder, removed once no store holds it.
    private let temporary: TemporaryFolder?

    /// The folder beside the database at `path`, made unless only `reading`; a database in memory gets a new
    /// temporary one.
    init(database path: String, reading: Bool = false) throws {
        temporary = path == ":memory:" ? TemporaryFolder(NSTemporaryDirectory() + "share-files-" + UUID().uuidString) : nil
        root = temporary?.path ?? path + ".files"
        for folder in [root, uploads, root + "/blobs"] where !reading {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    private var uploads: String { root + "/uploads" }

    func upload(_ id: String) -> String { uploads + "/" + id }

    func blob(_ hash: String) -> String { "\(root)/blobs/\(hash.prefix(2))/\(hash)" }

    /// Creates upload `id`'s empty file.
    func createUpload(_ id: String) throws {
        let descriptor = open(upload(id), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure("create an upload's file", errno) }
        close(descriptor)
    }

    /// How many bytes upload `id` holds; nil when it has no file.
    func uploadSize(_ id: String) -> Int64? {
        var status = stat()
        guard stat(upload(id), &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// Gives a finished upload's file its blob's name too, durably: the name is in its folder on disk when this
    /// returns. A link, not a move: the upload keeps its file until the transaction that made the blob commits, so a
    /// finish cut off (a crash, a kill) leaves the upload whole, to be finished again. The file's bytes were
    /// synchronized when they were written.
    func keep(upload id: String, as hash: String) throws {
        let folder = (blob(hash) as NSString).deletingLastPathComponent
        if mkdir(folder, 0o700) == 0 { try Self.synchronize(folder: root + "/blobs") }
        if link(upload(id), blob(hash)) != 0 {
            guard errno == EEXIST else { throw Self.failure("keep an upload's bytes", errno) }
            // A finish cut off before it committed left a file under this name: this one, whole, takes its place.
            let fresh = blob(hash) + ".kept"
            unlink(fresh)
            guard link(upload(id), fresh) == 0, rename(fresh, blob(hash)) == 0 else { throw Self.failure("keep an upload's bytes", errno) }
        }
        try Self.synchronize(folder: folder)
    }

    func remove(upload id: String) {
        unlink(upload(id))
    }

    func remove(blob hash: String) {
        unlink(blob(hash))
    }

    private static func synchronize(folder: String) throws {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open a folder of blobs", errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("synchronize a folder of blobs", errno) }
    }

    /// A full disk is the client's to hear about (507); any other failure is the server's.
    static func failure(_ action: String, _ code: Int32) -> Error {
        if code == ENOSPC || code == EDQUOT { return ShareError.storageUnavailable("the disk is full") }
        if code == EROFS { return ShareError.storageUnavailable("the file system is read-only") }
        return StoreError.files(action: action, reason: String(cString: strerror(code)))
    }
}

/// A folder removed with the last value that holds it.
private final class TemporaryFolder: Sendable {
    let path: String

    init(_ path: String) {
        self.path = path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
