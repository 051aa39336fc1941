import Hummingbird
import ShareHistory
import ShareKit

/// `GET /feed/{key}.atom`: the latest 100 events of the history whose feed has that key, as an Atom 1.0 feed (RFC
/// 4287) for a feed reader, which signs in with nothing but the key. An unknown key is a 404 like any other path.
struct FeedController {
    let store: any ShareStore
    let pathPrefix: String
    static let entries = 100

    var endpoints: RouteCollection<ShareRequestContext> {
        let routes = RouteCollection(context: ShareRequestContext.self)
        routes.get("feed/:file", use: feed)
        routes.rejectMethods(on: "feed/:file", except: [.get])
        return routes
    }

    @Sendable func feed(_ request: Request, context: ShareRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        let key = String(file.dropLast(".atom".count))
        guard file.hasSuffix(".atom"), LinkToken.isPlausible(key), let owner = try await store.feedOwner(key: key) else {
            throw Problem(.notFound, "no feed at this address: its key may have been replaced (POST /me/feed-key)")
        }
        let events = try await store.history(of: owner, quota: nil).latestEvents(limit: Self.entries)
        let xml = Self.atom(events, owner: owner, path: "\(pathPrefix)/feed/\(file)")
        return Response(
            status: .ok, headers: [.contentType: "application/atom+xml; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: .init(string: xml)))
    }

    /// The feed: its entries newest first, each with an id that stays the same for as long as the event is kept.
    static func atom(_ events: [HistoryEvent], owner: String, path: String) -> String {
        let title = owner.isEmpty ? "Shared history" : "\(owner)'s shares"
        let updated = (events.first?.at ?? Timestamp(millisecondsSinceEpoch: 0)).description
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom">
            <id>urn:share:history:\(HTMLText.escaped(owner.isEmpty ? "shared" : "user:" + owner))</id>
            <title>\(HTMLText.escaped(title))</title>
            <updated>\(updated)</updated>
            <link rel="self" href="\(HTMLText.escaped(path))"/>
            <author><name>share</name></author>

            """
        for event in events {
            let message = event.message
            let sentence = EventSentence.of(message)
            xml += """
                <entry>
                <id>urn:share:event:\(event.id)</id>
                <title>\(HTMLText.escaped(sentence))</title>
                <updated>\(event.at)</updated>
                <category term="\(event.type)"/>
                <content type="text">\(HTMLText.escaped("\(sentence) by \(event.by) · \(event.share.folder) · share id \(event.share.id)"))</content>
                </entry>

                """
        }
        return xml + "</feed>\n"
    }
}
