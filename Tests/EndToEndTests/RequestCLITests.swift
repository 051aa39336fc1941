import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// File requests through the real `share`, `shared` and `curl`: the owner asks for files with `share request`, anyone
/// with the link sends them (`curl -T`, or tus as the page does), each lands in the owner's folder, and the request's
/// limits, code and closing hold. If they broke, a link meant to collect two signed forms would take a hundred files,
/// or one after its owner closed it.
@Suite struct RequestCLITests {
    /// `curl -T file url` (`-` reads stdin, sent chunked), as from the address `from` (a proxy's `X-Forwarded-For`):
    /// the status and body.
    private func send(
        _ file: String, to url: String, stdin: String? = nil, from address: String = "127.0.0.1"
    ) throws -> (
        status: Int, body: String
    ) {
        let command = #"printf %s "$2" | /usr/bin/curl --silent --max-time 30 --write-out '\n%{http_code}' -H "X-Forwarded-For: $3" -T "$0" "$1""#
        let run = try ChildProcess.finished("/bin/sh", ["-c", command, file, url, stdin ?? "", address])
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    private func file(_ name: String, size: Int, in folder: URL) throws -> String {
        let url = folder.appending(path: name)
        try randomBytes(size).write(to: url)
        return url.path
    }

    @Test func aRequestMadeWithTheCLICollectsFilesSentWithCurlWithinItsLimits() async throws {
        let folder = try temporaryFolder("request-cli")
        let daemon = try Daemon(folder: folder)
        let made = try share(
            ["request", "Signed forms", "--folder", "/forms", "--max-files", "2", "--max-bytes", "1kB", "--code", "--json"],
            server: daemon.address)
        #expect(made.status == 0, "\(made.stderr)")
        let request = try WireJSON.decoder().decode(FileRequest.self, from: Data(made.stdout.utf8))
        let code = try #require(request.code)
        #expect(request.maxBytes == 1000 && request.maxFiles == 2 && request.folder == "/forms")
        let link = daemon.address + (request.link ?? "")

        let form = try file("form.pdf", size: 900, in: folder)
        #expect(try send(form, to: link + "/files/form.pdf").status == 403, "no code, no file")
        #expect(try send(form, to: link + "/files/form.pdf?code=WRONG1").status == 403)
        let sent = try send(form, to: link + "/files/form%20A.pdf?code=\(code.lowercased())")
        #expect(sent.status == 201 && sent.body.contains(#""name":"form A.pdf""#) && sent.body.contains(#""size":900"#), "\(sent)")
        #expect(!sent.body.contains("\"id\"") && !sent.body.contains("/s/"), "a sender learns nothing of the owner's share")
        let large = try send(try file("scan.pdf", size: 1001, in: folder), to: link + "/files/scan.pdf?code=\(code)")
        #expect(large.status == 413 && large.body.contains("at most 1.0 kB"), "\(large)")
        let slashed = try send(form, to: link + "/files/a%2Fb.pdf?code=\(code)")
        #expect(slashed.status == 400 && slashed.body.contains("'name'"), "\(slashed)")
        let piped = try send("-", to: link + "/files/piped.txt?code=\(code)", stdin: "from a pipe")
        #expect(piped.status == 411, "a body of unknown length is refused before anything is kept: \(piped)")
        #expect(try send(form, to: link + "/files/form%20B.pdf?code=\(code)").status == 201)
        let third = try send(form, to: link + "/files/form%20C.pdf?code=\(code)")
        #expect(third.status == 409 && third.body.contains("all the 2 files"), "\(third)")

        let listed = try share(["requests"], server: daemon.address)
        #expect(listed.stdout.contains("Signed forms") && listed.stdout.contains("2 of 2 files") && listed.stdout.contains("full"), "\(listed)")
        let received = try share(["ls", "/forms", "--json"], server: daemon.address)
        let records = try WireJSON.decoder().decode([ShareRecord].self, from: Data(received.stdout.utf8))
        #expect(Set(records.map(\.name)) == ["form A.pdf", "form B.pdf"] && records.allSatisfy { $0.source == "request:\(request.id)" })
        let log = try share(["log", records[0].id], server: daemon.address)
        #expect(log.stdout.contains("received"), "the arrival is in the share's history: \(log.stdout)")

        let exported = try share(["export"], server: daemon.address)
        let other = try Daemon(folder: try temporaryFolder("request-import"))
        let imported = try share(["import", "-"], server: other.address, input: exported.stdout)
        #expect(imported.status == 0, "an export holding received files imports again: \(imported.stderr)")
        let restored = try share(["ls", "/forms", "--json"], server: other.address).stdout
        #expect(try WireJSON.decoder().decode([ShareRecord].self, from: Data(restored.utf8)).map(\.source) == records.map(\.source))
        #expect(other.stop() == 0)

        let closed = try share(["request", "close", request.id.lowercased()], server: daemon.address)
        #expect(closed.status == 0 && closed.stdout.contains("Closed request \(request.id)"), "\(closed)")
        let refused = try send(form, to: link + "/files/late.pdf?code=\(code)")
        #expect(refused.status == 410 && refused.body.contains("closed by its owner"), "\(refused)")
        let page = try await http("GET", link)
        #expect(page.status == 410 && page.body.contains("This link takes no more files"))
        let unknown = try share(["request", "close", "NOPE0000"], server: daemon.address)
        #expect(unknown.status != 0 && unknown.stderr == "share: no file request with id 'NOPE0000'\n", "\(unknown.stderr)")
        #expect(daemon.stop() == 0)
        #expect(!daemon.logText.contains(String(request.link?.dropFirst(3) ?? "")), "the link's token stays out of the log")
    }

    @Test func aSendBrokenOffResumesThroughTheRequestsLinkAndNoOtherUploadIsReachedThere() async throws {
        let folder = try temporaryFolder("request-tus")
        let daemon = try Daemon(folder: folder)
        let made = try await http("POST", daemon.address + "/requests", body: #"{"title": "Scans"}"#)
        let request = try WireJSON.decoder().decode(FileRequest.self, from: Data(made.body.utf8))
        let link = daemon.address + (request.link ?? "")
        let bytes = try randomBytes(200_000)
        let metadata = "filename " + Data("scan 1.pdf".utf8).base64EncodedString()
        let (created, _) = try await TusRequests.send(
            "POST", link + "/uploads", headers: ["Upload-Length": "\(bytes.count)", "Upload-Metadata": metadata])
        #expect(created.statusCode == 201)
        let upload = daemon.address + (created.value(forHTTPHeaderField: "Location") ?? "")
        #expect(upload.hasPrefix(link + "/uploads/"))
        _ = try await TusRequests.append(upload, at: 0, bytes.prefix(70_000))
        #expect(try await TusRequests.offset(upload) == 70_000)
        let (finished, body) = try await TusRequests.append(upload, at: 70_000, bytes.dropFirst(70_000))
        #expect(finished.statusCode == 200 && String(decoding: body, as: UTF8.self).contains(#""name":"scan 1.pdf""#))
        let records = try WireJSON.decoder().decode([ShareRecord].self, from: Data(try await http("GET", daemon.address + "/share").body.utf8))
        #expect(records.map(\.name) == ["scan 1.pdf"] && records[0].size == 200_000)

        let owners = try #require(try await TusRequests.create(daemon.address, length: 10, name: "mine.txt"))
        let id = String(owners.split(separator: "/").last ?? "")
        #expect(try await TusRequests.send("HEAD", link + "/uploads/" + id, headers: [:]).0.statusCode == 404, "the owner's own upload")
        #expect(try await http("GET", daemon.address + "/r/" + String(repeating: "x", count: 22)).status == 404)
    }

    @Test func guessesAtARequestsCodeAreHeldOffWithoutLockingOutItsSenders() async throws {
        let folder = try temporaryFolder("request-guesses")
        let daemon = try Daemon(folder: folder)
        let made = try await http("POST", daemon.address + "/requests", body: #"{"title": "Contracts", "code": "RIGHT7"}"#)
        let link = daemon.address + (try #require(made.body.firstMatch(of: /"link":"([^"]+)"/)?.1))
        let form = try file("contract.pdf", size: 100, in: folder)
        var answers: [Int] = []
        for guess in 0..<6 { answers.append(try send(form, to: link + "/files/a.pdf?code=WRONG\(guess)", from: "203.0.113.9").status) }
        #expect(answers == [403, 403, 403, 403, 403, 429], "five wrong codes a minute from one address: \(answers)")
        let sender = try send(form, to: link + "/files/contract.pdf?code=right7", from: "198.51.100.4")
        #expect(sender.status == 201, "the right code from another address still sends: \(sender)")
        #expect(try send(form, to: daemon.address + "/r/AAAAAAAAAAAAAAAAAAAAAA/files/a.pdf").status == 404)
    }

    @Test func aSenderIsToldTheOwnersStorageIsFullNeverWhatItHolds() async throws {
        let folder = try temporaryFolder("request-quota")
        let daemon = try Daemon(folder: folder, environment: ["SHARE_AUTH_QUOTA_BYTES": "1000"])
        let made = try await http("POST", daemon.address + "/requests", body: #"{"title": "Logos"}"#)
        let link = daemon.address + (try #require(made.body.firstMatch(of: /"link":"([^"]+)"/)?.1))
        #expect(try send(try file("logo.png", size: 600, in: folder), to: link + "/files/logo.png").status == 201)
        let refused = try send(try file("banner.png", size: 600, in: folder), to: link + "/files/banner.png")
        #expect(refused.status == 403 && refused.body.contains("does not fit") && !refused.body.contains("600"), "\(refused)")
    }
}
