import ShareKit

/// Where an upload stands: the bytes it will hold, those stored so far, until when it waits for the rest, and the
/// share it became once the last byte was stored.
public struct UploadStatus: Equatable, Sendable {
    /// Its id: 128 random bits, as a link's token is, so that nobody finds another's upload by trying.
    public let id: String
    public let length: Int64
    public var offset: Int64
    /// An upload that gets no byte until then is dropped, with its bytes.
    public var expiresAt: Timestamp
    /// The share it became, once complete.
    public var share: ShareRecord?
    /// The file request it arrives through, if any, as `upload(id:)` reads it.
    public var request: String?

    public init(id: String, length: Int64, offset: Int64, expiresAt: Timestamp, share: ShareRecord? = nil) {
        self.id = id
        self.length = length
        self.offset = offset
        self.expiresAt = expiresAt
        self.share = share
    }

    /// How long an upload waits for its next byte.
    public static let patience: Int64 = 24 * 3600 * 1000
    /// The most uploads one history has in progress at once: each holds a row, a file and part of the quota for a
    /// day, so a script that starts them without end is refused (`ShareError.tooManyUploads`).
    public static let maxInProgress = 100

    /// Until when an upload touched at `time` waits.
    public static func expiry(touchedAt time: Timestamp) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: time.millisecondsSinceEpoch + patience)
    }
}
