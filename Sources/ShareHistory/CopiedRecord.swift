import ShareKit

/// A record with everything a store keeps about it (whose it is, its thumbnail, its events and its downloads,
/// oldest first), as `shared migrate` copies a history from one store into another.
public struct CopiedRecord: Sendable, Equatable {
    /// The user whose history holds it ('' for nobody's).
    public var owner: String
    public var record: ShareRecord
    public var thumbnail: Thumbnail?
    public var events: [ShareEvent]
    public var downloads: [ShareDownload]

    public init(owner: String, record: ShareRecord, thumbnail: Thumbnail?, events: [ShareEvent], downloads: [ShareDownload] = []) {
        self.owner = owner
        self.record = record
        self.thumbnail = thumbnail
        self.events = events
        self.downloads = downloads
    }
}
