import ShareKit
import ShareTestSupport
import Testing

@testable import SharePictures
@testable import ShareThumbnails

/// The memory a picture's decoding takes is known from its header, before a line of it is decoded: were it
/// underestimated, a few hostile pictures decoded at once would take the daemon's memory; overestimated, ordinary
/// photos would be refused or kept waiting.
@Suite struct DecodingMemoryTests {
    /// A JPEG's start and frame header (SOF0 baseline or SOF2 progressive) declaring `width` × `height` with YCbCr
    /// components sampled as given, then the start of a scan.
    private static func jpegHeader(progressive: Bool, width: Int, height: Int, sampling: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
        bytes += [0xFF, progressive ? 0xC2 : 0xC0, 0x00, UInt8(8 + 3 * sampling.count), 8]
        bytes += [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), UInt8(sampling.count)]
        for (index, factors) in sampling.enumerated() { bytes += [UInt8(index + 1), factors, 0] }
        return bytes + [0xFF, 0xDA, 0x00, 0x02]
    }

    @Test func aProgressiveJPEGCountsEveryCoefficientOfTheWholePictureAsSampled() {
        // 4:2:0: a full-size luma plane and two quarter-size chroma planes, two bytes a coefficient.
        let header = Self.jpegHeader(progressive: true, width: 10_000, height: 10_000, sampling: [0x22, 0x11, 0x11])
        let bytes = DecodingMemory.bytes(of: header, format: .jpeg, width: 10_000, height: 10_000)
        #expect(bytes == (1250 * 1250 + 2 * 625 * 625) * 128 + DecodingMemory.overhead)
        #expect(bytes > 290 * 1_048_576, "about 300 MB: what the hostile progressive JPEG cost, decoded")
    }

    /// libjpeg skips `FF` fill bytes and markers without a length before the frame header; a reader that stopped at
    /// them counted a progressive picture as a cheap baseline one (600 MB decoded against a few counted).
    @Test func fillBytesAndRestartMarkersBeforeTheFrameDoNotHideAProgressivePicture() throws {
        let plain = Self.jpegHeader(progressive: true, width: 10_000, height: 10_000, sampling: [0x11, 0x11, 0x11])
        let hidden = Array(plain[0..<2]) + [0xFF, 0xFF, 0xFF, 0xD0, 0xFF, 0x01] + Array(plain[2...])
        let frame = try #require(JPEGFrame(hidden))
        #expect(frame.isProgressive && frame.width == 10_000 && frame.height == 10_000)
        #expect(
            DecodingMemory.bytes(of: hidden, format: .jpeg, width: 10_000, height: 10_000)
                == DecodingMemory.bytes(of: plain, format: .jpeg, width: 10_000, height: 10_000))
    }

    @Test func aJPEGWhoseFrameCannotBeFoundIsCountedAsTheWorst() {
        let noFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0x12, 0x34]
        #expect(DecodingMemory.bytes(of: noFrame, format: .jpeg, width: 4000, height: 3000) == 4000 * 3000 * 6 + DecodingMemory.overhead)
    }

    /// libvips holds about two thousand lines of a PNG while it shrinks it, each as wide as the picture in its own
    /// sample size: a 16-bit RGBA picture 8,000 wide took 130 MB more than an idle process, twenty times what was
    /// counted when every PNG was taken for 64 lines of 8 bytes a pixel.
    @Test func aSixteenBitPNGIsCountedAtWhatItsLinesHold() throws {
        let rgba16 = Self.pngHeader(width: 8000, height: 8000, depth: 16, colour: 6)
        #expect(DecodingMemory.bytes(of: rgba16, format: .png, width: 8000, height: 8000) >= 130 * 1_048_576)
        let rgb8 = Self.pngHeader(width: 8000, height: 8000, depth: 8, colour: 2)
        #expect(DecodingMemory.bytes(of: rgb8, format: .png, width: 8000, height: 8000) >= 30 * 1_048_576, "30 MB measured")
        let short = Self.pngHeader(width: 8000, height: 100, depth: 8, colour: 2)
        #expect(DecodingMemory.bytes(of: short, format: .png, width: 8000, height: 100) == 8000 * 3 * 100 + DecodingMemory.overhead)
    }

    private static func pngHeader(width: Int, height: Int, depth: UInt8, colour: UInt8) -> [UInt8] {
        func bigEndian(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + bigEndian(width) + bigEndian(height)
            + [depth, colour, 0, 0, 0]
    }

    @Test func aBaselineJPEGIsCountedAsDecodedAlreadyShrunk() {
        let header = Self.jpegHeader(progressive: false, width: 4000, height: 3000, sampling: [0x22, 0x11, 0x11])
        let bytes = DecodingMemory.bytes(of: header, format: .jpeg, width: 4000, height: 3000)
        #expect(bytes == 500 * 375 * 3 + DecodingMemory.overhead, "a 12-megapixel photo shrunk by 8 as it is decoded")
    }

    @Test func formatsDecodedWholeCountTheirWholePicture() {
        #expect(DecodingMemory.bytes(of: [], format: .gif, width: 8000, height: 4000) == 8000 * 4000 * 8 + DecodingMemory.overhead)
        #expect(DecodingMemory.bytes(of: [], format: .bmp, width: 6000, height: 4000) == 6000 * 4000 * 16 + DecodingMemory.overhead)
    }

    /// The header is read here, never by libvips: what it declares must be what libvips reads once it may.
    @Test func theRepositorysPicturesAreCountedFromTheirHeaders() throws {
        let maker = ThumbnailMaker()
        for file in ["photo.jpg", "picture.png", "picture.webp", "picture.gif", "picture.bmp", "picture.heic"] {
            let picture = try Pictures.bytes(file)
            let inspected = try maker.inspect(picture)
            #expect(inspected.decodingBytes >= DecodingMemory.overhead && inspected.decodingBytes < 8 * 1_048_576, "\(file)")
            let read = try ThumbnailMaker.dimensions(of: picture)
            #expect(inspected.width * inspected.height == read.width * read.height, "\(file): \(inspected.width) × \(inspected.height)")
        }
    }

    /// A header alone, with nothing to decode behind it, is inspected all the same: nothing but this reader saw it.
    @Test func inspectingReadsNothingButTheHeader() throws {
        let header = Self.pngHeader(width: 3000, height: 2000, depth: 8, colour: 2)
        let inspected = try ThumbnailMaker().inspect(header)
        #expect(inspected.width == 3000 && inspected.height == 2000)
        #expect(throws: ShareError.self) { try ThumbnailMaker().thumbnail(of: inspected) }
    }
}
