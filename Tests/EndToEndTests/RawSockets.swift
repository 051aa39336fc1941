import Foundation

#if canImport(Glibc)
import Glibc
#endif

struct SocketError: Error, CustomStringConvertible {
    let description: String
}

/// An IPv4 loopback address for `port`.
private func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

/// A TCP connection driven byte by byte, for what no HTTP client would send: broken framing, half requests,
/// connections that never say anything.
final class RawConnection {
    let descriptor: Int32

    /// The descriptor is kept only once connected: a throwing init of a whole object runs `deinit` too, and a
    /// second `close` would close whatever another thread opened under the same number meanwhile.
    init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SocketError(description: "connect: \(reason)")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) {
        send(bytes: Array(text.utf8))
    }

    func send(bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Tells the server nothing more will come, as a client that stops half-way through a body does.
    func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// What arrives until the server closes, `marker` has arrived, or `seconds` pass.
    func read(until marker: String? = nil, seconds: Double = 5) -> String {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { break }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// True when the server has closed its side: a read returns end of file at once.
    func isClosedByServer(within seconds: Double) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK)) <= 0
    }
}

/// A server that answers every request with whatever `respond` makes of its head, or never answers when it
/// makes nothing: the peer a hostile or broken server would be.
final class HostileServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let accepted = AcceptedConnections()

    /// Connections accepted so far.
    var connections: Int { accepted.count }

    /// With `readingBodies`, each request's body (of its `Content-Length`) is read whole before `respond` is asked.
    init(readingBodies: Bool = false, respond: @escaping @Sendable (_ requestHead: String) -> String?) throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listening, 64) == 0 else { throw SocketError(description: "cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        listener = listening
        port = Int(UInt16(bigEndian: address.sin_port))
        let accepted = accepted
        Thread.detachNewThread {
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else {
                    // Closed here, once `deinit`'s shutdown has ended the wait: never a number reused meanwhile.
                    close(listening)
                    return
                }
                accepted.add(connection)
                Thread.detachNewThread {
                    Self.serve(connection, readingBodies: readingBodies, respond)
                    accepted.close(connection)
                }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        accepted.shutAll()
    }

    private static func serve(_ connection: Int32, readingBodies: Bool, _ respond: (String) -> String?) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var request: [UInt8] = []
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request += buffer[..<count]
            guard let end = request.firstRange(of: Array("\r\n\r\n".utf8)) else { continue }
            let head = String(decoding: request[..<end.lowerBound], as: UTF8.self)
            var bodyBytes = request.count - end.upperBound
            request = []
            if readingBodies, let length = contentLength(head) {
                while bodyBytes < length {
                    let count = recv(connection, &buffer, min(buffer.count, length - bodyBytes), 0)
                    guard count > 0 else { return }
                    bodyBytes += count
                }
            }
            guard let answer = respond(head) else { continue }
            let bytes = Array(answer.utf8)
            var sent = 0
            while sent < bytes.count {
                let written = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { return }
                sent += written
            }
        }
    }
}

/// The `Content-Length` a request head declares, if any.
private func contentLength(_ head: String) -> Int? {
    head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
        return Int(parts[1].trimmingCharacters(in: .whitespaces))
    }.first
}

/// The connections a `HostileServer` took, shared with its accepting thread.
private final class AcceptedConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var accepted = 0

    var count: Int { lock.withLock { accepted } }

    func add(_ descriptor: Int32) {
        lock.withLock {
            open.insert(descriptor)
            accepted += 1
        }
    }

    /// Closes a connection its thread has finished with, under the lock `shutAll` takes: never a reused number.
    func close(_ descriptor: Int32) {
        lock.withLock {
            open.remove(descriptor)
            _ = Glibc.close(descriptor)
        }
    }

    func shutAll() {
        lock.withLock { for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) } }
    }
}

extension Daemon {
    /// The port of a TCP daemon.
    var port: Int { Int(address.split(separator: ":").last!)! }

    /// The daemon's resident memory, from `/proc`, in MiB.
    var residentMiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    /// Everything the daemon has logged so far.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}
