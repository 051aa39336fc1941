import Hummingbird

/// `GET /openapi.yaml`: the repository's `openapi.yaml`, compiled into the binary.
struct DocumentController {
    static let openAPI = EmbeddedDocuments.files.first { $0.name == "openapi" }?.text ?? ""

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(string: Self.openAPI)))
        }
        routes.rejectMethods(on: "openapi.yaml", except: [.get])
        return routes
    }
}
