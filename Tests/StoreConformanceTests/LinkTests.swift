import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Shares' links on every store: a share that opens gets a token only its link shows, its limits change with their
/// events, and downloads count exactly, whoever races for the last one.
@Suite struct LinkTests {
    private static let drive = "https://drive.example.com/s/abc"

    private static func download(at time: String? = nil, from address: String = "203.0.113.0") -> ShareDownload {
        ShareDownload(at: time.flatMap { Timestamp(rfc3339: $0) } ?? .now(), address: address, agent: "curl")
    }

    /// A request for the whole file (1,200 bytes), whose sending holds a lease.
    private static func sending(at time: Timestamp = .now()) -> ShareDownload {
        ShareDownload(at: time, address: "203.0.113.0", agent: "curl", bytes: 1200, complete: true)
    }

    private func linked(
        _ history: any HistoryStore, _ name: String = "report.pdf", expiresAt: Timestamp? = nil, maxDownloads: Int64? = nil, code: String? = nil
    ) async throws -> ShareRecord {
        var new = try NewShare(id: nil, name: name, folder: nil, createdAt: nil, size: 1200)
        new.link = NewLink(source: Self.drive, expiresAt: expiresAt, maxDownloads: maxDownloads, code: code)
        return try await history.createShare(new)
    }

    @Test(arguments: Backend.allCases)
    func aShareMadeElsewhereGetsALinkOfItsOwnThatFindsItFromAnyHistory(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let created = try await linked(alice, code: "Secret1")
            let token = try #require(created.linkToken)
            #expect(LinkToken.isPlausible(token), "22 characters of base64url: 128 bits")
            #expect(created.link == "/s/\(token)" && created.state == .active && created.downloads == 0 && created.code == "Secret1")
            #expect(try await alice.share(id: created.id) == created)
            var sent = created
            sent.linkToken = nil
            #expect(try await alice.listShares(ShareQuery()).records == [sent], "the listing shows the link, never the token alone")
            #expect(try await store.openLink(token: token)?.share == created, "found by its token alone, whoever's it is")
            #expect(try await store.openLink(token: LinkToken.generate()) == nil)
            #expect(try await store.openLink(token: token)?.bytes == nil, "a share made elsewhere: its link leads to its source")
            let plain = try await alice.add("notes.txt")
            #expect(plain.link == nil && plain.linkToken == nil && plain.state == nil && plain.downloads == nil, "nothing to open")
            #expect(try await linked(alice, "other.pdf").linkToken != token)
        }
    }

    @Test(arguments: Backend.allCases)
    func linksFollowTheFormTheStoreIsGiven(_ backend: Backend) async throws {
        try await backend.withStore { plain in
            var store = plain
            store.recordForm = RecordForm(links: ShareLinks(pattern: "https://files.example.org/get/{token}?from={id}", pathPrefix: "/files"))
            let created = try await linked(store.sharedHistory, code: "Secret1")
            #expect(created.link == "https://files.example.org/get/\(created.linkToken!)?from=\(created.id)")
            store.recordForm.showsCodes = false
            let listed = try #require(try await store.sharedHistory.listShares(ShareQuery()).records.first)
            #expect(listed.code == nil && listed.link == created.link, "a reader who is not the owner never sees the code")
            #expect(try await store.sharedHistory.share(id: created.id, includeTrashed: false).code == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func changingTheLimitsIsRecordedAndRevokingIsForGood(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let created = try await linked(store.sharedHistory, maxDownloads: 2)
            let until = Timestamp(rfc3339: "2030-01-01T00:00:00Z")!
            let extended = try await store.sharedHistory.updateShare(
                id: created.id, SharePatch(name: nil, folder: nil, link: LinkChange(expiresAt: .some(until), maxDownloads: .some(nil))))
            #expect(extended.expiresAt == until && extended.maxDownloads == nil && extended.state == .active)
            let past = try await store.sharedHistory.updateShare(
                id: created.id, SharePatch(name: nil, folder: nil, link: LinkChange(expiresAt: .some(Timestamp(rfc3339: "2020-01-01T00:00:00Z")!))))
            #expect(past.state == .expired, "a time already past closes the link now")
            let revoked = try await store.sharedHistory.updateShare(
                id: created.id, SharePatch(name: nil, folder: nil, link: LinkChange(revoked: true)))
            #expect(revoked.state == .revoked)
            #expect(try await store.countDownload(token: created.linkToken!, Self.download()) == nil)
            let events = try await store.sharedHistory.events(id: created.id, after: 0, limit: 10).events
            #expect(events.map(\.action) == [.created, .expiryChanged, .expiryChanged, .revoked])
            #expect(events[1].from == "2 downloads" && events[1].to == "until 2030-01-01T00:00:00.000Z")
            #expect(events[2].to == "until 2020-01-01T00:00:00.000Z")
        }
    }

    @Test(arguments: Backend.allCases)
    func ofDownloadsRacingForTheLastOnesAllowedExactlyThatManyCount(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let created = try await linked(store.sharedHistory, maxDownloads: 3)
            let token = try #require(created.linkToken)
            let counted = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<12 { group.addTask { try await store.countDownload(token: token, Self.sending()) } }
                return try await group.compactMap { $0 }.reduce(into: []) { $0.append($1) }
            }
            #expect(counted.count == 3)
            let after = try await store.sharedHistory.share(id: created.id)
            #expect(after.downloads == 3 && after.state == .expired)
            // A download cut off gives its place back, and its log entry says how far it got.
            try await store.endDownload(counted[0], sent: 100)
            #expect(try await store.sharedHistory.share(id: created.id).state == .active)
            #expect(try await store.countDownload(token: token, Self.download()) != nil, "so the next one counts instead")
            let log = try await store.sharedHistory.downloads(id: created.id, before: 0, limit: 10).downloads
            #expect(log.count == 4 && log.filter(\.complete).count == 3 && log.contains { !$0.complete && $0.bytes == 100 })
        }
    }

    /// A node killed while it sends a download cannot give it back: its lease runs out and a sweep does, once; the
    /// recipient may then download again.
    @Test(arguments: Backend.allCases)
    func aDownloadWhoseNodeStoppedSendingIsGivenBackOnceItsLeaseRunsOut(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let created = try await linked(store.sharedHistory, maxDownloads: 1)
            let token = try #require(created.linkToken)
            func later(_ time: Timestamp, _ milliseconds: Int64) -> Timestamp {
                Timestamp(millisecondsSinceEpoch: time.millisecondsSinceEpoch + milliseconds)
            }
            let start = Timestamp.now()
            let stopped = try #require(try await store.countDownload(token: token, Self.sending(at: start)))
            #expect(try await store.sharedHistory.share(id: created.id).state == .expired, "spent while it is being sent")
            let lease = DownloadLease.until(start)
            #expect(try await store.giveBackStoppedDownloads(now: lease) == 0, "not before its lease runs out")
            #expect(try await store.giveBackStoppedDownloads(now: later(lease, 1)) == 1)
            let given = try await store.sharedHistory.share(id: created.id)
            #expect(given.downloads == 0 && given.state == .active)
            let entry = try #require(try await store.sharedHistory.downloads(id: created.id, before: 0, limit: 10).downloads.first)
            #expect(!entry.complete && entry.bytes == nil, "how much went is not known")

            let next = try #require(try await store.countDownload(token: token, Self.sending(at: .now())), "the recipient tries again")
            try await store.endDownload(stopped, sent: 10)
            #expect(try await store.sharedHistory.share(id: created.id).downloads == 1, "the stopped node's late word gives nothing back twice")
            try await store.keepSending(next, until: later(lease, 120_000))
            #expect(try await store.giveBackStoppedDownloads(now: later(lease, 60_000)) == 0, "a renewed lease holds")
            try await store.endDownload(next, sent: 1200)
            #expect(try await store.giveBackStoppedDownloads(now: later(lease, 1_000_000)) == 0, "an ended sending holds no lease")
            #expect(try await store.sharedHistory.share(id: created.id).downloads == 1)

            // Several stopped at once, one node killed amid many downloads of one share: each is given back.
            let many = try await linked(store.sharedHistory, "many.pdf", maxDownloads: 5)
            for _ in 0..<3 { _ = try #require(try await store.countDownload(token: many.linkToken!, Self.sending(at: start))) }
            #expect(try await store.giveBackStoppedDownloads(now: later(lease, 1)) == 3)
            #expect(try await store.sharedHistory.share(id: many.id).downloads == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func aLinkNoLongerOpensOnceItsShareIsTrashedOrPastItsTime(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let expiring = try await linked(store.sharedHistory, expiresAt: Timestamp(rfc3339: "2030-01-01T00:00:00Z")!)
            #expect(try await store.countDownload(token: expiring.linkToken!, Self.download(at: "2029-12-31T23:59:59.999Z")) != nil)
            #expect(try await store.countDownload(token: expiring.linkToken!, Self.download(at: "2030-01-01T00:00:00Z")) == nil)
            let trashed = try await linked(store.sharedHistory, "trashed.pdf")
            try await store.sharedHistory.trashShare(id: trashed.id)
            #expect(try await store.openLink(token: trashed.linkToken!)?.share == nil)
            #expect(try await store.countDownload(token: trashed.linkToken!, Self.download()) == nil)
            #expect(try await store.sharedHistory.share(id: trashed.id, includeTrashed: true).downloads == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func anExportedShareImportsWithItsLimitsAndANewLink(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let original = try await linked(
                store.sharedHistory, expiresAt: Timestamp(rfc3339: "2030-01-01T00:00:00Z")!, maxDownloads: 5, code: "Code42")
            #expect(try await store.countDownload(token: original.linkToken!, Self.download()) != nil)
            let revoked = try await linked(store.sharedHistory, "revoked.pdf")
            _ = try await store.sharedHistory.updateShare(id: revoked.id, SharePatch(name: nil, folder: nil, link: LinkChange(revoked: true)))
            try await backend.withStore { other in
                let staging = try await other.sharedHistory.beginImport()
                for (line, record) in try await store.sharedHistory.listShares(ShareQuery()).records.enumerated() {
                    var new = try NewShare(
                        id: record.id, name: record.name, folder: record.folder, createdAt: record.createdAt.description, size: record.size)
                    new.link = NewLink(source: record.source, expiresAt: record.expiresAt, maxDownloads: record.maxDownloads, code: record.code)
                    new.link.downloads = record.downloads ?? 0
                    if record.state == .revoked { new.link.revokedAt = record.createdAt }
                    #expect(try await staging.stage([(line + 1, new)]).isEmpty)
                }
                #expect(try await staging.finish().stored == 2)
                let imported = try await other.sharedHistory.share(id: original.id)
                #expect(imported.source == Self.drive && imported.code == "Code42" && imported.maxDownloads == 5 && imported.downloads == 1)
                #expect(imported.expiresAt == original.expiresAt && imported.state == .active)
                #expect(imported.linkToken != nil && imported.linkToken != original.linkToken, "a history imported elsewhere has links of its own")
                #expect(try await other.sharedHistory.share(id: revoked.id).state == .revoked)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func eachCountedDownloadIsLoggedNewestFirstForItsOwnerOnly(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let created = try await linked(alice)
            for address in ["198.51.100.0", "203.0.113.0", "2001:db8:1::"] {
                #expect(try await store.countDownload(token: created.linkToken!, Self.download(from: address)) != nil)
            }
            let first = try await alice.downloads(id: created.id, before: 0, limit: 2)
            #expect(
                first.downloads.map(\.address) == ["2001:db8:1::", "203.0.113.0"] && first.downloads.allSatisfy { $0.agent == "curl" && $0.complete })
            let next = try #require(first.next)
            let second = try await alice.downloads(id: created.id, before: next, limit: 2)
            #expect(second.downloads.map(\.address) == ["198.51.100.0"] && second.next == nil)
            await #expect(throws: ShareError.notFound(id: created.id), "another history's share is not found") {
                _ = try await store.history(of: "bob", quota: nil).downloads(id: created.id, before: 0, limit: 10)
            }
            try await alice.purgeShare(id: created.id)
            await #expect(throws: ShareError.notFound(id: created.id)) { _ = try await alice.downloads(id: created.id, before: 0, limit: 10) }
        }
    }

    @Test(arguments: Backend.allCases)
    func aRefusedExpiredLinkIsRecordedOnceUntilItsLimitsChange(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let created = try await linked(store.sharedHistory, maxDownloads: 1)
            let token = try #require(created.linkToken)
            #expect(try await store.countDownload(token: token, Self.download()) != nil)
            for _ in 0..<3 { try await store.noteExpired(token: token, at: .now()) }
            _ = try await store.sharedHistory.updateShare(
                id: created.id, SharePatch(name: nil, folder: nil, link: LinkChange(maxDownloads: .some(1))))
            _ = try await store.sharedHistory.updateShare(
                id: created.id, SharePatch(name: nil, folder: nil, link: LinkChange(maxDownloads: .some(2))))
            #expect(try await store.countDownload(token: token, Self.download()) != nil)
            try await store.noteExpired(token: token, at: .now())
            let actions = try await store.sharedHistory.events(id: created.id, after: 0, limit: 10).events.map(\.action)
            #expect(actions == [.created, .downloaded, .expired, .expiryChanged, .downloaded, .expired])
        }
    }

    @Test(arguments: Backend.allCases)
    func aHistorysTagChangesWhenALinkOfItExpiresThoughNothingWasWritten(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let expiry = Timestamp(rfc3339: "2030-01-01T00:00:00Z")!
            let created = try await linked(store.sharedHistory, expiresAt: expiry)
            let (before, at) = (Timestamp(rfc3339: "2029-12-31T23:59:59Z")!, expiry)
            let after = Timestamp(rfc3339: "2030-01-01T00:00:01Z")!
            let tag = try await store.sharedHistory.historyTag(at: before)
            #expect(try await store.sharedHistory.historyTag(at: before) == tag, "asked again before the expiry: the same tag")
            let expired = try await store.sharedHistory.historyTag(at: at)
            #expect(expired != tag, "the listing's state changed when the time came: so does the tag")
            #expect(try await store.sharedHistory.historyTag(at: after) == expired, "and stays until the next change")
            _ = try await store.sharedHistory.updateShare(id: created.id, SharePatch(name: "renamed.pdf", folder: nil))
            #expect(try await store.sharedHistory.historyTag(at: after) != expired)
        }
    }

    @Test(arguments: Backend.allCases)
    func aLinksThumbnailIsFoundByItsTokenWhileTheShareIsLive(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let created = try await linked(alice)
            let token = try #require(created.linkToken)
            #expect(try await store.linkedThumbnail(token: token) == nil)
            let thumbnail = Thumbnail(image: Array("RIFF-not-checked-here".utf8))
            _ = try await alice.setThumbnail(id: created.id, thumbnail)
            #expect(try await store.linkedThumbnail(token: token) == thumbnail)
            try await alice.trashShare(id: created.id)
            #expect(try await store.linkedThumbnail(token: token) == nil)
        }
    }
}
