/// Removes the metadata chunks (EXIF, XMP) of a WebP file. libvips 8.14's WebP saver writes an EXIF chunk whatever
/// it is asked (a minimal one when the picture's own was dropped, the picture's own when it was not); the thumbnail
/// carries none.
package enum WebPMetadata {
    /// `webp` without its `EXIF` and `XMP ` chunks, its header saying so; nil when it is not a WebP file whose
    /// chunks add up.
    package static func stripped(_ webp: [UInt8]) -> [UInt8]? {
        guard webp.count >= 12, PictureFormat(sniffing: webp) == .webp else { return nil }
        var kept: [UInt8] = []
        var offset = 12
        while offset + 8 <= webp.count {
            let name = String(decoding: webp[offset..<(offset + 4)], as: UTF8.self)
            let size = webp[(offset + 4)..<(offset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 8 + size + size % 2
            guard end <= webp.count else { return nil }
            if name != "EXIF" && name != "XMP " { kept += webp[offset..<end] }
            offset = end
        }
        guard offset == webp.count else { return nil }
        // The extended header's flags name the chunks that follow: EXIF is bit 3, XMP bit 2.
        if kept.count >= 9, String(decoding: kept[0..<4], as: UTF8.self) == "VP8X" { kept[8] &= ~0b1100 }
        return Array("RIFF".utf8) + littleEndian(UInt32(4 + kept.count)) + Array("WEBP".utf8) + kept
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
