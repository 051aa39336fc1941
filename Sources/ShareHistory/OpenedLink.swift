import ShareKit

/// What a share's link opens, read in one trip: the live share (with its code), and the bytes the service holds for
/// it (nil for a share made elsewhere, whose link leads to its `source`).
public struct OpenedLink: Sendable {
    public let share: ShareRecord
    public let bytes: (any StoredBytes)?

    public init(share: ShareRecord, bytes: (any StoredBytes)?) {
        self.share = share
        self.bytes = bytes
    }
}
