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
        let calls: [@Sendable () async throws -> Void] = [
            { _ = try await client.size(of: "kept") }, { _ = try await client.get("kept") }, { _ = try await client.list() },
        ]
        for call in calls {
            await #expect {
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
}
