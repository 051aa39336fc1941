import Foundation
import Glibc
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

#if canImport(Glibc)
#endif

/// The files of `deploy/`, as an operator installs them: the systemd unit verified, and the real nginx and the
/// real Caddy started from the very site files (paths and addresses substituted) in front of the real `shared`,
/// at the root and under a sub-path, driven by the real `share`.
@Suite(.serialized) struct DeploymentTests {
    private static let deploy = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "deploy")

    /// A deploy file's text with each key replaced by its value.
    private func deployed(_ name: String, _ substitutions: [(String, String)]) throws -> String {
        var text = try String(contentsOf: Self.deploy.appending(path: name), encoding: .utf8)
        for (original, replacement) in substitutions { text = text.replacingOccurrences(of: original, with: replacement) }
        return text
    }

    @Test func theSystemdUnitVerifies() throws {
        let folder = try temporaryFolder()
        let unit = folder.appending(path: "shared.service")
        try deployed("shared.service", [("/usr/local/bin/shared", sharedBinary.path)]).write(to: unit, atomically: true, encoding: .utf8)
        let run = try ChildProcess.finished("/usr/bin/systemd-analyze", ["verify", unit.path])
        #expect(run.status == 0 && run.output.isEmpty, "\(run.output)")
    }

    @Test(arguments: [("nginx/share.conf", "/"), ("nginx/share-subpath.conf", "/files")])
    func nginxFromItsSiteFile(site: String, basePath: String) async throws {
        try await serve(basePath: basePath) { socket, port, folder in
            let server = try deployed(site, [("listen 80;", "listen 127.0.0.1:\(port);"), ("/run/share/shared.sock", socket)])
            return try Proxy.nginx(server: server, in: folder) { (try? RawConnection(port: port)) != nil }
        }
    }

    @Test(arguments: [("caddy/share.Caddyfile", "share.example.org", "/"), ("caddy/share-subpath.Caddyfile", "example.org", "/files")])
    func caddyFromItsCaddyfile(site: String, host: String, basePath: String) async throws {
        try await serve(basePath: basePath) { socket, port, folder in
            let caddyfile = try deployed(site, [("\(host) {", "http://127.0.0.1:\(port) {"), ("/run/share/shared.sock", socket)])
            return try Proxy.caddy(caddyfile: caddyfile, in: folder) { (try? RawConnection(port: port)) != nil }
        }
    }

    /// `shared` on a unix socket at `basePath`, behind the proxy `start` runs on a free port, driven through it.
    private func serve(basePath: String, behind start: (_ socket: String, _ port: Int, _ folder: URL) throws -> Proxy) async throws {
        let folder = try temporaryFolder()
        let socket = folder.appending(path: "shared.sock").path
        let daemon = try Daemon(
            folder: folder, arguments: ["--listen", "unix:\(socket)", "--db", folder.appending(path: "s.db").path],
            environment: ["SHARE_SERVER_BASE_PATH": basePath])
        let port = try freePort()
        let proxy = try start(socket, port, folder)
        try await drive(through: "http://127.0.0.1:\(port)", basePath: basePath == "/" ? "" : basePath, daemon: daemon)
        proxy.stop()
        #expect(daemon.stop() == 0)
    }

    /// What a user does through the proxy: import, list, page, search, export, delete; and what the daemon saw.
    private func drive(through origin: String, basePath: String, daemon: Daemon) async throws {
        let server = origin + basePath
        let records = (0..<3).map { #"{"name": "report-\#($0).pdf", "size": \#($0 + 1), "id": "DEPLOY\#($0)"}"# }.joined(separator: "\n")
        let imported = try share(["import", "-"], server: server, input: records)
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try share(["--json", "ls", "--all"], server: server)
        #expect(listed.status == 0, "\(listed.stderr)")
        let names = try WireJSON.decoder().decode([ShareRecord].self, from: Data(listed.stdout.utf8)).map(\.name)
        #expect(names == ["report-2.pdf", "report-1.pdf", "report-0.pdf"])
        // Pages link to each other through the proxy, base path included.
        var page: String? = "\(basePath)/share?limit=1"
        var paged: [String] = []
        while let next = page {
            let answer = try await http("GET", origin + next)
            paged += try WireJSON.decoder().decode([ShareRecord].self, from: Data(answer.body.utf8)).map(\.name)
            page = answer.headers["link"].map { String($0.dropFirst().prefix { $0 != ">" }) }
        }
        #expect(paged == names)
        #expect(try share(["find", "REPORT-1"], server: server).stdout.contains("DEPLOY1"))
        #expect(try share(["export"], server: server).stdout.split(separator: "\n").count == 3)
        #expect(try share(["rm", "DEPLOY0", "--yes"], server: server).status == 0)
        #expect(try share(["show", "DEPLOY0"], server: server).status == 5)
        #expect(daemon.logText.contains("client=127.0.0.1"), "the client's address comes from the proxy's X-Forwarded-For")
    }
}
