/// The memory decoding a picture for its thumbnail takes at most, from what its header declares, before a line of it
/// is decoded: what the daemon's budget for decoding counts, so that pictures decoded at once never hold more.
///
/// Per format, as libvips decodes it for a thumbnail: baseline JPEG and WebP already shrunk (by up to 8 in each
/// direction, never below the thumbnail's size); progressive JPEG keeps every coefficient of the whole picture (two
/// bytes each, per component as it is sampled); PNG line by line unless interlaced; GIF, BMP (ImageMagick, 16 bits a
/// channel) and HEIC the whole picture, and more than once.
enum DecodingMemory {
    /// What any decode holds besides its pixels: the decoder's own tables and buffers.
    static let overhead = 4 * 1_048_576

    static func bytes(of picture: [UInt8], format: PictureFormat, width: Int, height: Int) -> Int {
        let pixels = width * height
        let shrunk = pixels / (shrink(width, height) * shrink(width, height))
        let decoded: Int
        switch format {
        case .jpeg:
            guard let frame = JPEGFrame(picture), frame.isProgressive else {
                decoded = shrunk * 3
                break
            }
            decoded = frame.coefficientBytes(width: width, height: height)
        case .webp: decoded = shrunk * 4
        case .png: decoded = isInterlacedPNG(picture) ? pixels * 8 : width * 8 * 64
        case .gif: decoded = pixels * 8
        case .bmp: decoded = pixels * 16
        case .heic: decoded = pixels * 6
        }
        return decoded + overhead
    }

    /// The factor (1, 2, 4 or 8) a loader that shrinks as it decodes shrinks this picture by for a thumbnail.
    private static func shrink(_ width: Int, _ height: Int) -> Int {
        var factor = 1
        while factor < 8, max(width, height) / (factor * 2) >= ThumbnailMaker.box { factor *= 2 }
        return factor
    }

    /// PNG's header (IHDR, at a fixed place) says whether the picture is interlaced (Adam7).
    private static func isInterlacedPNG(_ picture: [UInt8]) -> Bool {
        picture.count > 28 && picture[28] != 0
    }
}

/// What a JPEG's frame header (SOF) declares: whether it is progressive, and how each component is sampled.
struct JPEGFrame {
    let isProgressive: Bool
    let sampling: [(horizontal: Int, vertical: Int)]

    /// Reads the markers up to the first frame header; nil when there is none before the scan.
    init?(_ bytes: [UInt8]) {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard marker != 0xDA, length >= 2 else { return nil }
            // SOF0–SOF15, but DHT (C4), JPG (C8) and DAC (CC), which share the range.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let start = offset + 4
                guard start + 6 <= bytes.count else { return nil }
                let count = Int(bytes[start + 5])
                guard count > 0, start + 6 + 3 * count <= bytes.count else { return nil }
                isProgressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                sampling = (0..<count).map { index in
                    let factors = bytes[start + 6 + 3 * index + 1]
                    return (max(1, Int(factors >> 4)), max(1, Int(factors & 0x0F)))
                }
                return
            }
            offset += 2 + length
        }
        return nil
    }

    /// The coefficients of the whole picture, as a progressive decoder keeps them: 64 of two bytes a block of each
    /// component, which covers its share of the picture as sampled.
    func coefficientBytes(width: Int, height: Int) -> Int {
        let widest = sampling.map(\.horizontal).max() ?? 1
        let tallest = sampling.map(\.vertical).max() ?? 1
        return sampling.reduce(0) { sum, factors in
            let columns = (width * factors.horizontal / widest + 7) / 8
            let rows = (height * factors.vertical / tallest + 7) / 8
            return sum + columns * rows * 64 * 2
        }
    }
}
