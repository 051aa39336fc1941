import Foundation
import Logging
import ShareKit

/// The socket file `shared` listens on.
enum UnixSocketFile {
    /// Clears the way to bind `path`: a socket file left by a daemon that is gone is removed; a live one (another
    /// `shared` answers on it) and anything that is not a socket are refused, never taken over.
    static func prepare(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ConfigError("\(path) exists and is not a socket; refusing to replace it")
        }
        guard !acceptsConnections(path) else {
            throw ConfigError("another process (a running shared?) is serving on \(path); refusing to take it over")
        }
        unlink(path)
    }

    /// Gives the socket `[server] socket_mode` (`0660`: the daemon's user and group, such as a proxy's).
    static func setMode(_ mode: UInt16, of path: String, logger: Logger) {
        if chmod(path, mode_t(mode)) != 0 {
            logger.error("cannot set the mode of \(path) to \(String(mode, radix: 8)): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether something listens on the socket at `path`: a stale file refuses connections.
    private static func acceptsConnections(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
