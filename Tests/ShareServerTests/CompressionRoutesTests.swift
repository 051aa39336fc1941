import CompressNIO
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ShareKit
import Testing

/// Text responses travel gzip-compressed to a client that accepts it: a phone on a slow network loads the page and
/// its lists in a fraction of the bytes, and reads exactly the same thing.
@Suite struct CompressionRoutesTests {
    private static let gzip: HTTPFields = [.acceptEncoding: "br;q=0.9, gzip"]

    @Test func aListingIsCompressedForAClientThatAcceptsGzipAndReadsTheSame() async throws {
        try await withServer { client in
            for index in 0..<40 { try await client.create(#""name": "report \#(index).pdf", "size": \#(index)"#) }
            let plain = try await client.send(.get, "/share")
            let compressed = try await client.send(.get, "/share", headers: Self.gzip)
            #expect(plain.headers[.contentEncoding] == nil, "a client that does not ask gets plain text")
            #expect(compressed.headers[.contentEncoding] == "gzip")
            #expect(compressed.headers[.vary] == "Accept-Encoding" && plain.headers[.vary] == "Accept-Encoding", "every form says Vary")
            let tags = (compressed.headers[.eTag] ?? "", plain.headers[.eTag] ?? "")
            #expect(!tags.0.isEmpty && !tags.1.isEmpty && tags.0 != tags.1, "each form has its own strong tag: \(tags)")
            let revalidated = try await client.send(.get, "/share", headers: Self.gzip + [.ifNoneMatch: #"W/"other", \#(tags.0)"#])
            #expect(revalidated.status == .notModified && revalidated.headers[.eTag] == tags.0, "a list of tags, as RFC 9110 has it")
            #expect(try await client.send(.get, "/share", headers: [.ifNoneMatch: tags.0]).status == .ok, "the gzip tag is not the plain form's")
            var body = compressed.body
            let unpacked = try body.decompress(with: .gzip())
            #expect(String(buffer: unpacked) == plain.text)
            #expect(
                compressed.body.readableBytes * 4 < plain.body.readableBytes, "\(compressed.body.readableBytes) of \(plain.body.readableBytes) bytes")
        }
    }

    @Test func smallAnswersRefusedCodingsHeadAndPicturesGoAsTheyAre() async throws {
        try await withServer { client in
            for index in 0..<40 { try await client.create(#""name": "report \#(index).pdf", "size": \#(index)"#) }
            #expect(try await client.send(.get, "/me", headers: Self.gzip).headers[.contentEncoding] == nil, "under a kilobyte")
            #expect(try await client.send(.get, "/share", headers: [.acceptEncoding: "gzip;q=0, identity"]).headers[.contentEncoding] == nil)
            let head = try await client.send(.head, "/share", headers: Self.gzip)
            #expect(head.headers[.contentEncoding] == nil && head.status == .ok)
            let page = try await client.send(.get, "/", headers: [.acceptEncoding: "*"])
            #expect(page.headers[.contentEncoding] == "gzip", "the web page's files too")
        }
    }
}
