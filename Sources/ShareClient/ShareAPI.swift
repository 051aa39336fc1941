import Foundation
import ShareKit

/// The `shared` HTTP API as typed calls. Each call returns the raw body too, so `--json` prints exactly it.
public final class ShareAPI {
    let transport: any HTTPTransport
    public let server: ServerAddress
    let token: String?
    /// The most pages a walk through a listing follows (`[client] max_pages`).
    private let maxPages: Int
    /// The most bytes a second an upload or a download may move (`--limit-rate`); nil: as fast as they can.
    public var rateLimit: Int64?
    /// Another user's history to act on (an admin's `--user`, sent as `user`); nil: the caller's own.
    public let user: String?

    public init(
        transport: any HTTPTransport, server: ServerAddress, token: String?, maxPages: Int = ClientSettings().maxPages, user: String? = nil
    ) {
        self.transport = transport
        self.server = server
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.maxPages = maxPages
        self.user = user
    }

    /// One page of a listing and, when more records follow, the URL of the next page.
    public struct Page: Sendable {
        public let records: [ShareRecord]
        public let body: Data
        public let next: String?
    }

    /// A record and the body it came in.
    public struct Answer: Sendable {
        public let record: ShareRecord
        public let body: Data
    }

    /// The first page of a listing.
    public func list(_ query: ListingQuery) throws(ClientError) -> Page {
        let response = try send("GET", historyURL("/share", query.parameters), id: nil)
        return Page(records: try decode([ShareRecord].self, response.body), body: response.body, next: try nextLink(response))
    }

    /// Totals of the records `query` selects, per `period` (the server's choice when nil); its sort and paging
    /// fields change nothing.
    public func stats(_ query: ListingQuery, by period: StatsPeriod? = nil) throws(ClientError) -> (stats: ShareStats, body: Data) {
        let response = try send("GET", historyURL("/share/stats", query.parameters + (period.map { [("by", $0.rawValue)] } ?? [])), id: nil)
        return (try decode(ShareStats.self, response.body), response.body)
    }

    /// The subfolders of `parent`, each with the count and bytes of everything below it (`GET /share/folders`).
    public func folders(in parent: String) throws(ClientError) -> (folders: [FolderUsage], body: Data) {
        let response = try send("GET", historyURL("/share/folders", [("parent", parent)]), id: nil)
        return (try decode([FolderUsage].self, response.body), response.body)
    }

    /// Who the server takes this client to be (`GET /me`).
    public func whoami() throws(ClientError) -> (user: UserInfo, body: Data) {
        let response = try send("GET", server.url("/me"), id: nil)
        return (try decode(UserInfo.self, response.body), response.body)
    }

    /// Every user whose history holds live records, with their count and bytes (`GET /users`, admins only).
    public func users() throws(ClientError) -> (users: [UserUsage], body: Data) {
        let response = try send("GET", server.url("/users"), id: nil)
        return (try decode([UserUsage].self, response.body), response.body)
    }

    /// Streams a JSON array or NDJSON file to the server and returns its report.
    public func importShares(from upload: UploadSource) throws(ClientError) -> (report: ImportReport, body: Data) {
        let response = try send("POST", historyURL("/share/import"), id: nil, upload: upload)
        return (try decode(ImportReport.self, response.body), response.body)
    }

    /// Streams every live record (and, `includingTrash`, every trashed one), as NDJSON, into `sink` as it arrives;
    /// with `everyone`, every user's, each with its owner.
    public func exportShares(includingTrash: Bool = false, everyone: Bool = false, to sink: @escaping ([UInt8]) -> Void) throws(ClientError) {
        let parameters = (includingTrash ? [("trashed", "include")] : []) + (everyone ? [("everyone", "true")] : [])
        _ = try send("GET", historyURL("/share/export", parameters), id: nil, sink: sink)
    }

    /// Every page of a listing from `query`'s first, each handed to `handle` as it arrives: memory holds one
    /// page, however many follow.
    public func walk(_ query: ListingQuery, _ handle: (Page) -> Void) throws(ClientError) {
        try follow(historyURL("/share", query.parameters), path: "/share", id: nil) { (records: [ShareRecord], body, next) in
            handle(Page(records: records, body: body, next: next))
        }
    }

    /// A record's whole history, oldest first, a page at a time as it arrives, with the body the server sent.
    public func events(id: String, _ handle: (_ events: [ShareEvent], _ body: Data) -> Void) throws(ClientError) {
        let path = "/share/\(try recordPath(id))/events"
        try follow(historyURL(path, [("limit", "1000")]), path: path, id: id) { (events: [ShareEvent], body, _) in handle(events, body) }
    }

    /// A share's access log, newest first, a page at a time as it arrives, with the body the server sent.
    public func downloads(id: String, _ handle: (_ downloads: [ShareDownload], _ body: Data) -> Void) throws(ClientError) {
        let path = "/share/\(try recordPath(id))/downloads"
        try follow(historyURL(path, [("limit", "1000")]), path: path, id: id) { (downloads: [ShareDownload], body, _) in handle(downloads, body) }
    }

    /// Fetches `first` and each page its `Link` headers lead to. A server that announces a page it already gave,
    /// or more than `maxPages`, would be followed for ever: it is stopped with an error. Only a hash of each page
    /// address is kept, so memory stays flat.
    func follow<Element: Decodable>(
        _ first: String, path: String, id: String?, _ handle: ([Element], Data, String?) -> Void
    ) throws(ClientError) {
        var url: String? = first
        var followed: Set<Int> = []
        while let next = url {
            guard followed.count < maxPages else {
                throw .unexpected("stopped after \(maxPages) pages (max_pages): the server at \(server.display) kept announcing more")
            }
            guard followed.insert(next.hashValue).inserted else {
                throw .unexpected("the server announced the next page '\(next.prefix(200))' a second time; stopping")
            }
            let response = try send("GET", next, id: id)
            url = try nextLink(response, of: path)
            handle(try decode([Element].self, response.body), response.body, url)
        }
    }

    public func share(id: String) throws(ClientError) -> Answer {
        try answer(send("GET", try recordURL(id), id: id))
    }

    public func create(name: String, size: Int64, folder: String?, link: NewLinkFields = NewLinkFields()) throws(ClientError) -> Answer {
        var fields = Self.fields(of: link, folder: folder)
        fields["name"] = .text(name)
        fields["size"] = .integer(size)
        return try answer(send("POST", historyURL("/share"), id: nil, body: fields))
    }

    /// A new share's fields in a body: its folder and what `link` gives of its link.
    static func fields(of link: NewLinkFields, folder: String?) -> [String: JSONField] {
        var fields: [String: JSONField] = [:]
        if let folder { fields["folder"] = .text(folder) }
        if let source = link.source { fields["source"] = .text(source) }
        if let expiresAt = link.expiresAt { fields["expiresAt"] = .text(expiresAt.description) }
        if let maxDownloads = link.maxDownloads { fields["maxDownloads"] = .integer(maxDownloads) }
        if let sender = link.sender { fields["sender"] = .text(sender) }
        if let message = link.message { fields["message"] = .text(message) }
        switch link.code {
        case .none: break
        case .drawn: fields["code"] = .bool(true)
        case .chosen(let code): fields["code"] = .text(code)
        }
        return fields
    }

    public func update(id: String, name: String? = nil, folder: String? = nil) throws(ClientError) -> Answer {
        var fields: [String: JSONField] = [:]
        if let name { fields["name"] = .text(name) }
        if let folder { fields["folder"] = .text(folder) }
        return try answer(send("PATCH", try recordURL(id), id: id, body: fields))
    }

    /// Sets when the share's link stops opening (nil: never).
    public func expire(id: String, at time: Timestamp?) throws(ClientError) -> Answer {
        try answer(send("PATCH", try recordURL(id), id: id, body: ["expiresAt": time.map { .text($0.description) } ?? .null]))
    }

    /// Sets (or with nil, clears) what the link's page says: who sent the share, and the message with it; a field
    /// left out (`.none`) stays as it is.
    public func greet(id: String, sender: String??, message: String??) throws(ClientError) -> Answer {
        var fields: [String: JSONField] = [:]
        if let sender { fields["sender"] = sender.map(JSONField.text) ?? .null }
        if let message { fields["message"] = message.map(JSONField.text) ?? .null }
        return try answer(send("PATCH", try recordURL(id), id: id, body: fields))
    }

    /// Cuts the share's link off; `PATCH` with `revoked: false` opens it again at the same address.
    public func revoke(id: String) throws(ClientError) -> Answer {
        try answer(send("PATCH", try recordURL(id), id: id, body: ["revoked": .bool(true)]))
    }

    /// Moves a record to the trash, or with `purge` deletes it for good.
    public func delete(id: String, purge: Bool) throws(ClientError) {
        _ = try send("DELETE", try recordURL(id, purge ? [("purge", "true")] : []), id: id)
    }

    /// Sends a picture (of media type `type`) for the server to make the record's thumbnail from, streamed from its
    /// file; the record as it now is.
    public func putThumbnail(id: String, picture: UploadSource, type: String) throws(ClientError) -> Answer {
        try answer(send("PUT", try recordURL(id, action: "/thumbnail"), id: id, upload: picture, uploadType: type))
    }

    /// Moves (to `folder`), trashes, restores or purges the records of `ids`, or every record the listing `filter`
    /// matches (all its pages; a restore's in the trash), in one request: all of them, or none (a missing id is
    /// `.notFound` naming it). Returns how many, and the body the server sent.
    public func batch(
        _ action: String, ids: [String] = [], matching filter: ListingQuery? = nil, folder: String? = nil
    ) throws(ClientError) -> (count: Int, body: Data) {
        var fields: [String: JSONField] = ["action": .text(action)]
        if let filter { fields["filter"] = .text(filter.formEncoded) } else { fields["ids"] = .texts(ids) }
        if let folder { fields["folder"] = .text(folder) }
        let response = try send("POST", historyURL("/share/batch"), id: nil, body: fields)
        return (try decode(BatchReport.self, response.body).count, response.body)
    }

    public func restore(id: String) throws(ClientError) -> Answer {
        try answer(send("POST", try recordURL(id, action: "/restore"), id: id))
    }

    // MARK: - Exchange

    /// The URL of a record; an id no record could have is not found without asking (`export` is no record).
    func recordURL(
        _ id: String, action: String = "", _ parameters: [(name: String, value: String)] = []
    ) throws(ClientError) -> String {
        historyURL("/share/\(try recordPath(id))\(action)", parameters)
    }

    /// The URL of an endpoint of the history: the caller's own, or the user's that `user` names.
    func historyURL(_ path: String, _ parameters: [(name: String, value: String)] = []) -> String {
        server.url(path, parameters + (user.map { [("user", $0)] } ?? []))
    }

    /// The id as a path segment; an id no record could have is not found without asking.
    private func recordPath(_ id: String) throws(ClientError) -> String {
        guard ShareID.isPlausible(id) else { throw .notFound(id: id) }
        return id
    }

    func send(
        _ method: String, _ url: String, id: String?, body: [String: JSONField]? = nil, upload: UploadSource? = nil,
        uploadType: String = "application/json", sink: (([UInt8]) -> Void)? = nil, headers extra: [String: String] = [:]
    ) throws(ClientError) -> HTTPResponse {
        var headers = self.headers(["Accept": "application/json"].merging(extra) { $1 })
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try? WireJSON.encoder().encode(body)
        }
        if upload != nil { headers["Content-Type"] = uploadType }
        let response = try exchange(HTTPRequest(method: method, url: url, headers: headers, body: data, upload: upload), sink: sink)
        switch response.status {
        case 200..<300:
            return response
        case 300..<400:
            let target = response.headers["location"] ?? "another address"
            throw .unexpected("the server redirected to \(target); use that address as --server")
        case 403 where !problemDetail(response).isEmpty:
            throw .forbidden(detail: problemDetail(response))
        case 401, 403:
            throw .unauthorized(status: response.status)
        case 404 where id != nil:
            throw .notFound(id: id!)
        case 409:
            throw .conflict(detail: problemDetail(response))
        case 400..<500:
            throw .rejected(detail: problemDetail(response))
        default:
            throw .serverFailed(status: response.status, detail: problemDetail(response))
        }
    }

    /// Sends `request` as it is, naming this server in the error when nothing came back.
    func exchange(_ request: HTTPRequest, sink: (([UInt8]) -> Void)? = nil) throws(ClientError) -> HTTPResponse {
        var request = request
        if request.upload != nil || sink != nil { request.rateLimit = rateLimit }
        do {
            return try transport.send(request, sink: sink)
        } catch {
            switch error {
            case .unreachable(let reason): throw .unreachable(server: server.display, reason: reason)
            case .noAnswer(let reason): throw .noAnswer(server: server.display, reason: reason)
            case .tooLarge(let limit):
                throw .unexpected("the server at \(server.display) answered with more than \(limit) bytes (max_response_bytes); not read")
            case .failed(let reason): throw .interrupted(server: server.display, reason: reason)
            }
        }
    }

    func answer(_ response: HTTPResponse) throws(ClientError) -> Answer {
        Answer(record: try decode(ShareRecord.self, response.body), body: response.body)
    }

    func decode<T: Decodable>(_ type: T.Type, _ body: Data) throws(ClientError) -> T {
        do {
            return try WireJSON.decoder().decode(T.self, from: body)
        } catch {
            throw .unexpected("the server at \(server.display) sent a response that is not a share API answer")
        }
    }

    /// The problem's `detail`, or the start of whatever else the server said.
    private func problemDetail(_ response: HTTPResponse) -> String {
        if let problem = try? WireJSON.decoder().decode(ProblemDetails.self, from: response.body) { return problem.detail }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
        return text.isEmpty ? "HTTP \(response.status)" : text
    }

    /// The `rel="next"` target of a `Link` header, as a URL of this server's endpoint at `path`. The token goes
    /// with every request, so a link anywhere else (another host, port, path or scheme) is an error, never followed.
    private func nextLink(_ response: HTTPResponse, of path: String = "/share") throws(ClientError) -> String? {
        guard let link = response.headers["link"] else { return nil }
        for entry in link.split(separator: ",") where entry.contains(#"rel="next""#) {
            guard let open = entry.firstIndex(of: "<"), let close = entry.firstIndex(of: ">"), open < close else { continue }
            let target = String(entry[entry.index(after: open)..<close])
            guard let url = server.page(link: target, of: path) else {
                throw .unexpected("the server's next-page link '\(target)' leads away from \(server.display); not followed")
            }
            return url
        }
        return nil
    }
}
