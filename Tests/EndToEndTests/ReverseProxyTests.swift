import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// A real nginx in front of `shared`, as a team would deploy it: at a sub-path, over a unix socket.
@Suite(.serialized) struct ReverseProxyTests {
    /// nginx listening on its own unix socket and forwarding `/files/` to `upstream` unchanged.
    final class Nginx: @unchecked Sendable {
        let process = Process()
        let socket: String

        init(folder: URL, upstream: String) throws {
            socket = folder.appending(path: "nginx.sock").path
            let prefix = folder.appending(path: "nginx")
            try FileManager.default.createDirectory(at: prefix.appending(path: "logs"), withIntermediateDirectories: true)
            let config = """
                daemon off;
                \(getuid() == 0 ? "user root;" : "")
                pid \(prefix.path)/nginx.pid;
                error_log \(prefix.path)/logs/error.log;
                events {}
                http {
                    access_log off;
                    client_body_temp_path \(prefix.path)/body;
                    proxy_temp_path \(prefix.path)/proxy;
                    fastcgi_temp_path \(prefix.path)/fastcgi;
                    uwsgi_temp_path \(prefix.path)/uwsgi;
                    scgi_temp_path \(prefix.path)/scgi;
                    server {
                        listen unix:\(socket);
                        location /files/ {
                            proxy_pass http://unix:\(upstream);
                            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                        }
                    }
                }
                """
            let file = prefix.appending(path: "nginx.conf")
            try config.write(to: file, atomically: true, encoding: .utf8)
            process.executableURL = URL(filePath: "/usr/sbin/nginx")
            process.arguments = ["-p", prefix.path, "-c", file.path]
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: socket) {
                guard process.isRunning, Date() < deadline else { throw DaemonError(description: "nginx did not start") }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        deinit {
            stop()
        }
    }

    @Test func theAPIWorksThroughNginxAtASubPath() throws {
        let folder = try temporaryFolder()
        let upstream = folder.appending(path: "shared.sock").path
        try """
        [server]
        listen = "unix:\(upstream)"
        base_path = "/files"
        """.write(to: folder.appending(path: "share.toml"), atomically: true, encoding: .utf8)
        let daemon = try Daemon(folder: folder, arguments: ["--db", folder.appending(path: "share.db").path])
        let nginx = try Nginx(folder: folder, upstream: daemon.address)

        let created = try curl(socket: nginx.socket, "POST", "/files/share", body: #"{"name": "report.pdf", "size": 5}"#)
        #expect(created.status == 201)
        let location = try #require(created.headers["location"])
        #expect(location.hasPrefix("/files/share/"))
        #expect(try curl(socket: nginx.socket, "GET", location).status == 200)

        try curl(socket: nginx.socket, "POST", "/files/share", body: #"{"name": "slides.pptx", "size": 7}"#)
        let firstPage = try curl(socket: nginx.socket, "GET", "/files/share?limit=1&type=pdf,ppt")
        let link = try #require(firstPage.headers["link"])
        #expect(link.hasPrefix("</files/share?") && link.contains("type=pdf%2Cppt"))
        let next = String(link.dropFirst().prefix { $0 != ">" })
        let secondPage = try curl(socket: nginx.socket, "GET", next)
        let names = try [firstPage, secondPage].flatMap { page in
            try WireJSON.decoder().decode([ShareRecord].self, from: Data(page.body.utf8)).map(\.name)
        }
        #expect(names == ["slides.pptx", "report.pdf"])
        #expect(secondPage.headers["link"] == nil)

        #expect(try curl(socket: nginx.socket, "GET", "/files/healthz").body == #"{"status":"ok"}"#)
        #expect(try curl(socket: nginx.socket, "GET", "/files/nope").headers["content-type"] == ProblemDetails.mediaType)
        nginx.stop()
        #expect(daemon.stop() == 0)
    }
}
