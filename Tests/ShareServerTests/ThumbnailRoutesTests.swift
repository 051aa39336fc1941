import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ShareHistory
import ShareKit
import ShareSQLite
import ShareTestSupport
import Testing

/// `PUT`, `GET` and `DELETE /share/{id}/thumbnail`: what the page shows in a picture's row, and what a hostile upload
/// must never get past.
@Suite struct ThumbnailRoutesTests {
    private static func put(
        _ client: some TestClientProtocol, _ id: String, _ picture: [UInt8], type: String = "image/jpeg", headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = type
        return try await client.execute(uri: "/share/\(id)/thumbnail", method: .put, headers: headers, body: ByteBuffer(bytes: picture))
    }

    @Test func aPictureSentForARecordIsServedAsItsThumbnailAndListedAsHavingOne() async throws {
        try await withServer { client in
            let photo = try await client.create(#""name": "photo.jpg", "size": 4662"#)
            let other = try await client.create(#""name": "notes.txt", "size": 10"#)
            let before = try await client.send(.get, "/share").headers[.eTag]
            let stored = try await Self.put(client, photo.id, try Pictures.bytes("photo.jpg"))
            #expect(stored.status == .ok, "\(stored.text)")
            #expect(try stored.decode(ShareRecord.self).thumbnail == true)

            let listing = try await client.send(.get, "/share")
            #expect(listing.headers[.eTag] != before, "the listing changed: its ETag must too")
            let records = try listing.decode([ShareRecord].self)
            #expect(records.first { $0.id == photo.id }?.thumbnail == true)
            #expect(records.first { $0.id == other.id }?.thumbnail == nil)
            #expect(!listing.text.contains(#""thumbnail":false"#))

            let thumbnail = try await client.send(.get, "/share/\(photo.id)/thumbnail")
            #expect(thumbnail.status == .ok)
            #expect(thumbnail.headers[.contentType] == "image/webp")
            #expect(thumbnail.headers[.xContentTypeOptions] == "nosniff")
            #expect(thumbnail.headers[.cacheControl] == "private, max-age=86400")
            #expect(Array(buffer: thumbnail.body).starts(with: Array("RIFF".utf8)))
            let etag = try #require(thumbnail.headers[.eTag])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong ETag")
            let again = try await client.send(.get, "/share/\(photo.id)/thumbnail", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            for header in [#""older", W/\#(etag)"#, "*"] {
                let listed = try await client.send(.get, "/share/\(photo.id)/thumbnail", headers: [.ifNoneMatch: header])
                #expect(listed.status == .notModified, "If-None-Match: \(header)")
            }

            // Another picture replaces it, with a new tag.
            #expect(try await Self.put(client, photo.id, try Pictures.bytes("picture.png"), type: "image/png").status == .ok)
            #expect(try await client.send(.get, "/share/\(photo.id)/thumbnail").headers[.eTag] != etag)

            #expect(try await client.send(.delete, "/share/\(photo.id)/thumbnail").status == .noContent)
            let gone = try await client.send(.get, "/share/\(photo.id)/thumbnail")
            #expect(gone.status == .notFound)
            #expect(gone.problemDetail == "the share with id '\(photo.id)' has no thumbnail")
            #expect(try await client.send(.get, "/share/\(photo.id)").decode(ShareRecord.self).thumbnail == nil)
            #expect(try await client.send(.delete, "/share/\(photo.id)/thumbnail").status == .notFound)
        }
    }

    @Test(arguments: [
        ("drawing.svg", "image/svg+xml", HTTPResponse.Status.unsupportedMediaType, "Content-Type"),
        ("drawing.svg", "image/png", .unsupportedMediaType, "is not a picture in a format thumbnails are made from"),
        ("bomb.png", "image/png", .badRequest, "is 30000 × 30000 pixels, more than the 100000000 thumbnails are made from in PNG"),
        ("truncated.jpg", "image/jpeg", .badRequest, "cannot be read as JPEG"),
        ("make.py", "image/jpeg", .unsupportedMediaType, "is not a picture"),
    ])
    func aPictureThatCannotBeUsedIsAProblemNamingWhy(file: String, type: String, status: HTTPResponse.Status, reason: String) async throws {
        try await withServer { client in
            let record = try await client.create(#""name": "picture.png", "size": 1"#)
            let response = try await Self.put(client, record.id, try Pictures.bytes(file), type: type)
            #expect(response.status == status)
            #expect(response.problemDetail.contains(reason), "\(response.problemDetail)")
            #expect(try await client.send(.get, "/share/\(record.id)").decode(ShareRecord.self).thumbnail == nil)
        }
    }

    /// A run-length BMP of a few hundred bytes declaring 7,000 × 7,000 pixels: ImageMagick's header read alone
    /// unpacks the whole picture, so it is refused from the header this daemon reads itself, naming the memory.
    @Test func aPictureLargeToDecodeIsRefusedBeforeAnyDecoderSeesIt() async throws {
        func littleEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let palette: [UInt8] = (0..<256).flatMap { [UInt8($0), UInt8($0), UInt8($0), 0] }
        let offset = 14 + 40 + palette.count
        let header = Array("BM".utf8) + littleEndian(offset + 2, 4) + littleEndian(0, 4) + littleEndian(offset, 4)
        let info =
            littleEndian(40, 4) + littleEndian(7000, 4) + littleEndian(7000, 4) + littleEndian(1, 2) + littleEndian(8, 2)
            + littleEndian(1, 4) + littleEndian(2, 4) + littleEndian(2835, 4) + littleEndian(2835, 4) + littleEndian(256, 4) + littleEndian(0, 4)
        let bitmap: [UInt8] = header + info + palette + [0x00, 0x01]
        try await withServer { client in
            let record = try await client.create(#""name": "scan.bmp", "size": 1"#)
            let response = try await Self.put(client, record.id, bitmap, type: "image/bmp")
            #expect(response.status == .badRequest)
            #expect(response.problemDetail.contains("is 7000 × 7000 pixels of BMP, whose decoding takes 751 MiB"), "\(response.problemDetail)")
        }
    }

    @Test func anEmptyAnOversizedOrAMisaddressedPictureIsRefused() async throws {
        try await withServer({ $0.server.maxPictureBytes = 4000 }) { client in
            let record = try await client.create(#""name": "picture.png", "size": 1"#)
            let empty = try await Self.put(client, record.id, [])
            #expect(empty.status == .badRequest && empty.problemDetail == "the picture (the request body) is empty")
            #expect(try await Self.put(client, record.id, try Pictures.bytes("photo.jpg")).status == .contentTooLarge)
            #expect(try await Self.put(client, record.id, try Pictures.bytes("picture.png"), type: "image/png").status == .ok)
            let missing = try await Self.put(client, "NOSUCH", try Pictures.bytes("picture.png"), type: "image/png")
            #expect(missing.status == .notFound && missing.problemDetail == "no share with id 'NOSUCH'")
        }
    }

    @Test func anExportCarriesThumbnailsAndItsImportGivesTheSameExport() async throws {
        let exported = try await withServer { client in
            let photo = try await client.create(#""name": "photo.jpg", "size": 4662"#)
            try await client.create(#""name": "notes.txt", "size": 10"#)
            let gif = try await client.create(#""name": "old.gif", "size": 5728"#)
            #expect(try await Self.put(client, photo.id, try Pictures.bytes("photo.jpg")).status == .ok)
            #expect(try await Self.put(client, gif.id, try Pictures.bytes("picture.gif"), type: "image/gif").status == .ok)
            #expect(try await client.send(.delete, "/share/\(gif.id)").status == .noContent)
            return try await client.send(.get, "/share/export?trashed=include").text
        }
        let lines = exported.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.filter { $0.contains(#""thumbnail":true,"thumbnailImage":""#) }.count == 2)
        try await withServer { client in
            let report = try await client.send(.post, "/share/import", exported, headers: [.contentType: "application/x-ndjson"])
            #expect(try report.decode(ImportReport.self).imported == 3, "\(report.text)")
            #expect(try await client.send(.get, "/share/export?trashed=include").text == exported)
            let photo = try #require(try await client.send(.get, "/share").decode([ShareRecord].self).first { $0.name == "photo.jpg" })
            #expect(try await client.send(.get, "/share/\(photo.id)/thumbnail").status == .ok)
        }
    }

    /// An import is no way around the decoder: it takes back only thumbnails as this server makes them.
    @Test func anImportedThumbnailThatIsNotOneOfOursRejectsItsRecord() async throws {
        let png = Data(try Pictures.bytes("picture.png")).base64EncodedString()
        let tooLarge = Data(try Pictures.bytes("picture.webp")).base64EncodedString()
        try await withServer { client in
            let lines = [
                #"{"name": "a.png", "size": 1, "thumbnailImage": "\#(png)"}"#,
                #"{"name": "b.webp", "size": 1, "thumbnailImage": "not base64 at all"}"#,
                #"{"name": "c.webp", "size": 1, "thumbnailImage": "\#(tooLarge)"}"#,
                #"{"name": "d.txt", "size": 1}"#,
            ]
            let report = try await client.send(.post, "/share/import", lines.joined(separator: "\n"), headers: [.contentType: "application/x-ndjson"])
                .decode(ImportReport.self)
            #expect(report.imported == 1)
            #expect(report.problems.map(\.line) == [1, 2, 3])
            #expect(report.problems.allSatisfy { $0.detail.hasPrefix("field 'thumbnailImage' must be a thumbnail as an export holds it") })
        }
    }

    @Test func anotherUsersThumbnailIsAnsweredAsOneThatDoesNotExist() async throws {
        let (bob, carol) = (TwoUsers.bob, TwoUsers.carol)
        try await withServer(TwoUsers.configure) { client in
            let created = try await client.send(.post, "/share", #"{"name": "bob.png", "size": 5, "id": "BOB-1"}"#, headers: bob)
            #expect(created.status == .created)
            #expect(try await Self.put(client, "BOB-1", try Pictures.bytes("picture.png"), type: "image/png", headers: bob).status == .ok)
            for method in [HTTPRequest.Method.get, .delete, .put] {
                let theirs = try await client.execute(
                    uri: "/share/BOB-1/thumbnail", method: method, headers: carol.merging([.contentType: "image/png"]),
                    body: method == .put ? ByteBuffer(bytes: try Pictures.bytes("picture.png")) : nil)
                let nobodys = try await client.execute(
                    uri: "/share/NOBODY/thumbnail", method: method, headers: carol.merging([.contentType: "image/png"]),
                    body: method == .put ? ByteBuffer(bytes: try Pictures.bytes("picture.png")) : nil)
                #expect(theirs.status == .notFound, "\(method)")
                #expect(String(buffer: theirs.body).replacingOccurrences(of: "BOB-1", with: "NOBODY") == String(buffer: nobodys.body), "\(method)")
            }
            #expect(try await client.send(.get, "/share/BOB-1/thumbnail", headers: bob).status == .ok, "bob's stays his")
        }
    }
}

extension HTTPFields {
    fileprivate func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged[field.name] = field.value }
        return merged
    }
}
