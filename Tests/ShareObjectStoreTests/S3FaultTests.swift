import Foundation
import NIOCore
import StoreTestSupport
import Testing

@testable import ShareObjectStore

/// A store that stops answering: a recipient's download or an owner's upload must fail with a message naming it, in
/// the time a request has, never hang; and work again once the store is back.
@Suite(.serialized) struct S3FaultTests {
    @Test func aFrozenStoreEndsEveryCallByItsDeadlineAndServesAgainOnceItWakes() async throws {
        let store = try OwnS3Store()
        // A new store's first write makes its volumes, which takes seconds: only the calls under test are hurried.
        let patient = try store.client(timeout: .seconds(60))
        try await patient.put("kept", ByteBuffer(string: "kept"), sha256: SignatureV4.sha256(Data("kept".utf8)))
        let client = try store.client(timeout: .seconds(3))
        try store.pause()
        // Each call would otherwise wait for ever: the bound is its deadline, with room for a busy machine.
        let started = ContinuousClock.now
        // Reads only: a write the client gave up on still reaches the store once it wakes (its request was sent).
        let calls: [(name: String, call: @Sendable () async throws -> Void)] = [
            ("HEAD", { _ = try await client.size(of: "kept") }), ("GET", { _ = try await client.get("kept") }),
            ("list", { _ = try await client.list() }),
        ]
        for (name, call) in calls {
            await #expect("\(name) while the store is frozen") {
                try await call()
            } throws: {
                guard case .unreachable(let store, _) = $0 as? S3Failure else { return false }
                return store == client.location.description
            }
        }
        #expect(ContinuousClock.now - started < .seconds(60))
        try store.resume()
        #expect(try await patient.size(of: "kept") == 4)
        #expect(try await TestS3.bytes(patient.get("kept")) == Array("kept".utf8))
    }

    /// A store that freezes amid a download: the recipient's read fails, naming the store, once it has sent nothing
    /// for the client's time, rather than hold the download (and its connection) for ever.
    @Test func aStoreFreezingAmidAnObjectFailsTheReadByItsDeadline() async throws {
        let store = try OwnS3Store()
        let patient = try store.client(timeout: .seconds(60))
        // More than the sockets between the store and its reader hold, so that most of it is still to be sent.
        let bytes = [UInt8](repeating: 7, count: 64 * 1_048_576)
        try await patient.put("large", ByteBuffer(bytes: bytes), sha256: SignatureV4.sha256(bytes))
        let client = try store.client(timeout: .seconds(3))
        let object = try #require(try await client.get("large"))
        var pieces = object.body.makeAsyncIterator()
        _ = try await pieces.next()
        try store.pause()
        let frozen = ContinuousClock.now
        var received = 0
        await #expect {
            while let piece = try await pieces.next() { received += piece.readableBytes }
        } throws: {
            guard case .unreachable(let name, _) = $0 as? S3Failure else { return false }
            return name == client.location.description
        }
        #expect(received < bytes.count)
        #expect(ContinuousClock.now - frozen < .seconds(60), "bounded by the client's time, with room for a busy machine")
        try store.resume()
    }

    /// A store that answers `503 SlowDown` or `500`, as one does when busy or failing: a read is asked again, a little
    /// later each time, and succeeds once the store serves again; a store that keeps failing fails the call, naming
    /// the store and its answer, by the call's deadline; a `POST` (a multipart upload begun), which two answers could
    /// make twice, is never sent again.
    @Test func aStoreAnsweringSlowDownOr500IsAskedAgainWhereThatIsSafe() async throws {
        let front = try S3FaultFront(rules: ["GET:2:503:SlowDown", "HEAD:1000:500:InternalError", "POST:1:503:SlowDown"])
        // Room for a busy machine, on which the front itself may be slow; the failing store's client is hurried.
        let client = try front.client(timeout: .seconds(60))
        try await client.put("kept", ByteBuffer(string: "kept"), sha256: SignatureV4.sha256(Data("kept".utf8)))

        #expect(try await TestS3.bytes(client.get("kept")) == Array("kept".utf8), "read after two SlowDowns")
        let hurried = try front.client(timeout: .seconds(10))
        let started = ContinuousClock.now
        await #expect {
            _ = try await hurried.size(of: "kept")
        } throws: {
            guard case .refused(let store, let status, _, _) = $0 as? S3Failure else { return false }
            return store == hurried.location.description && status == 500
        }
        #expect(ContinuousClock.now - started < .seconds(60), "bounded by the call's deadline, with room for a busy machine")
        await #expect {
            _ = try await client.startMultipart("parts")
        } throws: { ($0 as? S3Failure)?.code == "SlowDown" }

        let seen = try front.seen()
        #expect(seen.filter { $0.hasPrefix("GET") } == ["GET 503", "GET 503", "GET 200"])
        #expect(seen.filter { $0.hasPrefix("HEAD") }.count >= 2, "a failing store is asked again until the deadline: \(seen)")
        #expect(seen.filter { $0.hasPrefix("POST") } == ["POST 503"], "a multipart upload is begun once")
    }
}
