import CVips
import ShareKit
import SharePictures

/// Makes a record's thumbnail from a picture, with libvips: at most `ThumbnailFile.box` pixels wide and high, its
/// aspect kept, never enlarged, turned upright as its EXIF says, saved as WebP with no
/// metadata (no EXIF location, no camera).
///
/// Decoding is the riskiest input the service takes, so a picture is decoded only when it begins as one of the
/// formats `PictureFormat` names, libvips chooses that same format's loader (every other loader is blocked, SVG
/// among them), and its header declares at most `maxPixels` pixels (half as many for a format decoded whole, whose
/// pixels are all in memory at once): a decompression bomb is refused before a line of it is decoded. Data that
/// breaks off or is damaged is an error, not a partial thumbnail. The byte limit of the upload, the pixel limit and
/// the number of decodes run at once bound the time and memory one takes.
public struct ThumbnailMaker: Sendable {
    /// The most pixels a picture may declare: 100 megapixels, more than any phone's camera takes.
    public static let defaultMaxPixels = 100_000_000

    public let maxPixels: Int

    public init(maxPixels: Int = Self.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    /// A picture whose header has been read and found fit to decode.
    public struct Inspected: Sendable {
        public let bytes: [UInt8]
        public let format: PictureFormat
        public let width: Int
        public let height: Int
        /// The memory decoding it takes at most (`DecodingMemory`).
        public let decodingBytes: Int
    }

    /// The thumbnail of `picture`, as WebP (`inspect`, then `thumbnail(of:)`).
    public func thumbnail(of picture: [UInt8]) throws(ShareError) -> [UInt8] {
        try thumbnail(of: try inspect(picture))
    }

    /// Reads the picture's header here, without any decoder: its format, size and the memory its decoding takes.
    /// Throws `.unsupportedPicture` for a file in none of the formats, `.unreadablePicture` for one too large or
    /// damaged. Cheap: nothing of the picture is decoded.
    public func inspect(_ picture: [UInt8]) throws(ShareError) -> Inspected {
        guard !picture.isEmpty else { throw .unreadablePicture("is empty") }
        guard let format = PictureFormat(sniffing: picture) else {
            throw .unsupportedPicture(
                "is not a picture in a format thumbnails are made from (\(PictureFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let header = try PictureHeader(picture, format: format)
        let allowed = format.isDecodedWhole ? maxPixels / 2 : maxPixels
        guard header.width <= allowed, header.height <= allowed, header.width * header.height <= allowed else {
            throw .unreadablePicture(
                "is \(header.width) × \(header.height) pixels, more than the \(allowed) thumbnails are made from in \(format.rawValue)")
        }
        let memory = DecodingMemory.bytes(of: picture, format: format, width: header.width, height: header.height)
        return Inspected(bytes: picture, format: format, width: header.width, height: header.height, decodingBytes: memory)
    }

    /// The thumbnail of an inspected picture, as WebP: slow, to run off the cooperative pool once its
    /// `decodingBytes` are reserved. libvips must choose the format's own loader and read the size the header
    /// declared (its header read is the first thing of the picture it decodes). Throws `.unreadablePicture` for one
    /// damaged or cut short.
    public func thumbnail(of inspected: Inspected) throws(ShareError) -> [UInt8] {
        try shrunk(inspected, box: ThumbnailFile.box)
    }

    /// An inspected picture at most `box` pixels wide and high, as WebP without metadata.
    func shrunk(_ inspected: Inspected, box: Int) throws(ShareError) -> [UInt8] {
        let (picture, format) = (inspected.bytes, inspected.format)
        guard Self.libraryStarted else { throw .unsupportedPicture("cannot be read: the picture library did not start") }
        let chosen = picture.withUnsafeBytes { bytes in
            vips_foreign_find_load_buffer(bytes.baseAddress, bytes.count).map { String(cString: $0) }
        }
        guard chosen == format.loader else {
            Self.clearError()
            throw .unsupportedPicture("begins as \(format.rawValue) but is not one that can be read here")
        }
        let read = try Self.dimensions(of: picture)
        guard DecodingMemory.bytes(of: picture, format: format, width: read.width, height: read.height) <= inspected.decodingBytes else {
            throw .unreadablePicture(
                "cannot be read as \(format.rawValue): its data declares \(read.width) × \(read.height) pixels, its header fewer")
        }
        return try Self.webp(of: picture, box: box, enlarging: false, loaderOptions: format.loaderOptions, reading: format.rawValue)
    }

    /// `picture` at most `box` pixels wide and high (`enlarging` a smaller one to it) as WebP without metadata, its
    /// loader told `loaderOptions`; `reading` names its format in the error.
    static func webp(of picture: [UInt8], box: Int, enlarging: Bool, loaderOptions: String, reading: String) throws(ShareError) -> [UInt8] {
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status = picture.withUnsafeBytes { bytes in
            share_vips_thumbnail_webp(bytes.baseAddress, bytes.count, Int32(box), enlarging ? 1 : 0, 80, loaderOptions, &output, &length)
        }
        guard status == 0, let output else {
            throw .unreadablePicture("cannot be read as \(reading) (damaged or cut short?): \(Self.takeError())")
        }
        defer { g_free(output) }
        let saved = [UInt8](UnsafeRawBufferPointer(start: output, count: length))
        return WebPMetadata.stripped(saved) ?? saved
    }

    /// The width and height a picture's header declares, without decoding it (a thumbnail's, to check it).
    public static func dimensions(of picture: [UInt8]) throws(ShareError) -> (width: Int, height: Int) {
        guard libraryStarted else { throw .unsupportedPicture("cannot be read: the picture library did not start") }
        var width: Int32 = 0
        var height: Int32 = 0
        let status = picture.withUnsafeBytes { share_vips_dimensions($0.baseAddress, $0.count, &width, &height) }
        guard status == 0 else { throw .unreadablePicture("cannot be read: \(takeError())") }
        return (Int(width), Int(height))
    }

    /// libvips, started once for the process.
    static let libraryStarted = share_vips_start() == 0

    /// The last line libvips wrote to its error buffer, which is then cleared.
    static func takeError() -> String {
        let text = String(cString: vips_error_buffer())
        clearError()
        return text.split(whereSeparator: \.isNewline).last.map(String.init) ?? "unknown error"
    }

    static func clearError() {
        vips_error_clear()
    }
}
