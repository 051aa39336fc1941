import Foundation
import ShareKit

#if canImport(Glibc)
import Glibc
#endif

/// Where a hook may send: an `http` or `https` URL whose host resolves only to public addresses, unless
/// `[hooks] allow_private_addresses` lets it reach a private network. Checked when a hook is made or changed and again
/// before every delivery, which then connects to the address it checked (a name that resolves elsewhere the second
/// time, DNS rebinding, reaches nothing it should not).
public enum HookAddress {
    /// What a delivery connects to: the URL's host and the address checked for it.
    public struct Checked: Sendable {
        public let host: String
        public let address: String
    }

    /// Loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved, and IPv6's like of them.
    static let refused = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16",
        "198.18.0.0/15", "224.0.0.0/4", "240.0.0.0/4", "::/127", "::ffff:0:0/96", "64:ff9b::/96", "100::/64", "fc00::/7", "fe80::/10",
        "ff00::/8",
    ].compactMap(IPAddressRange.init)

    /// Whether a hook may reach `address` (textual IPv4 or IPv6).
    public static func isPublic(_ address: String) -> Bool {
        !refused.contains { $0.contains(address) }
    }

    /// The rule a URL breaks, in the words of a 400's detail; nil when it is a URL a hook may have.
    public static func shapeProblem(of url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = parts.host, !host.isEmpty
        else { return "must be an http:// or https:// URL with a host" }
        if parts.user != nil || parts.password != nil { return "must not hold a user name or password" }
        if url.utf8.count > 2048 { return "must be at most 2048 bytes" }
        return nil
    }

    /// Resolves `url`'s host and checks every address it has; throws `ShareError.invalidField("url", …)` saying what
    /// is wrong.
    public static func check(_ url: String, allowPrivate: Bool) async throws -> Checked {
        if let problem = shapeProblem(of: url) { throw ShareError.invalidField("url", problem) }
        let parts = URLComponents(string: url)!
        let host = parts.host!.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let addresses = await resolve(host)
        guard let first = addresses.first else { throw ShareError.invalidField("url", "names a host that does not resolve: \(host)") }
        if !allowPrivate, let refused = addresses.first(where: { !isPublic($0) }) {
            throw ShareError.invalidField(
                "url", "resolves to \(refused), a loopback, private, link-local or other non-public address ([hooks] allow_private_addresses)")
        }
        return Checked(host: host, address: first)
    }

    /// The addresses `host` resolves to (itself when it is one), textual; none when it does not resolve.
    static func resolve(_ host: String) async -> [String] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: lookUp(host)) }
        }
    }

    private static func lookUp(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let list else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch current.pointee.ai_family {
            case AF_INET:
                current.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { socket in
                    var address = socket.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                }
            case AF_INET6:
                current.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { socket in
                    var address = socket.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                }
            default: break
            }
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !address.isEmpty, !addresses.contains(address) { addresses.append(address) }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
