import ShareKit
import SharePictures
import ShareTestSupport
import Testing

@testable import ShareThumbnails

/// A link's page shows a picture or a PDF's first page large: if a preview came out at thumbnail size it would be a
/// blur on a phone; if a PDF were not drawn, its recipient would see only an icon; if a file calling itself a PDF
/// reached another decoder, the service would decode what it never meant to.
@Suite struct PreviewTests {
    let maker = ThumbnailMaker()

    @Test func aPictureIsPreviewedLargeButNeverEnlarged() throws {
        let preview = try maker.preview(of: try maker.inspect(try Pictures.bytes("picture.webp")))
        #expect(PictureFormat(sniffing: preview) == .webp)
        let size = try ThumbnailMaker.dimensions(of: preview)
        #expect(size.width == 400 && size.height == 400, "its own 400 × 400, where a thumbnail is 192: \(size)")
    }

    @Test func aPDFsFirstPageIsDrawnAtThePreviewsSize() throws {
        let preview = try maker.firstPage(ofPDF: Documents.pdf(width: 600, height: 800))
        #expect(PictureFormat(sniffing: preview) == .webp)
        let size = try ThumbnailMaker.dimensions(of: preview)
        #expect(size.width == 960 && size.height == 1280, "drawn to fill 1280 pixels, its shape kept: \(size)")
    }

    @Test func onlyAFileThatIsAPDFIsReadAsOne() throws {
        #expect(throws: ShareError.self, "a picture") { try maker.firstPage(ofPDF: try Pictures.bytes("picture.png")) }
        let cut = Array(Documents.pdf().prefix(40))
        #expect(throws: ShareError.self, "a PDF's first bytes") { try maker.firstPage(ofPDF: cut) }
        #expect(throws: ShareError.self, "a page too large") {
            try ThumbnailMaker(maxPixels: 1_000).firstPage(ofPDF: Documents.pdf(width: 600, height: 800))
        }
    }
}
