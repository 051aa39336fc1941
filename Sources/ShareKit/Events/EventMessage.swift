import Foundation

/// An event as receivers get it: a webhook's body, the stream's `data:` line. `{type, timestamp, data}`, as the
/// Standard Webhooks specification shapes a payload.
public struct EventMessage: Codable, Sendable, Equatable {
    /// `share.` and the action: `share.uploaded`, `share.downloaded`.
    public var type: String
    public var timestamp: Timestamp
    public var data: Details

    public struct Details: Codable, Sendable, Equatable {
        /// The event's id, as `webhook-id` and the stream's `id:` carry it.
        public var id: String
        public var share: HistoryEvent.Subject
        public var from: String?
        public var to: String?
        public var by: String
        public var downloads: Int64?
        public var download: HistoryEvent.Downloader?
    }

    /// The JSON bytes, the same every time the event is sent.
    public func body() -> Data {
        // Strings and numbers only: encoding cannot fail.
        (try? WireJSON.encoder().encode(self)) ?? Data()
    }
}
