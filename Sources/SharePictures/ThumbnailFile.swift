/// A thumbnail as `shared` makes them, told from its bytes alone, with no decoder: what an export carried or a
/// backup holds is taken back only so.
public enum ThumbnailFile {
    /// Its largest side in pixels: 96 CSS pixels at twice the density.
    public static let box = 192
    /// More than any thumbnail takes: 192 × 192 pixels of noise at quality 80 are about 30 KB.
    static let maxBytes = 65_536

    /// Whether `image` is one: WebP without metadata, at most `box` pixels wide and high as its header says.
    public static func isThumbnail(_ image: [UInt8]) -> Bool {
        guard image.count <= maxBytes, PictureFormat(sniffing: image) == .webp, WebPMetadata.stripped(image) == image,
            let header = try? PictureHeader(image, format: .webp)
        else { return false }
        return (1...box).contains(header.width) && (1...box).contains(header.height)
    }
}
