import Foundation
import ShareKit

/// Webhooks (`/hooks`) and the live stream of events (`/events`) of the caller's history.
extension ShareAPI {
    public func hooks() throws(ClientError) -> (hooks: [Hook], body: Data) {
        let response = try send("GET", historyURL("/hooks"), id: nil)
        return (try decode([Hook].self, response.body), response.body)
    }

    /// Makes a hook; its answer carries the secret, shown this once.
    public func addHook(url: String, events: [String], description: String?) throws(ClientError) -> (hook: Hook, body: Data) {
        var fields: [String: JSONField] = ["url": .text(url), "events": .texts(events)]
        if let description { fields["description"] = .text(description) }
        let response = try send("POST", historyURL("/hooks"), id: nil, body: fields)
        return (try decode(Hook.self, response.body), response.body)
    }

    public func removeHook(id: String) throws(ClientError) {
        _ = try send("DELETE", historyURL("/hooks/\(try hookPath(id))"), id: nil)
    }

    /// A hook's deliveries, newest first, a page at a time as it arrives, with the body the server sent.
    public func hookDeliveries(id: String, _ handle: (_ deliveries: [HookDelivery], _ body: Data) -> Void) throws(ClientError) {
        let path = "/hooks/\(try hookPath(id))/deliveries"
        try follow(historyURL(path, [("limit", "1000")]), path: path, id: nil) { (deliveries: [HookDelivery], body, _) in
            handle(deliveries, body)
        }
    }

    /// Has the server send a delivery's event to its hook again.
    public func retryDelivery(hook: String, delivery: Int64) throws(ClientError) {
        _ = try send("POST", historyURL("/hooks/\(try hookPath(hook))/deliveries/\(delivery)/retry"), id: nil)
    }

    /// Follows `GET /events` until it ends, telling `opened` when the stream's first bytes arrive and handing each
    /// event's id and `data:` line to `handle` as it comes; from the one after `lastEventID` when given.
    public func followEvents(
        after lastEventID: String?, opened: @escaping () -> Void, _ handle: @escaping (_ id: String, _ data: String) -> Void
    ) throws(ClientError) {
        var reader = EventStreamReader(handle)
        let headers = ["Accept": "text/event-stream"].merging(lastEventID.map { ["Last-Event-ID": $0] } ?? [:]) { $1 }
        _ = try send(
            "GET", historyURL("/events"), id: nil,
            sink: { bytes in
                opened()
                reader.take(bytes)
            }, headers: headers)
    }

    /// A hook id as a path segment; one no hook could have is refused without asking.
    private func hookPath(_ id: String) throws(ClientError) -> String {
        guard !id.isEmpty, id.utf8.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw .rejected(detail: "no webhook with id '\(id.prefix(64))'")
        }
        return id
    }
}

/// Server-sent events read from the bytes of a stream as they arrive: each event's `id:` and `data:` once its blank
/// line ends it; comments and other fields are passed over.
struct EventStreamReader {
    private let handle: (String, String) -> Void
    private var pending: [UInt8] = []
    private var id = ""
    private var data: [String] = []

    init(_ handle: @escaping (String, String) -> Void) {
        self.handle = handle
    }

    mutating func take(_ bytes: [UInt8]) {
        pending += bytes
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(pending[..<end])
            pending.removeFirst(end + 1)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            read(String(decoding: line, as: UTF8.self))
        }
    }

    private mutating func read(_ line: String) {
        guard !line.isEmpty else {
            if !data.isEmpty { handle(id, data.joined(separator: "\n")) }
            data = []
            return
        }
        guard !line.hasPrefix(":") else { return }
        let (field, value) = line.firstIndex(of: ":").map { (line[..<$0], line[line.index(after: $0)...]) } ?? (line[...], "")
        let text = value.hasPrefix(" ") ? String(value.dropFirst()) : String(value)
        switch field {
        case "id": id = text
        case "data": data.append(text)
        default: break
        }
    }
}
