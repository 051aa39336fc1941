import CPeerCredentials
import Foundation
import NIOCore

/// The Unix user of the process at the other end of a unix socket connection, as PostgreSQL's `peer` sign-in
/// names it: read from the kernel (`SO_PEERCRED`), so a process cannot claim another's name.
enum UnixPeer {
    /// The peer's user name; nil over TCP, or for a user with no name this machine knows.
    static func userName(of channel: any Channel) async -> String? {
        guard channel.localAddress?.pathname != nil, let provider = channel as? any SocketOptionProvider else { return nil }
        let credentials: share_peer_credentials
        do {
            credentials = try await provider.unsafeGetSocketOption(
                level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)
            ).get()
        } catch {
            return nil
        }
        return name(ofUser: credentials.uid)
    }

    /// The name `/etc/passwd` (or NSS) gives a user id.
    static func name(ofUser uid: uid_t) -> String? {
        var entry = passwd()
        var buffer = [CChar](repeating: 0, count: 4096)
        var found: UnsafeMutablePointer<passwd>?
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
