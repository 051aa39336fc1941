import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

/// The ZIP a link's *Download all* streams, laid out before its first byte: if a record, an offset or a size were off
/// by one, an unzipping tool would refuse the archive or extract a file wrong, and a resumed download would splice two
/// different archives. Each archive here is read by Python's `zipfile`, `unzip -t` and `bsdtar`.
@Suite struct ZipArchiveTests {
    /// The archive of `files` (name, bytes) written whole into a file, through its pieces.
    private func written(_ files: [(String, [UInt8])], in folder: URL) throws -> (archive: ZipArchive, path: String) {
        let listed = try BundleFiles.validate(files.map { ($0.0, Int64($0.1.count)) })
        let checksums = files.map { file in
            var crc = CRC32()
            file.1.withUnsafeBytes { crc.update($0) }
            return crc.value
        }
        let archive = ZipArchive(files: listed, checksums: checksums, modified: Timestamp(rfc3339: "2021-01-17T12:34:56Z")!)
        let data = files.flatMap(\.1)
        let bytes = assemble(archive, 0..<archive.length, data)
        #expect(Int64(bytes.count) == archive.length, "the length announced is the length sent")
        let path = folder.appending(path: "files.zip").path
        try Data(bytes).write(to: URL(filePath: path))
        return (archive, path)
    }

    private func assemble(_ archive: ZipArchive, _ range: Range<Int64>, _ data: [UInt8]) -> [UInt8] {
        archive.pieces(in: range).flatMap { piece -> [UInt8] in
            switch piece {
            case .records(let bytes): return bytes
            case .data(let part): return Array(data[Int(part.lowerBound)..<Int(part.upperBound)])
            }
        }
    }

    private func sha256(_ bytes: [UInt8]) throws -> String {
        let file = FileManager.default.temporaryDirectory.appending(path: "zip-entry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        return String(try ChildProcess.output(of: "/usr/bin/sha256sum", [file.path]).prefix(64))
    }

    @Test func filesWithTheirTreeAndUnicodeNamesComeOutAsTheyWent() throws {
        let folder = try temporaryFolder("zip-names")
        let files: [(String, [UInt8])] = [
            ("photos/été/Zoé.jpg", Array(repeating: 0xFF, count: 70_000)), ("photos/empty.txt", []), ("报告.pdf", Array("%PDF".utf8)),
            ("notes.md", Array("# Notes\n".utf8)),
        ]
        let (_, path) = try written(files, in: folder)
        let entries = try ZipTools.entries(of: path)
        #expect(entries.map(\.name) == files.map(\.0), "UTF-8 names, the tree kept, in order")
        #expect(entries.map(\.size) == files.map { Int64($0.1.count) })
        #expect(entries.map(\.sha256) == (try files.map { try sha256($0.1) }))
    }

    @Test func anyRangeIsTheSameBytesAsTheWholeArchive() throws {
        let folder = try temporaryFolder("zip-ranges")
        var random = SplitMix(seed: 17)
        let files = (0..<40).map { index in
            ("f\(index).bin", (0..<Int(random.next() % 3_000)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        let (archive, path) = try written(files, in: folder)
        let whole = Array(try Data(contentsOf: URL(filePath: path)))
        let data = files.flatMap(\.1)
        for _ in 0..<500 {
            let start = Int64(random.next() % UInt64(archive.length))
            let end = start + Int64(random.next() % UInt64(archive.length - start + 1))
            #expect(assemble(archive, start..<end, data) == Array(whole[Int(start)..<Int(end)]), "bytes \(start)..<\(end)")
            #expect(archive.dataBytes(in: start..<end) <= end - start)
        }
        #expect(archive.dataBytes(in: 0..<archive.length) == Int64(data.count), "the whole archive holds every file's bytes once")
    }

    @Test func pastSixtyFiveThousandFilesTheArchiveIsZIP64() throws {
        let folder = try temporaryFolder("zip-count")
        let files = (0..<65_537).map { ("many/\($0).txt", [UInt8(truncatingIfNeeded: $0)]) }
        let (_, path) = try written(files, in: folder)
        let entries = try ZipTools.entries(of: path)
        #expect(entries.count == 65_537 && entries.last?.name == "many/65536.txt")
    }

    /// A file past 4 GiB, its bytes a hole of a sparse file: sizes and the next entry's offset need ZIP64's fields.
    @Test func aFilePastFourGiBAndTheOneAfterItAreReadBack() throws {
        let folder = try temporaryFolder("zip-large")
        let large = Int64(4 << 30) + 12_345
        let tail = Array("after the large one".utf8)
        let listed = try BundleFiles.validate([("big/zeros.bin", large), ("big/tail.txt", Int64(tail.count))])
        var zeros = CRC32()
        let block = [UInt8](repeating: 0, count: 1 << 20)
        var left = large
        while left > 0 {
            block.withUnsafeBytes { zeros.update(UnsafeRawBufferPointer(rebasing: $0[..<Int(min(left, Int64(block.count)))])) }
            left -= Int64(block.count)
        }
        var tailCRC = CRC32()
        tail.withUnsafeBytes { tailCRC.update($0) }
        let archive = ZipArchive(files: listed, checksums: [zeros.value, tailCRC.value], modified: .now())
        #expect(archive.length > large + Int64(tail.count))
        let path = folder.appending(path: "large.zip").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var position: Int64 = 0
        for piece in archive.pieces(in: 0..<archive.length) {
            switch piece {
            case .records(let bytes):
                try handle.seek(toOffset: UInt64(position))
                try handle.write(contentsOf: bytes)
                position += Int64(bytes.count)
            case .data(let part) where part.lowerBound >= large:
                try handle.seek(toOffset: UInt64(position))
                try handle.write(contentsOf: tail[Int(part.lowerBound - large)..<Int(part.upperBound - large)])
                position += Int64(part.count)
            case .data(let part):
                position += Int64(part.count)  // zeros: a hole
            }
        }
        try handle.truncate(atOffset: UInt64(archive.length))
        try handle.close()
        let entries = try ZipTools.entries(of: path)
        #expect(entries.map(\.name) == ["big/zeros.bin", "big/tail.txt"] && entries.map(\.size) == [large, Int64(tail.count)])
        #expect(entries.last?.sha256 == (try sha256(tail)), "the entry after 4 GiB is found where its offset says")
    }
}
