import ShareKit

/// A record's thumbnail as it is kept and served: the small picture the daemon made, and its ETag.
public struct Thumbnail: Sendable, Equatable {
    /// The picture, as WebP.
    public var image: [UInt8]
    /// Changes when the picture does: a hash of its bytes.
    public var tag: String

    public init(image: [UInt8]) {
        self.init(image: image, tag: ContentHash.of(image))
    }

    package init(image: [UInt8], tag: String) {
        self.image = image
        self.tag = tag
    }
}
