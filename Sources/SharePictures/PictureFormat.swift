/// The formats thumbnails are made from, told apart by how their files begin, before any decoder sees them: a
/// file that begins as none of them (an SVG, a PDF, a script) is refused whatever its name or declared type.
public enum PictureFormat: String, Sendable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    case webp = "WebP"
    case gif = "GIF"
    case bmp = "BMP"
    case heic = "HEIC"

    public init?(sniffing bytes: [UInt8]) {
        func begins(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if begins([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if begins([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if begins(Array("RIFF".utf8)), begins(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if begins(Array("GIF87a".utf8)) || begins(Array("GIF89a".utf8)) {
            self = .gif
        } else if begins(Array("BM".utf8)), bytes.count >= 18, Self.bitmapHeaderSizes.contains(Int(bytes[14]) | Int(bytes[15]) << 8) {
            self = .bmp
        } else if begins(Array("ftyp".utf8), at: 4), Self.heifBrands.contains(where: { begins(Array($0.utf8), at: 8) }) {
            self = .heic
        } else {
            return nil
        }
    }

    /// The sizes a BMP's second header has, one per version of the format.
    private static let bitmapHeaderSizes: Set<Int> = [12, 40, 52, 56, 64, 108, 124]
    /// The brands of HEIF files holding HEVC pictures (HEIC), as phones write them.
    private static let heifBrands = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]

    /// Whether its decoder holds the whole picture in memory (four bytes a pixel or more), where JPEG and WebP are
    /// decoded already shrunk and PNG line by line.
    package var isDecodedWhole: Bool {
        switch self {
        case .jpeg, .png, .webp: return false
        case .gif, .bmp, .heic: return true
        }
    }

    /// How strictly its loader refuses damage: libjpeg calls a scan that ends before the lines its header declares
    /// a warning (and fills the rest with grey), so JPEG fails on warnings too; the others on errors and truncation.
    package var loaderOptions: String {
        self == .jpeg ? "fail_on=warning" : "fail_on=error"
    }

    /// The class of the libvips loader that reads the format: the one libvips must choose for the file too.
    package var loader: String {
        switch self {
        case .jpeg: return "VipsForeignLoadJpegBuffer"
        case .png: return "VipsForeignLoadPngBuffer"
        case .webp: return "VipsForeignLoadWebpBuffer"
        case .gif: return "VipsForeignLoadNsgifBuffer"
        case .bmp: return "VipsForeignLoadMagickBuffer"
        case .heic: return "VipsForeignLoadHeifBuffer"
        }
    }
}
