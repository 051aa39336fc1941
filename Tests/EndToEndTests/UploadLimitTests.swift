import Foundation
import ShareChildProcess
import ShareTestSupport
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
        let folder = try temporaryFolder("upload-limit")
        let daemon = try Daemon(folder: folder, environment: ["SHARE_SERVER_MAX_UPLOADS": "1"])
        let length = 64 * 1_048_576
        let (first, second) = (try await Self.create(daemon, length: length), try await Self.create(daemon, length: 10))

        // The first upload receives slowly but steadily, as a client on a slow line does: curl at 512 kB a second,
        // well above min_upload_rate, so the server never cuts it off however long the test takes.
        let body = folder.appending(path: "body.bin")
        try Data(count: length).write(to: body)
        let slow = ChildProcess()
        slow.executableURL = URL(filePath: "/usr/bin/curl")
        slow.arguments = [
            "-sS", "-o", "/dev/null", "-X", "PATCH", "--limit-rate", "512k", "-T", body.path, "-H", "Tus-Resumable: 1.0.0",
            "-H", "Upload-Offset: 0", "-H", "Content-Type: application/offset+octet-stream", daemon.address + first,
        ]
        try slow.run()
        defer {
            if slow.isRunning {
                slow.terminate()
                slow.waitUntilExit()
            }
        }
        try await waitUntil("the first upload holds bytes") {
            var request = URLRequest(url: URL(string: daemon.address + first)!)
            request.httpMethod = "HEAD"
            request.setValue("1.0.0", forHTTPHeaderField: "Tus-Resumable")
            let held = (try await exchange(request).1 as! HTTPURLResponse).value(forHTTPHeaderField: "Upload-Offset")
            return Int(held ?? "") ?? 0 > 0
        }

        let patch = ["Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"]
        let refused = try await Self.send("PATCH", daemon.address + second, headers: patch, body: Data(repeating: 1, count: 10))
        #expect(refused.0 == 503 && refused.1 != nil, "the second upload is told to come back later: \(refused)")

        // The slow client goes away: its place is free.
        slow.terminate()
        slow.waitUntilExit()
        try await waitUntil("the second upload comes in once the first has let go") {
            try await Self.send("PATCH", daemon.address + second, headers: patch, body: Data(repeating: 1, count: 10)).0 == 200
        }
    }
}
