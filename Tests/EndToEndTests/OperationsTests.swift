import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

/// What an operator relies on when `shared` runs for years: metrics a scraper reads, request ids in the logs,
/// limits under slow clients, a bounded stop, the socket's mode.
@Suite(.serialized) struct OperationsTests {
    /// `promtool check metrics` on the text; its complaints, or nil when it has none.
    private func promtoolProblems(_ text: String) throws -> String? {
        let process = ChildProcess()
        process.executableURL = URL(filePath: "/usr/bin/promtool")
        process.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : said
    }

    /// The value of the sample whose line starts with `prefix` (name and labels), or 0.
    private func sample(_ text: String, _ prefix: String) -> Double {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test func theWriteAheadLogIsStartedOverOnceItPassesItsLimit() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_DATABASE_WAL_CHECKPOINT_BYTES": "200000"])
        let records = (0..<5000).map { #"{"name": "f\#($0).txt", "size": 1}"# }.joined(separator: "\n")
        #expect(try await http("POST", "\(daemon.address)/share/import", body: records).status == 200)
        // The daemon looks at its log every second: wait for the look that starts it over.
        let log = folder.appending(path: "share.db-wal").path
        let logSize = { (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? -1 }
        var metrics = ""
        try await waitUntil("a checkpoint that starts the log over, and the log under its limit", within: .seconds(30)) {
            metrics = try await http("GET", "\(daemon.address)/metrics").body
            return sample(metrics, #"share_wal_checkpoints_total{outcome="restarted"}"#) >= 1 && logSize() <= 200_000
        }
        #expect((0...200_000).contains(logSize()), "the log is back under its limit: \(logSize()) bytes")
        #expect(metrics.contains("share_wal_checkpoint_duration_seconds_count"))
        #expect(try promtoolProblems(metrics) == nil)
        #expect(try await http("GET", "\(daemon.address)/share/stats").body.contains(#""count":5000"#))
        #expect(daemon.stop() == 0)
    }

    @Test func sqlitesPageCachesStayWithinCacheBytesHoweverMuchIsRead() async throws {
        let roomy = try await cacheBytesAfterReadingEverything(environment: [:])
        let bounded = try await cacheBytesAfterReadingEverything(environment: ["SHARE_DATABASE_CACHE_BYTES": "\(2 << 20)"])
        #expect(roomy.cache > Double(4 << 20), "with the default bound the caches keep more of what was read: \(roomy.cache) bytes")
        #expect(bounded.cache <= Double(5 << 19), "bounded to 2 MiB, the caches hold \(bounded.cache) bytes")
        #expect(bounded.resident > 0 && roomy.resident > 0, "the daemon's resident memory is among the metrics")
    }

    /// `share_database_cache_bytes` and `process_resident_memory_bytes` once a daemon started with `environment` has
    /// imported 60,000 records and read them all, in every order and several at once.
    private func cacheBytesAfterReadingEverything(environment: [String: String]) async throws -> (cache: Double, resident: Double) {
        // On a busy machine too: no heavy read shed, and a checkpoint that surely comes after the import.
        let steady = ["SHARE_SERVER_HEAVY_WAIT_SECONDS": "300", "SHARE_DATABASE_WAL_CHECKPOINT_BYTES": "\(1 << 20)"]
        let daemon = try Daemon(folder: try temporaryFolder(), environment: environment.merging(steady) { $1 })
        let records = (0..<60_000).map { #"{"name": "quarterly report \#($0) \#($0 * 7919 % 10007).pdf", "size": \#($0)}"# }
        #expect(try await http("POST", "\(daemon.address)/share/import", body: records.joined(separator: "\n"), timeout: 300).status == 200)
        // Before the reads: a log started over after them would make each reader drop its pages at its next read.
        try await waitUntil("the import's write-ahead log started over", within: .seconds(60)) {
            sample(try await http("GET", "\(daemon.address)/metrics").body, #"share_wal_checkpoints_total{outcome="restarted"}"#) >= 1
        }
        try await withThrowingTaskGroup(of: (String, Int, Int).self) { group in
            for path in ["/share/export", "/share?sort=name&limit=1000", "/share?sort=size&limit=1000", "/share?q=report+99", "/share/stats?by=day"] {
                group.addTask {
                    let answer = try await http("GET", "\(daemon.address)\(path)", timeout: 300)
                    return (path, answer.status, answer.body.split(separator: "\n").count)
                }
            }
            for try await (path, status, lines) in group {
                #expect(status == 200, "\(path)")
                if path == "/share/export" { #expect(lines == 60_000, "the export is whole") }
            }
        }
        let metrics = try await http("GET", "\(daemon.address)/metrics").body
        #expect(daemon.stop() == 0)
        return (sample(metrics, "share_database_cache_bytes "), sample(metrics, "process_resident_memory_bytes "))
    }

    @Test func metricsPassPromtoolAndMoveWithTheRequests() async throws {
        let daemon = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_AUTH_TOKENS": "t0ken"])
        let token = ["Authorization": "Bearer t0ken"]
        #expect(try await http("GET", "\(daemon.address)/metrics").status == 401, "metrics need a token like the API")
        for index in 0..<3 {
            _ = try await http("POST", "\(daemon.address)/share", body: #"{"name": "f\#(index).pdf", "size": 10}"#, headers: token)
        }
        _ = try await http("DELETE", "\(daemon.address)/share/NOSUCH1", headers: token)
        let before = try await http("GET", "\(daemon.address)/metrics", headers: token).body
        let problems = try promtoolProblems(before)
        #expect(problems == nil, "\(problems ?? "")")
        let listings = #"http_requests_total{http_route="/share",http_request_method="GET",http_response_status_code="200"}"#
        for _ in 0..<4 { _ = try await http("GET", "\(daemon.address)/share", headers: token) }
        _ = try await http("POST", "\(daemon.address)/share/import", body: #"{"name": "g.pdf", "size": 1}"#, headers: token)
        _ = try await http("POST", "\(daemon.address)/share/batch", body: #"{"action": "trash", "ids": ["NOSUCH1"]}"#, headers: token)
        let after = try await http("GET", "\(daemon.address)/metrics", headers: token).body
        #expect(try promtoolProblems(after) == nil)
        #expect(sample(after, listings) - sample(before, listings) == 4)
        let quickReads = #"share_reads_total{lane="quick"}"#
        #expect(sample(after, quickReads) - sample(before, quickReads) == 4, "each listing is counted in its lane")
        #expect(sample(after, #"http_requests_total{http_route="/share",http_request_method="POST",http_response_status_code="201"}"#) == 3)
        #expect(sample(after, #"http_requests_total{http_route="/share/{id}",http_request_method="DELETE",http_response_status_code="404"}"#) == 1)
        #expect(sample(after, #"http_requests_total{http_route="/share/batch",http_request_method="POST",http_response_status_code="404"}"#) == 1)
        #expect(sample(after, #"share_records{state="live"}"#) == 4)
        #expect(sample(after, "share_records_imported_total") == 1)
        #expect(sample(after, #"share_database_bytes{file="database"}"#) > 0)
        #expect(after.contains("http_request_duration_seconds_bucket") && after.contains("http_requests_in_flight"))
        // HEAD requests are counted, and none stays in flight once answered.
        for uri in ["/share", "/healthz", "/share/stats", "/share/export"] {
            #expect(try await http("HEAD", "\(daemon.address)\(uri)", headers: token).status == 200, "\(uri)")
        }
        let heads = try await http("GET", "\(daemon.address)/metrics", headers: token).body
        #expect(heads.contains(#"http_requests_in_flight{http_request_method="HEAD"} 0"#), "\(heads)")
        #expect(sample(heads, #"http_requests_total{http_route="/share",http_request_method="HEAD",http_response_status_code="200"}"#) == 1)
        #expect(daemon.stop() == 0)

        let open = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_AUTH_TOKENS": "t0ken", "SHARE_SERVER_METRICS_PUBLIC": "true"])
        #expect(try await http("GET", "\(open.address)/metrics").status == 200, "metrics_public opens /metrics")
        #expect(try await http("GET", "\(open.address)/share").status == 401, "and nothing else")
        #expect(open.stop() == 0)
    }

    @Test func everyRequestHasAnIdInItsAnswerAndItsLogLines() async throws {
        let daemon = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_SERVER_LOG_FORMAT": "json"])
        let generated = try await http("GET", "\(daemon.address)/share/NOSUCH1")
        let id = try #require(generated.headers["x-request-id"])
        #expect(id.count >= 16)
        let forwarded = try await http("GET", "\(daemon.address)/share", headers: ["X-Request-Id": "edge-7f3a"])
        #expect(forwarded.headers["x-request-id"] == "edge-7f3a", "127.0.0.1 is a trusted proxy by default")
        // A line may be written just after its answer is sent.
        var lines: [[String: String]] = []
        try await waitUntil("the forwarded request's log line", within: .seconds(10)) {
            lines = daemon.logText.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
            }
            return lines.contains { $0["request_id"] == "edge-7f3a" }
        }
        #expect(!lines.isEmpty, "log_format = json writes one JSON object a line")
        let access = lines.first { $0["request_id"] == id && $0["message"] == "request" }
        #expect(access?["status"] == "404" && access?["route"] == "/share/{id}" && access?["method"] == "GET")
        #expect(lines.contains { $0["request_id"] == "edge-7f3a" && $0["bytes"] == "2" })
        #expect(daemon.stop() == 0)

        let untrusting = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_SERVER_TRUSTED_PROXIES": ""])
        let ignored = try await http("GET", "\(untrusting.address)/share", headers: ["X-Request-Id": "spoofed"])
        #expect(ignored.headers["x-request-id"] != "spoofed", "an untrusted peer's id is not taken")
        #expect(untrusting.stop() == 0)
    }

    @Test func sigtermLetsRequestsFinishWithinTheBoundAndAnImportCutOffStoresNothing() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_SERVER_SHUTDOWN_SECONDS": "1"])
        let importing = try RawConnection(port: daemon.port)
        importing.send(
            "POST /share/import HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n1c\r\n{\"name\": \"a.txt\", \"size\": 1}\r\n"
        )
        try await waitUntil("the import being answered") {
            sample(try await http("GET", "\(daemon.address)/metrics").body, #"http_requests_in_flight{http_request_method="POST"}"#) >= 1
        }
        let started = Date()
        #expect(daemon.stop() == 0)
        #expect(Date().timeIntervalSince(started) < 8, "the stop waits shutdown_seconds, then cuts off")
        let again = try Daemon(folder: folder)
        let listed = try share(["--json", "ls"], server: again.address)
        #expect(listed.stdout == "[]\n", "the import cut off stored nothing: \(listed.status) \(listed.stdout) \(listed.stderr)")
        #expect(again.stop() == 0)
    }

    @Test func theSocketGetsItsMode() throws {
        for (mode, expected) in [(nil, 0o660), ("0600", 0o600)] as [(String?, Int)] {
            let folder = try temporaryFolder()
            let socket = folder.appending(path: "shared.sock").path
            let environment = mode.map { ["SHARE_SERVER_SOCKET_MODE": $0] } ?? [:]
            let daemon = try Daemon(
                folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "s.db").path], environment: environment)
            let attributes = try FileManager.default.attributesOfItem(atPath: socket)
            #expect((attributes[.posixPermissions] as? Int) == expected)
            #expect(daemon.stop() == 0)
        }
    }

    @Test func theTrashIsPurgedAfterTrashDaysWhenTheDaemonStarts() throws {
        let folder = try temporaryFolder()
        let day: Int64 = 86_400_000
        let now = Timestamp.now().millisecondsSinceEpoch
        func ago(_ days: Int64) -> String { Timestamp(millisecondsSinceEpoch: now - days * day).description }
        let records = """
            {"name": "long-gone.txt", "size": 1, "id": "OLD1", "trashedAt": "\(ago(40))"}
            {"name": "recently-trashed.txt", "size": 1, "id": "NEW1", "trashedAt": "\(ago(10))"}
            {"name": "live.txt", "size": 1, "id": "LIVE1"}
            """
        let first = try Daemon(folder: folder, environment: ["SHARE_DATABASE_TRASH_DAYS": "0"])
        #expect(try share(["import", "-"], server: first.address, input: records).status == 0)
        #expect(first.stop() == 0)
        let kept = try Daemon(folder: folder, environment: ["SHARE_DATABASE_TRASH_DAYS": "0"])
        #expect(try share(["--json", "trash"], server: kept.address).stdout.contains("OLD1"), "trash_days = 0 keeps the trash")
        #expect(kept.stop() == 0)

        let daemon = try Daemon(folder: folder)
        try waitUntilBlocking("the first trash retention", within: .seconds(10)) { daemon.logText.contains("trash retention") }
        let trash = try share(["--json", "trash"], server: daemon.address).stdout
        #expect(!trash.contains("OLD1") && trash.contains("NEW1"), "30 days by default: \(trash)")
        #expect(try share(["show", "LIVE1"], server: daemon.address).status == 0)
        #expect(daemon.logText.contains("purged=1") && daemon.logText.contains("trash retention"))
        #expect(daemon.stop() == 0)
    }
}
