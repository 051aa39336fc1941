import ShareKit

/// What a picture's own header declares, read here byte by byte and never by a decoder: libvips' header read of some
/// formats decodes the whole picture (ImageMagick's BMP), so nothing of a picture reaches libvips before the memory
/// its header declares has been counted.
package struct PictureHeader {
    package let format: PictureFormat
    package let width: Int
    package let height: Int

    /// Throws `.unreadablePicture` when the header is missing, cut short or declares no pixels.
    package init(_ bytes: [UInt8], format: PictureFormat) throws(ShareError) {
        let reader = HeaderBytes(bytes)
        let size: (width: Int, height: Int)?
        switch format {
        case .jpeg: size = JPEGFrame(bytes).map { ($0.width, $0.height) }
        case .png: size = reader.ascii(at: 12, count: 4) == "IHDR" ? reader.bigEndian(at: 16, count: 4).zip(reader.bigEndian(at: 20, count: 4)) : nil
        case .gif: size = reader.littleEndian(at: 6, count: 2).zip(reader.littleEndian(at: 8, count: 2))
        case .bmp: size = Self.bitmapSize(reader)
        case .webp: size = Self.webPSize(reader)
        case .heic: size = HEIFSize.largest(in: bytes)
        }
        guard let size, size.width > 0, size.height > 0 else {
            throw .unreadablePicture("cannot be read as \(format.rawValue): its header is missing or damaged")
        }
        (self.format, width, height) = (format, size.width, size.height)
    }

    /// BMP's info header: 16-bit sizes in the oldest (12 bytes), signed 32-bit ones after (a negative height is a
    /// picture stored top down).
    private static func bitmapSize(_ reader: HeaderBytes) -> (width: Int, height: Int)? {
        guard let headerSize = reader.littleEndian(at: 14, count: 4) else { return nil }
        if headerSize == 12 { return reader.littleEndian(at: 18, count: 2).zip(reader.littleEndian(at: 20, count: 2)) }
        guard let width = reader.littleEndian(at: 18, count: 4), let height = reader.littleEndian(at: 22, count: 4) else { return nil }
        return (Int(Int32(truncatingIfNeeded: width)), abs(Int(Int32(truncatingIfNeeded: height))))
    }

    /// WebP's first chunk: a lossy frame's header, a lossless one's 14-bit sizes, or the extended canvas.
    private static func webPSize(_ reader: HeaderBytes) -> (width: Int, height: Int)? {
        switch reader.ascii(at: 12, count: 4) {
        case "VP8 ":
            guard reader.ascii(at: 23, count: 3) == "\u{9D}\u{01}*" else { return nil }
            return reader.littleEndian(at: 26, count: 2).map { $0 & 0x3FFF }.zip(reader.littleEndian(at: 28, count: 2).map { $0 & 0x3FFF })
        case "VP8L":
            guard let bits = reader.littleEndian(at: 21, count: 4) else { return nil }
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        case "VP8X":
            return reader.littleEndian(at: 24, count: 3).map { $0 + 1 }.zip(reader.littleEndian(at: 27, count: 3).map { $0 + 1 })
        default: return nil
        }
    }
}

/// Bounds-checked reads of a header's fields: nil past the end, never a trap.
struct HeaderBytes {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func bigEndian(at offset: Int, count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(at offset: Int, count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return bytes[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    func ascii(at offset: Int, count: Int) -> String? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        return String(String.UnicodeScalarView(bytes[offset..<(offset + count)].map(Unicode.Scalar.init)))
    }
}

extension Optional where Wrapped == Int {
    fileprivate func zip(_ other: Int?) -> (width: Int, height: Int)? {
        guard let self, let other else { return nil }
        return (self, other)
    }
}
