import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// File requests on every store and every kind of bytes: a file sent through one becomes a share of its owner, in its
/// folder, marked as received; its limits hold for senders racing each other, and a closed, expired or deleted one
/// takes nothing. If they broke, an owner would find files outside the folder they asked, more than they asked for,
/// or arriving after they closed the link.
@Suite struct FileRequestTests {
    private static func draft(maxFiles: Int64? = nil, maxBytes: Int64? = nil, expiresAt: Timestamp? = nil) -> RequestDraft {
        RequestDraft(title: "Tax papers", folder: "/taxes", maxFiles: maxFiles, maxBytes: maxBytes, expiresAt: expiresAt, code: "ABCD2345")
    }

    @Test(arguments: Backend.everyKindOfBytes)
    func aFileSentThroughARequestIsAShareOfItsOwnerInItsFolder(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let request = try await alice.createRequest(Self.draft(maxFiles: 3), now: .now())
            #expect(request.state == .open && request.received == 0 && request.code == "ABCD2345")
            let token = try #require(request.token)
            let opened = try #require(try await store.openRequest(token: token, now: .now()))
            #expect(opened.owner == "alice" && opened.request.id == request.id, "the link finds its request and whose it is")

            let started = try await alice.startUpload(try NewShare.sent(named: "w2.pdf", size: 9, through: request), now: .now())
            #expect(try await alice.upload(id: started.id).request == request.id, "the upload names its request")
            let bytes = Array("form W-2!".utf8)
            await #expect(throws: UploadBody.BrokenOff.self) {
                try await alice.appendToUpload(id: started.id, at: 0, UploadBody.of(bytes, piece: 3, breaksAfter: 6), now: .now(), by: "request:x")
            }
            let held = try await alice.upload(id: started.id).offset
            let finished = try await alice.appendToUpload(
                id: started.id, at: held, UploadBody.of(bytes[Int(held)...]), now: .now(), by: FileRequest.source(id: request.id))
            let share = try #require(finished.share)
            #expect(share.folder == "/taxes" && share.source == "request:\(request.id)" && share.stored == true)
            #expect(try await store.download(token: #require(share.linkToken)) == bytes)
            let event = try #require(try await alice.events(id: share.id, after: 0, limit: 10).events.last)
            #expect(event.action == .received && event.by == "request:\(request.id)", "its arrival is the event received")
            #expect(try await alice.request(id: request.id.lowercased(), now: .now()).received == 1, "ids read whatever their case")
            #expect(try await alice.requests(now: .now()).map(\.id) == [request.id])

            let bob = store.history(of: "bob", quota: nil)
            await #expect(throws: FileRequestError.notFound(id: request.id)) { try await bob.request(id: request.id, now: .now()) }
            #expect(try await bob.requests(now: .now()).isEmpty, "another history's requests are not listed")
            await #expect(throws: FileRequestError.closed(.closed)) {
                try await bob.startUpload(try NewShare.sent(named: "x.pdf", size: 1, through: request), now: .now())
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func ofSendersRacingForTheLastPlaceOneWins(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let request = try await alice.createRequest(Self.draft(maxFiles: 2), now: .now())
            _ = try await alice.startUpload(try NewShare.sent(named: "first.pdf", size: 0, through: request), now: .now())
            let outcomes = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        do {
                            return try await alice.startUpload(try NewShare.sent(named: "racer \(index).pdf", size: 5, through: request), now: .now())
                                .id
                        } catch FileRequestError.full(maxFiles: 2) {
                            return nil
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.compactMap { $0 }
            #expect(winners.count == 1, "one of eight senders takes the last place: \(outcomes)")
            try await alice.abandonUpload(id: winners[0])
            // An abandoned upload gives its place back.
            _ = try await alice.startUpload(try NewShare.sent(named: "late.pdf", size: 5, through: request), now: .now())
        }
    }

    @Test(arguments: Backend.allCases)
    func aClosedExpiredOrDeletedRequestTakesNothingAndItsLimitsHold(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: 1000)
            let now = Timestamp.now()
            let request = try await alice.createRequest(Self.draft(maxBytes: 100, expiresAt: now.adding(.seconds(3600))), now: now)
            await #expect(throws: FileRequestError.tooLarge(maxBytes: 100)) {
                try await alice.startUpload(try NewShare.sent(named: "big.pdf", size: 101, through: request), now: now)
            }
            let widened = try await alice.changeRequest(id: request.id, RequestChange(maxBytes: .some(nil)), now: now)
            #expect(widened.maxBytes == nil)
            await #expect(throws: ShareError.self, "the owner's quota counts what is sent") {
                try await alice.startUpload(try NewShare.sent(named: "huge.pdf", size: 1001, through: request), now: now)
            }
            let later = now.adding(.seconds(7200))
            #expect(try await alice.request(id: request.id, now: later).state == .expired)
            await #expect(throws: FileRequestError.closed(.expired)) {
                try await alice.startUpload(try NewShare.sent(named: "late.pdf", size: 1, through: request), now: later)
            }
            let onItsWay = try await alice.startUpload(try NewShare.sent(named: "half.pdf", size: 500, through: request), now: now)
            #expect(try await alice.quotaUsage().total == 500, "a file on its way holds the owner's quota")
            let closed = try await alice.changeRequest(id: request.id, RequestChange(closed: true), now: now)
            #expect(closed.state == .closed && closed.closedAt != nil)
            await #expect(throws: ShareError.uploadNotFound(id: onItsWay.id), "closing drops the files on their way") {
                try await alice.upload(id: onItsWay.id)
            }
            #expect(try await alice.quotaUsage().total == 0, "and frees the quota they held")
            await #expect(throws: FileRequestError.closed(.closed)) {
                try await alice.startUpload(try NewShare.sent(named: "a.pdf", size: 1, through: request), now: now)
            }
            _ = try await alice.changeRequest(id: request.id, RequestChange(closed: false), now: now)
            for index in 0..<FileRequest.maxInProgress {
                _ = try await alice.startUpload(try NewShare.sent(named: "part \(index).pdf", size: 1, through: request), now: now)
            }
            await #expect(throws: FileRequestError.busy(limit: FileRequest.maxInProgress), "files on their way at once are bounded") {
                try await alice.startUpload(try NewShare.sent(named: "one more.pdf", size: 1, through: request), now: now)
            }
            try await alice.deleteRequest(id: request.id.lowercased())
            #expect(try await alice.quotaUsage().total == 0, "deleting drops the files on their way")
            let token = try #require(request.token)
            #expect(try await store.openRequest(token: token, now: now) == nil, "a deleted request's link opens nothing")
            await #expect(throws: FileRequestError.notFound(id: request.id)) { try await alice.deleteRequest(id: request.id) }
        }
    }
}
