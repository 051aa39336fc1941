import CVips
import ShareKit
import Synchronization

/// Previews for a link's page: a picture at most `previewBox` pixels on a side, and a PDF's first page as one.
extension ThumbnailMaker {
    /// The longest side of a preview: a phone's screen is narrower, a laptop's about as wide.
    public static let previewBox = 1280

    /// The memory a PDF's first page takes to render: poppler draws it at the preview's size, not the page's.
    public static let pdfPageBytes = 64 * 1_048_576

    /// An inspected picture as a preview, WebP without metadata: slow, to run off the cooperative pool once its
    /// `decodingBytes` are reserved.
    public func preview(of inspected: Inspected) throws(ShareError) -> [UInt8] {
        try shrunk(inspected, box: Self.previewBox)
    }

    /// Whether `bytes` begin as a PDF does.
    public static func isPDF(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("%PDF-".utf8))
    }

    /// A PDF's first page as a preview, WebP: only for a file that begins as a PDF and that libvips reads with
    /// poppler (no other loader), its page at most `maxPixels` at 72 dots an inch. Slow, like `preview(of:)`, and
    /// takes `pdfPageBytes`.
    public func firstPage(ofPDF document: [UInt8]) throws(ShareError) -> [UInt8] {
        guard Self.libraryStarted else { throw .unsupportedPicture("cannot be read: the picture library did not start") }
        guard Self.isPDF(document) else { throw .unsupportedPicture("is not a PDF") }
        let chosen = document.withUnsafeBytes { bytes in
            vips_foreign_find_load_buffer(bytes.baseAddress, bytes.count).map { String(cString: $0) }
        }
        guard chosen == "VipsForeignLoadPdfBuffer" else {
            Self.clearError()
            throw .unsupportedPicture("begins as a PDF but is not one that can be read here")
        }
        // One page at a time: poppler keeps global state (its parameters, its fonts) that pages drawn at once would share.
        return try Self.popplerTurn.withLock { _ throws(ShareError) in
            let page = try Self.dimensions(of: document)
            guard page.width * page.height <= maxPixels else {
                throw .unreadablePicture("has a first page of \(page.width) × \(page.height) points, more than previews are made from")
            }
            // Drawn from vectors: a small page is drawn large, not blurred.
            return try Self.webp(of: document, box: Self.previewBox, enlarging: true, loaderOptions: "page=0", reading: "PDF")
        }
    }

    private static let popplerTurn = Mutex(())
}
