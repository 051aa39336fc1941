import Foundation

/// One event of a history as it goes out (webhooks, `GET /events`, the feed): its number, which is its id for
/// receivers, and what its record was when it happened.
public struct HistoryEvent: Sendable, Equatable {
    /// The event's number: ids grow with time within a history and are never given twice.
    public var seq: Int64
    public var at: Timestamp
    public var action: ShareEvent.Action
    public var share: Subject
    public var from: String?
    public var to: String?
    public var by: String
    /// For `downloaded`: the count the download brought the share to, and who downloaded.
    public var downloads: Int64?
    public var download: Downloader?

    /// The record an event is about, as it was then.
    public struct Subject: Codable, Sendable, Equatable {
        public var id: String
        public var name: String
        public var folder: String
        public var size: Int64
        public var type: String

        public init(id: String, name: String, folder: String, size: Int64, type: String) {
            self.id = id
            self.name = name
            self.folder = folder
            self.size = size
            self.type = type
        }
    }

    /// Who downloaded, as the access log keeps it: the address's family (`ipv4`, `ipv6`) and the agent's.
    public struct Downloader: Codable, Sendable, Equatable {
        public var addressFamily: String
        public var agent: String

        public init(address: String, agent: String) {
            addressFamily = address.contains(":") ? "ipv6" : "ipv4"
            self.agent = agent
        }
    }

    public init(
        seq: Int64, at: Timestamp, action: ShareEvent.Action, share: Subject, from: String? = nil, to: String? = nil, by: String,
        downloads: Int64? = nil, download: Downloader? = nil
    ) {
        self.seq = seq
        self.at = at
        self.action = action
        self.share = share
        self.from = from
        self.to = to
        self.by = by
        self.downloads = downloads
        self.download = download
    }

    /// The event's id for receivers: `webhook-id`, the stream's `id:`, the feed entry's.
    public var id: String { String(seq) }

    /// The type receivers see: `share.` and the action (`share.downloaded`).
    public var type: String { "share." + action.rawValue }

    /// What a webhook posts and the stream's `data:` say of the event.
    public var message: EventMessage {
        EventMessage(
            type: type, timestamp: at,
            data: EventMessage.Details(id: id, share: share, from: from, to: to, by: by, downloads: downloads, download: download))
    }
}
