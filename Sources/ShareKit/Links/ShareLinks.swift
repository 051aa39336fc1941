/// Where a share's link points: `{base}/s/{token}` on this service by default, or `[server] share_url`'s pattern,
/// `{token}` standing for the link's token and `{id}` for the share id (for links served by another service).
public struct ShareLinks: Hashable, Sendable {
    enum Piece: Hashable, Sendable {
        case text([UInt8])
        case token
        case id
    }

    let pieces: [Piece]
    /// Whether every record has a link (another service's, named by ids) rather than only those this one opens.
    public let namesEveryRecord: Bool

    /// Links to this service's `/s/{token}` under `pathPrefix` (`ServerSettings.pathPrefix`: "" at the root).
    public init(pathPrefix: String) {
        self.init(pattern: "", pathPrefix: pathPrefix)
    }

    /// Links made with `pattern` (`share_url`), or this service's under `pathPrefix` when it is empty.
    public init(pattern: String, pathPrefix: String) {
        self.init(pattern: pattern.isEmpty ? "\(pathPrefix)/s/{token}" : pattern)
    }

    private init(pattern: String) {
        var pieces: [Piece] = []
        var rest = Substring(pattern)
        let placeholders: [(text: String, piece: Piece)] = [("{token}", .token), ("{id}", .id)]
        while let next = placeholders.compactMap({ p in rest.firstRange(of: p.text).map { (range: $0, piece: p.piece) } })
            .min(by: { $0.range.lowerBound < $1.range.lowerBound })
        {
            pieces += [.text(Array(rest[..<next.range.lowerBound].utf8)), next.piece]
            rest = rest[next.range.upperBound...]
        }
        pieces.append(.text(Array(rest.utf8)))
        self.pieces = pieces
        namesEveryRecord = !pieces.contains(.token)
    }

    /// The link of the share with this id and token; nil when the pattern needs a token it has none of.
    public func link(id: String, token: String?) -> String? {
        var bytes: [UInt8] = []
        guard append(id: id.utf8, token: token?.utf8, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the link's text; false, and nothing appended, when the pattern needs a token and there is none.
    @discardableResult
    public func append<Text: Collection<UInt8>>(id: Text, token: Text?, to bytes: inout [UInt8]) -> Bool {
        if token == nil && !namesEveryRecord { return false }
        for piece in pieces {
            switch piece {
            case .text(let text): bytes.append(contentsOf: text)
            case .token: bytes.append(contentsOf: token!)
            case .id: bytes.append(contentsOf: id)
            }
        }
        return true
    }
}
