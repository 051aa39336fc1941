import Foundation
import ShareTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Uploads receiving at once are bounded (`max_uploads`): one past the bound is told to come back, and comes in once
/// a place is free. Were it otherwise, a crowd of slow uploads would hold every file handle and thread of the node.
@Suite struct UploadLimitTests {
    private static let tus = ["Tus-Resumable": "1.0.0"]

    /// A tus request with a body of bytes; its status and `Retry-After`.
    private static func send(_ method: String, _ url: String, headers: [String: String], body: Data? = nil) async throws -> (Int, String?) {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 60)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in tus.merging(headers, uniquingKeysWith: { $1 }) { request.setValue(value, forHTTPHeaderField: name) }
        let response = try await exchange(request).1 as! HTTPURLResponse
        return (response.statusCode, response.value(forHTTPHeaderField: "Retry-After"))
    }

    private static func create(_ daemon: Daemon, length: Int) async throws -> String {
        var request = URLRequest(url: URL(string: daemon.address + "/share/uploads")!, timeoutInterval: 60)
        request.httpMethod = "POST"
        for (name, value) in tus.merging(["Upload-Length": "\(length)", "Upload-Metadata": "filename YS5iaW4="], uniquingKeysWith: { $1 }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let response = try await exchange(request).1 as! HTTPURLResponse
        return try #require(response.value(forHTTPHeaderField: "Location"))
    }

    @Test func anUploadPastMaxUploadsIs503WithRetryAfterAndComesInOnceAPlaceIsFree() async throws {
        let daemon = try Daemon(folder: try temporaryFolder("upload-limit"), environment: ["SHARE_SERVER_MAX_UPLOADS": "1"])
        let length = 4 * 1_048_576
        let (first, second) = (try await Self.create(daemon, length: length), try await Self.create(daemon, length: 10))

        // The first upload receives, slowly: its body is announced whole and a part of it sent.
        let port = try #require(Int(daemon.address.split(separator: ":").last ?? ""))
        let connection = try RawConnection(port: port)
        connection.send(
            "PATCH \(first) HTTP/1.1\r\nHost: 127.0.0.1\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
                + "Content-Type: application/offset+octet-stream\r\nContent-Length: \(length)\r\n\r\n")
        connection.send(bytes: [UInt8](repeating: 7, count: 2 * 1_048_576))
        try await waitUntil("the first upload holds bytes") {
            var request = URLRequest(url: URL(string: daemon.address + first)!)
            request.httpMethod = "HEAD"
            request.setValue("1.0.0", forHTTPHeaderField: "Tus-Resumable")
            let held = (try await exchange(request).1 as! HTTPURLResponse).value(forHTTPHeaderField: "Upload-Offset")
            return Int(held ?? "") ?? 0 > 0
        }

        // Its body keeps moving (4 KiB every quarter second, well above min_upload_rate) while the second is tried: a body
        // that stalls for 10 s is cut off, and its place freed, however slow the machine.
        let moving = Trickle(connection)
        let patch = ["Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"]
        let refused = try await Self.send("PATCH", daemon.address + second, headers: patch, body: Data(repeating: 1, count: 10))
        #expect(refused.0 == 503 && refused.1 != nil, "the second upload is told to come back later: \(refused)")

        moving.stop()
        connection.finishSending()
        try await waitUntil("the second upload comes in once the first has let go") {
            try await Self.send("PATCH", daemon.address + second, headers: patch, body: Data(repeating: 1, count: 10)).0 == 200
        }
        withExtendedLifetime(connection) {}
    }
}

/// Bytes sent on a connection, a little at a time on a thread of their own, until stopped (or 2 MiB have gone).
private final class Trickle: Sendable {
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(_ connection: RawConnection) {
        // Used by the thread alone from here until `stop` has waited for it.
        nonisolated(unsafe) let connection = connection
        Thread { [self] in
            for _ in 0..<512 where !stopped.withLock({ $0 }) {
                connection.send(bytes: [UInt8](repeating: 7, count: 4096))
                Thread.sleep(forTimeInterval: 0.25)
            }
            finished.signal()
        }.start()
    }

    /// Stops the sending, and waits until the thread has let go of the connection.
    func stop() {
        stopped.withLock { $0 = true }
        finished.wait()
    }
}
