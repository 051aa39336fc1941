/// The memory decoding a picture for its thumbnail takes at most, from what its header declares, before a line of it
/// is decoded: what the daemon's budget for decoding counts, so that pictures decoded at once never hold more.
///
/// Per format, as libvips decodes it for a thumbnail: baseline JPEG and WebP already shrunk (by up to 8 in each
/// direction, never below the thumbnail's size); progressive JPEG keeps every coefficient of the whole picture (two
/// bytes each, per component as it is sampled); PNG some two thousand lines (as expanded: 16-bit samples stay two
/// bytes) unless interlaced; GIF, BMP (ImageMagick, 16 bits a channel) and HEIC the whole picture, and more than once.
package enum DecodingMemory {
    /// What any decode holds besides its pixels: the decoder's own tables and buffers.
    package static let overhead = 4 * 1_048_576

    package static func bytes(of picture: [UInt8], format: PictureFormat, width: Int, height: Int) -> Int {
        let pixels = width * height
        let shrunk = pixels / (shrink(width, height) * shrink(width, height))
        let decoded: Int
        switch format {
        case .jpeg:
            // A frame this reader cannot find is counted as the worst: progressive, three components at full size.
            decoded = JPEGFrame(picture).map { $0.isProgressive ? $0.coefficientBytes() : shrunk * 3 } ?? pixels * 6
        case .webp: decoded = shrunk * 4
        case .png:
            let png = PNGPixels(picture)
            decoded = png.isInterlaced ? pixels * max(8, 2 * png.bytes) : width * png.bytes * min(height, pngLinesHeld)
        case .gif: decoded = pixels * 8
        case .bmp: decoded = pixels * 16
        case .heic: decoded = pixels * 6
        }
        return decoded + overhead
    }

    /// The factor (1, 2, 4 or 8) a loader that shrinks as it decodes shrinks this picture by for a thumbnail.
    private static func shrink(_ width: Int, _ height: Int) -> Int {
        var factor = 1
        while factor < 8, max(width, height) / (factor * 2) >= ThumbnailFile.box { factor *= 2 }
        return factor
    }

    /// The lines of a PNG libvips holds while shrinking it for a thumbnail: about 2,000 measured, whatever its width.
    static let pngLinesHeld = 2560
}

/// PNG's header (IHDR, at a fixed place): how many bytes a pixel takes once expanded (a palette to RGBA, 16-bit
/// samples kept) and whether the picture is interlaced (Adam7).
struct PNGPixels {
    let bytes: Int
    let isInterlaced: Bool

    init(_ picture: [UInt8]) {
        let header = HeaderBytes(picture)
        let samples = [0: 1, 2: 3, 3: 4, 4: 2, 6: 4][header.bigEndian(at: 25, count: 1) ?? 6] ?? 4
        bytes = samples * (header.bigEndian(at: 24, count: 1) == 16 ? 2 : 1)
        isInterlaced = header.bigEndian(at: 28, count: 1) != 0
    }
}
