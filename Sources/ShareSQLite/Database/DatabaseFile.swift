import Foundation
import ShareHistory

/// Where the files of a history live and how they are made: private to their owner, whatever path names them.
enum DatabaseFile {
    /// The permissions a new database or backup gets: 0600, or 0640 when the umask already keeps everyone else
    /// out (the systemd unit's `UMask=0027`), so the service's group may read backups. SQLite gives the `-wal`
    /// and `-shm` files the database's own.
    static var mode: mode_t {
        processUmask.map { $0 & 0o007 == 0o007 } == true ? 0o640 : 0o600
    }

    /// The process's umask, read from `/proc/self/status`: `umask(2)` can only read it by setting it, which
    /// would let files that other threads create meanwhile be made with none.
    private static var processUmask: mode_t? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") })
        else { return nil }
        return mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
    }

    /// Creates `path` empty with `mode`; false when it exists already.
    @discardableResult
    static func create(_ path: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw SQLiteFileError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
        return true
    }

    /// The path with every symbolic link and `.`/`..` resolved, also for a file not made yet (its folder's is),
    /// so that two spellings of one file are one.
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return path }
        defer { free(real) }
        return (String(cString: real) as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    /// The file's device and inode: the same for every name of one file (links, hard links).
    static func identity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The size of the file itself, following links.
    static func size(_ path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }
}
