import Foundation
import ShareHistory

/// An exclusive lock on `<database>.lock`, held by whoever serves the database for as long as it does, so that a
/// restore can tell that a daemon has the database open and refuse to replace it under it. The lock is the
/// resolved file's (`DatabaseFile.resolved`): a symbolic link or another spelling of the path finds the same one.
final class DatabaseLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, or throws `SQLiteFileError.inUse` when another process holds it.
    init(database path: String) throws {
        let descriptor = open(DatabaseFile.resolved(path) + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, DatabaseFile.mode)
        guard descriptor >= 0 else { throw SQLiteFileError.cannotOpen(path: path, reason: "cannot create \(path).lock") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw SQLiteFileError.inUse(path: path)
        }
        // Kept only now: an init that throws once every property is set runs `deinit`, which would close it again.
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
