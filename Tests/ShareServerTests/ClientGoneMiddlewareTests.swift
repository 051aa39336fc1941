import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import ShareServer

/// Which reads are watched for a client that leaves: watching costs a task a request, so the quick page of the
/// newest shares is not, and every read that can take long is.
@Suite struct ClientGoneMiddlewareTests {
    private func watched(_ path: String, prefix: String = "") -> Bool {
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path), body: .init(buffer: ByteBuffer()))
        return ClientGoneMiddleware(ends: ConnectionEnds(), pathPrefix: prefix).mayTakeLong(request)
    }

    @Test func readsThatCanTakeLongAreWatchedAndThePlainPageIsNot() {
        for path in ["/share?q=report", "/share?sort=size", "/share?date=2021-01-17&limit=5", "/share/stats", "/share/export", "/share/ABC/events"] {
            #expect(watched(path), "\(path)")
        }
        for path in ["/share", "/share?limit=100&order=asc", "/share?cursor=abc&tz=Europe/Paris", "/share/ABC", "/healthz", "/me"] {
            #expect(!watched(path), "\(path)")
        }
        #expect(watched("/files/share/stats", prefix: "/files") && !watched("/files/share", prefix: "/files"))
    }
}
