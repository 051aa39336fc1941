import Foundation
import ShareKit

/// The `shared` HTTP API as typed calls. Each call returns the raw body too, so `--json` prints exactly it.
public final class ShareAPI {
    private let transport: any HTTPTransport
    public let server: ServerAddress
    private let token: String?

    public init(transport: any HTTPTransport, server: ServerAddress, token: String?) {
        self.transport = transport
        self.server = server
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
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

    public func list(_ query: ListingQuery) throws(ClientError) -> Page {
        try page(at: server.url("/share", query.parameters))
    }

    /// Totals of the records `query` selects; its sort and paging fields change nothing.
    public func stats(_ query: ListingQuery) throws(ClientError) -> (stats: ShareStats, body: Data) {
        let response = try send("GET", server.url("/share/stats", query.parameters), id: nil)
        return (try decode(ShareStats.self, response.body), response.body)
    }

    /// Streams a JSON array or NDJSON file to the server and returns its report.
    public func importShares(from upload: UploadSource) throws(ClientError) -> (report: ImportReport, body: Data) {
        let response = try send("POST", server.url("/share/import"), id: nil, upload: upload)
        return (try decode(ImportReport.self, response.body), response.body)
    }

    /// Streams every live record (and, `includingTrash`, every trashed one), as NDJSON, into `sink` as it arrives.
    public func exportShares(includingTrash: Bool = false, to sink: @escaping ([UInt8]) -> Void) throws(ClientError) {
        _ = try send("GET", server.url("/share/export", includingTrash ? [("trashed", "include")] : []), id: nil, sink: sink)
    }

    /// Fetches a page by the URL a `Link` header gave.
    public func page(at url: String) throws(ClientError) -> Page {
        let response = try send("GET", url, id: nil)
        return Page(records: try decode([ShareRecord].self, response.body), body: response.body, next: try nextLink(response))
    }

    /// A record's whole history, oldest first, page after page, and the bodies as the server sent them.
    public func events(id: String) throws(ClientError) -> (events: [ShareEvent], bodies: [Data]) {
        let path = "/share/\(try recordPath(id))/events"
        var url: String? = server.url(path, [("limit", "1000")])
        var events: [ShareEvent] = []
        var bodies: [Data] = []
        var followed: Set<String> = []
        while let next = url {
            // A server that announces a page it already gave would be followed for ever.
            guard followed.insert(next).inserted else { throw .unexpected("the server announced the next page '\(next)' a second time") }
            let response = try send("GET", next, id: id)
            events += try decode([ShareEvent].self, response.body)
            bodies.append(response.body)
            url = try nextLink(response, of: path)
        }
        return (events, bodies)
    }

    public func share(id: String) throws(ClientError) -> Answer {
        try answer(send("GET", try recordURL(id), id: id))
    }

    public func create(name: String, size: Int64, folder: String?) throws(ClientError) -> Answer {
        var fields: [String: JSONField] = ["name": .text(name), "size": .integer(size)]
        if let folder { fields["folder"] = .text(folder) }
        return try answer(send("POST", server.url("/share"), id: nil, body: fields))
    }

    public func update(id: String, name: String? = nil, folder: String? = nil) throws(ClientError) -> Answer {
        var fields: [String: JSONField] = [:]
        if let name { fields["name"] = .text(name) }
        if let folder { fields["folder"] = .text(folder) }
        return try answer(send("PATCH", try recordURL(id), id: id, body: fields))
    }

    /// Moves a record to the trash, or with `purge` deletes it for good.
    public func delete(id: String, purge: Bool) throws(ClientError) {
        _ = try send("DELETE", try recordURL(id) + (purge ? "?purge=true" : ""), id: id)
    }

    public func restore(id: String) throws(ClientError) -> Answer {
        try answer(send("POST", try recordURL(id) + "/restore", id: id))
    }

    // MARK: - Exchange

    /// The URL of a record; an id no record could have is not found without asking (`export` is no record).
    private func recordURL(_ id: String) throws(ClientError) -> String {
        server.url("/share/\(try recordPath(id))")
    }

    /// The id as a path segment; an id no record could have is not found without asking.
    private func recordPath(_ id: String) throws(ClientError) -> String {
        guard ShareID.isPlausible(id) else { throw .notFound(id: id) }
        return id
    }

    private func send(
        _ method: String, _ url: String, id: String?, body: [String: JSONField]? = nil, upload: UploadSource? = nil,
        sink: (([UInt8]) -> Void)? = nil
    ) throws(ClientError) -> HTTPResponse {
        var headers = ["Accept": "application/json", "User-Agent": "share/\(ShareVersion.current)"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try? WireJSON.encoder().encode(body)
        }
        let response: HTTPResponse
        do {
            if upload != nil { headers["Content-Type"] = "application/json" }
            response = try transport.send(HTTPRequest(method: method, url: url, headers: headers, body: data, upload: upload), sink: sink)
        } catch {
            switch error {
            case .unreachable(let reason): throw .unreachable(server: server.display, reason: reason)
            case .noAnswer(let reason): throw .noAnswer(server: server.display, reason: reason)
            case .tooLarge(let limit):
                throw .unexpected("the server at \(server.display) answered with more than \(limit) bytes (max_response_bytes); not read")
            case .failed(let reason): throw .unexpected("request to \(server.display) failed: \(reason)")
            }
        }
        switch response.status {
        case 200..<300:
            return response
        case 300..<400:
            let target = response.headers["location"] ?? "another address"
            throw .unexpected("the server redirected to \(target); use that address as --server")
        case 401, 403:
            throw .unauthorized(status: response.status)
        case 404 where id != nil:
            throw .notFound(id: id!)
        case 400..<500:
            throw .rejected(detail: problemDetail(response))
        default:
            throw .serverFailed(status: response.status, detail: problemDetail(response))
        }
    }

    private func answer(_ response: HTTPResponse) throws(ClientError) -> Answer {
        Answer(record: try decode(ShareRecord.self, response.body), body: response.body)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ body: Data) throws(ClientError) -> T {
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

/// The values a request body holds.
private enum JSONField: Encodable {
    case text(String)
    case integer(Int64)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        }
    }
}
