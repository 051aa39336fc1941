/// What a route's request body holds, told by its path: what it must be declared as, and how much of it may come.
enum RequestBodyKind: Equatable {
    /// One JSON object, up to `max_body_bytes`.
    case json
    /// The files a share of several holds (`POST /share/bundles`): JSON, up to `maxManifestBytes` or `max_body_bytes`.
    case manifest
    /// An import's records, streamed as a JSON array or NDJSON, of any length.
    case records
    /// A picture for a thumbnail, up to `max_picture_bytes`.
    case picture
    /// The bytes of a file, uploaded (tus), of any length its upload declared.
    case bytes
    /// The code a link's recipient types in its page's form (`POST /s/{token}`, `POST /r/{token}`): a line.
    case code
    /// A file as it is, of any type, sent through a file request (`PUT /r/{token}/files/{name}`: `curl -T`).
    case file

    /// The most bytes a `.code` form may hold: the code's field with room to spare.
    static let maxCodeFormBytes = 1024
    /// The most bytes a `.manifest` may hold: room for `BundleFiles.maxFiles` files with names of a good length, or
    /// `max_body_bytes` when that is more.
    static func maxManifestBytes(maxBodyBytes: Int) -> Int {
        max(maxBodyBytes, 16 << 20)
    }

    /// The kind of body the route at `path` (the full path, under `pathPrefix`) reads.
    init(path: String, pathPrefix: String) {
        let share = "\(pathPrefix)/share/"
        let (link, requestLink) = ("\(pathPrefix)/s/", "\(pathPrefix)/r/")
        let inRequest = path.hasPrefix(requestLink) ? path.dropFirst(requestLink.count).split(separator: "/") : []
        if path.hasPrefix(link), !path.dropFirst(link.count).contains("/") {
            self = .code
        } else if inRequest.count == 1 {
            self = .code
        } else if inRequest.count > 1 {
            self = inRequest[1] == "files" ? .file : .bytes
        } else if path == share + "bundles" {
            self = .manifest
        } else if path == share + "import" {
            self = .records
        } else if path == share + "uploads" || path.hasPrefix(share + "uploads/") {
            self = .bytes
        } else if path.hasPrefix(share), path.hasSuffix("/thumbnail"), path.dropFirst(share.count).split(separator: "/").count == 2 {
            self = .picture
        } else {
            self = .json
        }
    }

    /// The media types (`Content-Type`) the body may be declared as: none a page may send to another site without
    /// asking first (a CORS preflight), but the recipient's form on a link's own page, which a cross-site request
    /// never reaches (its `Origin` is refused). Empty: any, for a `PUT`, which no page sends elsewhere unasked.
    var mediaTypes: [String] {
        switch self {
        case .json, .manifest: return ["application/json"]
        case .records: return ["application/json", "application/x-ndjson"]
        case .bytes: return [TusProtocol.mediaType]
        case .code: return ["application/x-www-form-urlencoded"]
        case .file: return []
        case .picture:
            return ["image/jpeg", "image/png", "image/webp", "image/gif", "image/bmp", "image/heic", "image/heif", "application/octet-stream"]
        }
    }
}
