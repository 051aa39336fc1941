import ShareKit

/// A record with everything a store keeps about it (whose it is, its thumbnail, its events and its downloads,
/// oldest first, the hash of its bytes), as `shared migrate` copies a history from one store into another.
public struct CopiedRecord: Sendable, Equatable {
    /// The user whose history holds it ('' for nobody's).
    public var owner: String
    public var record: ShareRecord
    public var thumbnail: Thumbnail?
    public var events: [ShareEvent]
    public var downloads: [ShareDownload]
    /// The SHA-256 its stored bytes are named by; nil for a record without bytes.
    public var blob: String?

    public init(
        owner: String, record: ShareRecord, thumbnail: Thumbnail?, events: [ShareEvent], downloads: [ShareDownload] = [], blob: String? = nil
    ) {
        self.owner = owner
        self.record = record
        self.thumbnail = thumbnail
        self.events = events
        self.downloads = downloads
        self.blob = blob
    }
}
