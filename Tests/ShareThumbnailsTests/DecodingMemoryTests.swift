import ShareKit
import ShareTestSupport
import Testing

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

    @Test func aBaselineJPEGIsCountedAsDecodedAlreadyShrunk() {
        let header = Self.jpegHeader(progressive: false, width: 4000, height: 3000, sampling: [0x22, 0x11, 0x11])
        let bytes = DecodingMemory.bytes(of: header, format: .jpeg, width: 4000, height: 3000)
        #expect(bytes == 500 * 375 * 3 + DecodingMemory.overhead, "a 12-megapixel photo shrunk by 8 as it is decoded")
    }

    @Test func formatsDecodedWholeCountTheirWholePicture() {
        #expect(DecodingMemory.bytes(of: [], format: .gif, width: 8000, height: 4000) == 8000 * 4000 * 8 + DecodingMemory.overhead)
        #expect(DecodingMemory.bytes(of: [], format: .bmp, width: 6000, height: 4000) == 6000 * 4000 * 16 + DecodingMemory.overhead)
    }

    @Test func theRepositorysPicturesAreCountedFromTheirHeaders() throws {
        let maker = ThumbnailMaker()
        for file in ["photo.jpg", "picture.png", "picture.webp", "picture.gif", "picture.bmp", "picture.heic"] {
            let inspected = try maker.inspect(try Pictures.bytes(file))
            #expect(inspected.decodingBytes >= DecodingMemory.overhead && inspected.decodingBytes < 8 * 1_048_576, "\(file)")
        }
    }
}
