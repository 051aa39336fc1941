import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// What a link's page says besides the file — who sent it and a message — on every store: kept with the share from
/// its making (a record, an upload) through changes, listings and an export, cleared when asked, each on its own.
@Suite struct GreetingTests {
    @Test(arguments: Backend.allCases)
    func theSenderAndMessageTravelWithTheShareAndClearOneByOne(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            var new = try NewShare(id: nil, name: "contract.pdf", folder: nil, createdAt: nil, size: 10)
            new.link = NewLink(source: "https://drive.example.com/s/abc", sender: "Zoé Martin", message: "Signed,\n\"page 4\".")
            let made = try await alice.createShare(new)
            #expect(made.sender == "Zoé Martin" && made.message == "Signed,\n\"page 4\".")
            #expect(try await alice.share(id: made.id) == made)
            #expect(try await store.openLink(token: made.linkToken!)?.share.message == made.message, "what the link's page reads")
            let listed = try #require(try await alice.listShares(ShareQuery()).records.first)
            #expect(listed.sender == made.sender && listed.message == made.message)
            let exported = String(decoding: try await alice.exportChunk(after: 0, limit: 10, includingTrash: false).lines, as: UTF8.self)
            #expect(exported.contains(#""message":"Signed,\n\"page 4\".""#) && exported.contains(#""sender":"Zoé Martin""#))

            let renamed = try await alice.updateShare(id: made.id, SharePatch(name: nil, folder: nil, link: LinkChange(message: "Page 5.")))
            #expect(renamed.message == "Page 5." && renamed.sender == "Zoé Martin", "a change of one leaves the other")
            let cleared = try await alice.updateShare(id: made.id, SharePatch(name: nil, folder: nil, link: LinkChange(sender: .some(nil))))
            #expect(cleared.sender == nil && cleared.message == "Page 5.")
            #expect(try await alice.share(id: made.id) == cleared)
            #expect(try await alice.events(id: made.id, after: 0, limit: 10).events.map(\.action) == [.created], "its page text changes no event")
        }
    }

    @Test(arguments: Backend.allCases)
    func anUploadsShareSaysWhatItsStartSaid(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            var new = try NewShare(id: nil, name: "photo.jpg", folder: nil, createdAt: nil, size: 3)
            new.link.sender = "Zoé"
            new.link.message = "From the trip."
            let started = try await alice.startUpload(new, now: .now())
            let finished = try await alice.appendToUpload(id: started.id, at: 0, UploadBody.of([1, 2, 3]), now: .now(), by: "alice")
            let share = try #require(finished.share)
            #expect(share.sender == "Zoé" && share.message == "From the trip." && share.stored == true)
        }
    }
}
