import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// A real nginx in front of `shared`, as a team would deploy it: at a sub-path, over a unix socket.
@Suite(.serialized) struct ReverseProxyTests {
    /// nginx listening on its own unix socket and forwarding `/files/` to `upstream` unchanged.
    private func nginx(in folder: URL, upstream: String) throws -> (proxy: Proxy, socket: String) {
        let socket = folder.appending(path: "nginx.sock").path
        let server = """
            server {
                listen unix:\(socket);
                location /files/ {
                    proxy_pass http://unix:\(upstream);
                    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                }
            }
            """
        return (try Proxy.nginx(server: server, in: folder) { FileManager.default.fileExists(atPath: socket) }, socket)
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
        let (proxy, socket) = try nginx(in: folder, upstream: daemon.address)

        let created = try curl(socket: socket, "POST", "/files/share", body: #"{"name": "report.pdf", "size": 5}"#)
        #expect(created.status == 201)
        let location = try #require(created.headers["location"])
        #expect(location.hasPrefix("/files/share/"))
        #expect(try curl(socket: socket, "GET", location).status == 200)

        try curl(socket: socket, "POST", "/files/share", body: #"{"name": "slides.pptx", "size": 7}"#)
        let firstPage = try curl(socket: socket, "GET", "/files/share?limit=1&type=pdf,ppt")
        let link = try #require(firstPage.headers["link"])
        #expect(link.hasPrefix("</files/share?") && link.contains("type=pdf%2Cppt"))
        let next = String(link.dropFirst().prefix { $0 != ">" })
        let secondPage = try curl(socket: socket, "GET", next)
        let names = try [firstPage, secondPage].flatMap { page in
            try WireJSON.decoder().decode([ShareRecord].self, from: Data(page.body.utf8)).map(\.name)
        }
        #expect(names == ["slides.pptx", "report.pdf"])
        #expect(secondPage.headers["link"] == nil)

        #expect(try curl(socket: socket, "GET", "/files/healthz").body == #"{"status":"ok"}"#)
        #expect(try curl(socket: socket, "GET", "/files/nope").headers["content-type"] == ProblemDetails.mediaType)
        proxy.stop()
        #expect(daemon.stop() == 0)
    }
}
