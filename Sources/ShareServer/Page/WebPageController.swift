import HTTPTypes
import Hummingbird
import ShareKit

/// `GET /` and its assets: the web page of the history, from `web/` compiled into the binary. The page's files
/// need no token (the page itself asks for one); its URLs are relative to a `<base>` set to the base path, so it
/// works the same at the root and behind a proxy's sub-path.
struct WebPageController {
    /// What the page may load and run: its own files only, no inline script, in no frame.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        .cacheControl: "no-cache",
    ]

    /// The page's files by the path they are served at (relative to the base path; "" is the page itself).
    let files: [String: (contentType: String, body: ByteBuffer, etag: String)]

    init(pathPrefix: String) {
        var files: [String: (String, ByteBuffer, String)] = [:]
        for file in EmbeddedWebPage.files {
            var text = file.text
            let path: String
            if file.file == "index.html" {
                path = ""
                text = text.replacingOccurrences(of: "<base href=\"/\">", with: "<base href=\"\(HTMLText.escaped(pathPrefix))/\">")
            } else {
                path = file.file
            }
            files[path] = (Self.contentType(of: file.file), ByteBuffer(string: text), "\"\(ContentHash.of(text.utf8))\"")
        }
        self.files = files
    }

    /// The paths that need no token, relative to the base path.
    var openPaths: [String] { Array(files.keys) }

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        for (path, file) in files {
            routes.get(RouterPath(path)) { request, _ in
                var headers = Self.securityHeaders
                headers[.eTag] = file.etag
                if request.headers[.ifNoneMatch] == file.etag { return Response(status: .notModified, headers: headers) }
                headers[.contentType] = file.contentType
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: file.body))
            }
            routes.rejectMethods(on: RouterPath(path), except: [.get])
        }
        return routes
    }

    private static func contentType(of file: String) -> String {
        if file.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if file.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return "text/javascript; charset=utf-8"
    }
}
