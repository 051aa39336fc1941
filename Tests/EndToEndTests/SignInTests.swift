import Foundation
import Glibc
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

#if canImport(Glibc)
#endif

/// The three ways a person signs in, each naming the user that `share whoami` shows and that the history's
/// events record: a token of `[auth.users]`, the header of a trusted reverse proxy (the real nginx and Caddy,
/// from the site files of `deploy/`), and the Unix user of a unix socket's peer.
@Suite(.serialized) struct SignInTests {
    private static let deploy = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "deploy")

    /// The user `/me` names, and how they signed in.
    /// What `/me` said, its feed's address (a key of its own each time) left out.
    private func me(_ result: HTTPResult) throws -> UserInfo {
        var info = try WireJSON.decoder().decode(UserInfo.self, from: Data(result.body.utf8))
        info.feedUrl = nil
        return info
    }

    @Test func eachTokenSignsInItsUserWhomTheEventsName() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_AUTH_USERS": "alice=alice-laptop,alice=alice-phone,bob=bob-only"])
        for (token, user) in [("alice-laptop", "alice"), ("alice-phone", "alice"), ("bob-only", "bob")] {
            let whoami = try share(["whoami"], server: daemon.address, environment: ["SHARE_TOKEN": token])
            #expect(whoami.status == 0 && whoami.stdout.hasPrefix("\(user) · signed in by token"), "\(whoami)")
        }
        let imported = try share(
            ["import", "-"], server: daemon.address, environment: ["SHARE_TOKEN": "alice-phone"],
            input: #"{"name": "a.pdf", "size": 1, "id": "BYALICE"}"#)
        #expect(imported.status == 0, "\(imported.stderr)")
        let renamed = try share(["rename", "BYALICE", "b.pdf"], server: daemon.address, environment: ["SHARE_TOKEN": "bob-only"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let log = try share(["--json", "log", "BYALICE"], server: daemon.address, environment: ["SHARE_TOKEN": "bob-only"])
        let events = try WireJSON.decoder().decode([ShareEvent].self, from: Data(log.stdout.utf8))
        #expect(events.map(\.by) == ["alice", "bob"], "never a token, always its user")
        let wrong = try share(["whoami"], server: daemon.address, environment: ["SHARE_TOKEN": "alice-tablet"])
        #expect(wrong.status == 4 && wrong.stderr.contains("401"), "\(wrong)")
        #expect(daemon.stop() == 0)
    }

    @Test func aProxysHeaderIsBelievedFromTrustedProxiesOnlyAndTheRestIsLogged() async throws {
        let trusted = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_AUTH_PROXY_USER_HEADER": "X-Forwarded-User"])
        let signedIn = try await http("GET", "\(trusted.address)/me", headers: ["X-Forwarded-User": "carol@example.org"])
        #expect(signedIn.status == 200)
        #expect(
            try me(signedIn)
                == UserInfo(
                    user: "carol@example.org", admin: false, histories: "shared", usedBytes: 0, filesBytes: 0, signedInWith: "proxy", trashDays: 30))
        let passedAlong = try await http(
            "GET", "\(trusted.address)/me", headers: ["X-Forwarded-User": "carol@example.org", "Authorization": "Basic Y2Fyb2w6cHc="])
        #expect(try me(passedAlong).user == "carol@example.org", "a proxy's own Basic sign-in passed along is not a token")
        #expect(try await http("GET", "\(trusted.address)/me").status == 401, "a trusted proxy that names nobody")
        #expect(try await http("GET", "\(trusted.address)/me", headers: ["X-Forwarded-User": "carol smith"]).status == 401)

        // Loopback is not among these proxies: the header is ignored, and said so once.
        let untrusted = try Daemon(
            folder: try temporaryFolder(),
            environment: ["SHARE_AUTH_PROXY_USER_HEADER": "X-Forwarded-User", "SHARE_SERVER_TRUSTED_PROXIES": "10.0.0.0/8"])
        for _ in 0..<3 {
            #expect(try await http("GET", "\(untrusted.address)/me", headers: ["X-Forwarded-User": "carol"]).status == 401)
        }
        let warnings = untrusted.logText.components(separatedBy: "ignored a sign-in header from a peer that is not a trusted proxy")
        #expect(warnings.count == 2, "one line for the three: \(untrusted.logText)")
        #expect(trusted.stop() == 0 && untrusted.stop() == 0)
    }

    @Test func anyHeaderATrustedProxySendsNamesThatUserOrNobodyNeverAnError() async throws {
        let daemon = try Daemon(folder: try temporaryFolder(), environment: ["SHARE_AUTH_PROXY_USER_HEADER": "X-Forwarded-User"])
        let port = Int(daemon.address.split(separator: ":").last ?? "") ?? 0
        var generator = SplitMix(seed: 19)
        for _ in 0..<300 {
            // One header line: breaking the line is the HTTP parser's matter, tested on its own.
            let value = String(String.UnicodeScalarView(generator.hostileText(maxPieces: 6).unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
            let connection = try RawConnection(port: port)
            connection.send("GET /me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-User: \(value)\r\nConnection: close\r\n\r\n")
            let answer = connection.read()
            let status = answer.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            #expect(["200", "400", "401"].contains(status), "\(value.debugDescription): \(answer.prefix(200))")
            if status == "200" {
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                #expect(answer.contains(#""user":"\#(trimmed)""#) && Credential.isUserName(trimmed), "\(value.debugDescription): \(answer)")
            }
        }
        #expect(try await http("GET", "\(daemon.address)/healthz").status == 200, "still serving")
        #expect(daemon.stop() == 0)
    }

    @Test func nginxSignsPeopleInWithAuthBasicFromItsSiteFile() async throws {
        try await behindProxy { socket, port, folder in
            let passwords = folder.appending(path: "share.htpasswd")
            try "alice:{PLAIN}alice-password\nbob:{PLAIN}bob-password\n".write(to: passwords, atomically: true, encoding: .utf8)
            let server = try deployed(
                "nginx/share-auth-basic.conf",
                [("listen 80;", "listen 127.0.0.1:\(port);"), ("/run/share/shared.sock", socket), ("/etc/nginx/share.htpasswd", passwords.path)])
            return try Proxy.nginx(server: server, in: folder) { (try? RawConnection(port: port)) != nil }
        }
    }

    @Test func caddySignsPeopleInWithBasicAuthFromItsCaddyfile() async throws {
        func hash(_ password: String) throws -> String {
            try ChildProcess.finished("/usr/bin/caddy", ["hash-password", "--plaintext", password]).output.trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        let people = "alice \(try hash("alice-password"))\n\t\tbob \(try hash("bob-password"))"
        try await behindProxy { socket, port, folder in
            let caddyfile = try deployed(
                "caddy/share-basic-auth.Caddyfile",
                [
                    ("share.example.org {", "http://127.0.0.1:\(port) {"), ("/run/share/shared.sock", socket),
                    ("alice $2a$14$REPLACE.WITH.THE.OUTPUT.OF.caddy.hash-password", people),
                ])
            return try Proxy.caddy(caddyfile: caddyfile, in: folder) { (try? RawConnection(port: port)) != nil }
        }
    }

    /// `shared` on a unix socket that believes the proxy's `X-Forwarded-User`, with per-user histories, behind the
    /// proxy `start` runs: only the right password gets in, the user is alice's whatever a client claims, her changes
    /// are hers, and bob, signed in the same way, sees none of them.
    private func behindProxy(_ start: (_ socket: String, _ port: Int, _ folder: URL) throws -> Proxy) async throws {
        let folder = try temporaryFolder()
        let socket = folder.appending(path: "shared.sock").path
        let daemon = try Daemon(
            folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "s.db").path],
            environment: ["SHARE_AUTH_PROXY_USER_HEADER": "X-Forwarded-User", "SHARE_AUTH_HISTORIES": "per-user"])
        let port = try freePort()
        let proxy = try start(socket, port, folder)
        let origin = "http://127.0.0.1:\(port)"
        let alice = "Basic " + Data("alice:alice-password".utf8).base64EncodedString()
        #expect(try curl("\(origin)/me").status == 401, "the proxy asks for a password")
        #expect(try curl("\(origin)/me", headers: ["Authorization: Basic " + Data("alice:guess".utf8).base64EncodedString()]).status == 401)
        let signedIn = try curl("\(origin)/me", headers: ["Authorization: \(alice)", "X-Forwarded-User: mallory"])
        #expect(signedIn.status == 200, "\(signedIn.body)")
        #expect(try WireJSON.decoder().decode(UserInfo.self, from: Data(signedIn.body.utf8)).user == "alice", "\(signedIn.body)")
        let created = try curl(
            "\(origin)/share", headers: ["Authorization: \(alice)", "Content-Type: application/json"],
            body: #"{"name": "proxied.pdf", "size": 3, "id": "PROXIED"}"#)
        #expect(created.status == 201, "\(created.body)")
        let events = try curl("\(origin)/share/PROXIED/events", headers: ["Authorization: \(alice)"])
        #expect(try WireJSON.decoder().decode([ShareEvent].self, from: Data(events.body.utf8)).map(\.by) == ["alice"])
        let bob = "Basic " + Data("bob:bob-password".utf8).base64EncodedString()
        let bobsList = try curl("\(origin)/share", headers: ["Authorization: \(bob)"])
        #expect(bobsList.status == 200 && bobsList.body == "[]", "\(bobsList)")
        #expect(try curl("\(origin)/share/PROXIED", headers: ["Authorization: \(bob)"]).status == 404)
        proxy.stop()
        #expect(daemon.stop() == 0)
    }

    @Test(.enabled(if: getuid() == 0, "creating Unix users needs root"))
    func aUnixSocketsPeerIsItsUnixUserWithoutAToken() throws {
        let users = ["share-peer-ann", "share-peer-ben"]
        for user in users where getpwnam(user) == nil {
            let made = try ChildProcess.finished("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
            #expect(made.status == 0, "\(made.output)")
        }
        let folder = try temporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let socket = folder.appending(path: "shared.sock").path
        let daemon = try Daemon(
            folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "s.db").path],
            environment: ["SHARE_AUTH_UNIX_PEER": "true", "SHARE_SERVER_SOCKET_MODE": "0666"])
        /// `share ARGUMENTS` run as the Unix user `user`, with nothing of root's environment.
        func shareAs(_ user: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
            try ChildProcess.finished(
                "/usr/sbin/runuser",
                ["-u", user, "--", "/usr/bin/env", "-i", "HOME=/nonexistent", shareBinary.path, "--server", "unix:\(socket)"] + arguments)
        }
        for user in users {
            let whoami = try shareAs(user, ["whoami"])
            #expect(whoami.status == 0 && whoami.output.hasPrefix("\(user) · signed in by unix-peer"), "\(whoami.output)")
        }
        let file = folder.appending(path: "notes.txt")
        try "notes".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let added = try shareAs(users[0], ["add", file.path])
        let id = String(added.output.split(separator: " ").first ?? "")
        #expect(added.status == 0 && !id.isEmpty, "\(added.output)")
        #expect(try shareAs(users[1], ["rename", id, "minutes.txt"]).status == 0)
        let log = try shareAs(users[1], ["--json", "log", id])
        let events = try WireJSON.decoder().decode([ShareEvent].self, from: Data(log.output.utf8))
        #expect(events.map(\.by) == users, "each change is put down to the Unix user who made it")
        #expect(daemon.stop() == 0)

        // With per-user histories, the same two Unix users each have their own.
        let perUser = try Daemon(
            folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "own.db").path],
            environment: ["SHARE_AUTH_UNIX_PEER": "true", "SHARE_SERVER_SOCKET_MODE": "0666", "SHARE_AUTH_HISTORIES": "per-user"])
        let own = try shareAs(users[0], ["add", file.path])
        let ownID = String(own.output.split(separator: " ").first ?? "")
        #expect(own.status == 0 && !ownID.isEmpty, "\(own.output)")
        #expect(try shareAs(users[0], ["--json", "ls"]).output.contains(ownID))
        #expect(try shareAs(users[1], ["--json", "ls"]).output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        #expect(try shareAs(users[1], ["show", ownID]).status == 5, "another Unix user's share is not there")
        // The socket's peers are local users, not a proxy: none of them forges a request id or a client address.
        let forged = try EndToEndTests.curl(socket: socket, "GET", "/share", headers: ["X-Request-Id: forged-id-1", "X-Forwarded-For: 203.0.113.9"])
        #expect(forged.status == 200 && forged.headers["x-request-id"] != "forged-id-1", "\(forged.headers)")
        #expect(perUser.stop() == 0)
        #expect(!perUser.logText.contains("forged-id-1") && !perUser.logText.contains("203.0.113.9"))
    }

    /// A request made with curl, which (unlike URLSession) answers a proxy's password challenge by failing,
    /// not by waiting for credentials: its status and body.
    private func curl(_ url: String, headers: [String] = [], body: String? = nil) throws -> (status: Int, body: String) {
        var arguments = ["--silent", "--max-time", "20", "--write-out", "\n%{http_code}", url]
        for header in headers { arguments += ["--header", header] }
        if let body { arguments += ["--data-binary", body] }
        let run = try ChildProcess.finished("/usr/bin/curl", arguments)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// A deploy file's text with each key replaced by its value.
    private func deployed(_ name: String, _ substitutions: [(String, String)]) throws -> String {
        var text = try String(contentsOf: Self.deploy.appending(path: name), encoding: .utf8)
        for (original, replacement) in substitutions {
            #expect(text.contains(original), "\(name) holds \(original)")
            text = text.replacingOccurrences(of: original, with: replacement)
        }
        return text
    }
}
