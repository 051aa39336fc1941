import ShareKit
import SharePictures
import ShareTestSupport
import Testing

@testable import ShareThumbnails

/// A picture's row shows its thumbnail: if one format stopped working, those rows would fall back to an icon; if
/// metadata survived, a photo's location would be served to anyone who may read the history.
@Suite struct ThumbnailMakerTests {
    let maker = ThumbnailMaker()

    @Test(arguments: [
        ("photo.jpg", 144, 192),  // 320 × 240 stored, shown upright (EXIF orientation 6)
        ("picture.png", 192, 128),
        ("picture.webp", 192, 192),
        ("picture.gif", 120, 80),  // smaller than the box: never enlarged
        ("picture.bmp", 192, 96),
        ("picture.heic", 192, 192),
    ])
    func everyFormatBecomesASmallWebP(file: String, width: Int, height: Int) throws {
        let thumbnail = try maker.thumbnail(of: try Pictures.bytes(file))
        #expect(PictureFormat(sniffing: thumbnail) == .webp)
        let size = try ThumbnailMaker.dimensions(of: thumbnail)
        #expect(size.width == width && size.height == height, "\(size)")
    }

    /// What an import or a restore takes back as a thumbnail is told from its bytes alone, without libvips.
    @Test func aThumbnailItMadeIsOneByItsBytesAloneAndAPictureIsNot() throws {
        for file in ["photo.jpg", "picture.webp", "picture.heic"] {
            let thumbnail = try maker.thumbnail(of: try Pictures.bytes(file))
            #expect(ThumbnailFile.isThumbnail(thumbnail), "\(file)'s thumbnail")
            #expect(!ThumbnailFile.isThumbnail(Array(thumbnail.prefix(thumbnail.count / 2))), "\(file)'s thumbnail cut in half")
        }
        let original = try Pictures.bytes("picture.webp")
        #expect(try ThumbnailMaker.dimensions(of: original).width > ThumbnailFile.box && !ThumbnailFile.isThumbnail(original), "too large")
        #expect(!ThumbnailFile.isThumbnail(try Pictures.bytes("picture.png")), "not WebP")
    }

    @Test func aPhotosCameraAndLocationAreNotKept() throws {
        let photo = try Pictures.bytes("photo.jpg")
        #expect(photo.contains(subsequence: Array("PhoneMaker".utf8)), "the photo carries EXIF to strip")
        let thumbnail = try maker.thumbnail(of: photo)
        for marker in ["PhoneMaker", "Exif", "EXIF", "XMP "] {
            #expect(!thumbnail.contains(subsequence: Array(marker.utf8)), "\(marker)")
        }
    }

    @Test func aDecompressionBombIsRefusedByItsHeader() throws {
        let bomb = try Pictures.bytes("bomb.png")
        #expect(bomb.count < 200_000)
        #expect(throws: ShareError.unreadablePicture("is 30000 × 30000 pixels, more than the 100000000 thumbnails are made from in PNG")) {
            try maker.thumbnail(of: bomb)
        }
    }

    /// A format decoded whole holds every pixel in memory at once: it may declare half as many.
    @Test func aFormatDecodedWholeMayDeclareHalfAsManyPixels() throws {
        let small = ThumbnailMaker(maxPixels: 20_000)
        #expect(throws: ShareError.unreadablePicture("is 300 × 200 pixels, more than the 20000 thumbnails are made from in PNG")) {
            try small.thumbnail(of: try Pictures.bytes("picture.png"))
        }
        #expect(throws: ShareError.unreadablePicture("is 200 × 100 pixels, more than the 10000 thumbnails are made from in BMP")) {
            try small.thumbnail(of: try Pictures.bytes("picture.bmp"))
        }
        #expect(try ThumbnailMaker.dimensions(of: try small.thumbnail(of: try Pictures.bytes("picture.gif"))) == (120, 80))
    }

    @Test func aPictureCutShortIsRefusedNotHalfShown() throws {
        let error = #expect(throws: ShareError.self) { try maker.thumbnail(of: try Pictures.bytes("truncated.jpg")) }
        guard case .unreadablePicture(let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("cannot be read as JPEG"), "\(reason)")
    }

    /// A JPEG whose frame header declares more lines than its scan holds: libjpeg would fill the rest with grey.
    @Test func aJPEGWhoseHeaderClaimsMoreThanItsDataHoldsIsRefused() throws {
        var photo = try Pictures.bytes("photo.jpg")
        let frame = try #require(photo.indices.first { photo[$0] == 0xFF && photo[$0 + 1] == 0xC0 })
        photo[frame + 5] = photo[frame + 5] &+ 4  // 240 lines declared as 1,264
        let error = #expect(throws: ShareError.self) { try maker.thumbnail(of: photo) }
        guard case .unreadablePicture(let reason) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("cannot be read as JPEG"), "\(reason)")
    }

    @Test(arguments: ["drawing.svg", "make.py"])
    func whatIsNotAPictureOfTheFormatsIsUnsupported(file: String) throws {
        let error = #expect(throws: ShareError.self) { try maker.thumbnail(of: try Pictures.bytes(file)) }
        guard case .unsupportedPicture = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    @Test func anEmptyBodyIsNamedAsSuch() {
        #expect(throws: ShareError.unreadablePicture("is empty")) { try maker.thumbnail(of: []) }
    }

    /// Damaged pictures of every format, as an attacker would send them: each is a thumbnail or an error, never a
    /// crash or a hang.
    @Test func damagedPicturesAreThumbnailsOrErrors() throws {
        var generator = SplitMix(seed: 20_261_125)
        let originals = try ["photo.jpg", "picture.png", "picture.webp", "picture.gif", "picture.bmp", "picture.heic"].map(Pictures.bytes)
        var made = 0
        var refused = 0
        for round in 0..<300 {
            var damaged = originals[round % originals.count]
            switch generator.next() % 3 {
            case 0: damaged = Array(damaged.prefix(Int(generator.next() % UInt64(damaged.count))))
            case 1:
                for _ in 0..<(1 + generator.next() % 16) {
                    damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            default:
                let at = Int(generator.next() % UInt64(damaged.count))
                damaged.insert(contentsOf: generator.hostileBytes(maxPieces: 8), at: at)
            }
            do {
                let thumbnail = try maker.thumbnail(of: damaged)
                #expect(PictureFormat(sniffing: thumbnail) == .webp)
                made += 1
            } catch {
                refused += 1
            }
        }
        #expect(made > 0 && refused > 0, "\(made) made, \(refused) refused")
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { start in self[start..<(start + subsequence.count)].elementsEqual(subsequence) }
    }
}
