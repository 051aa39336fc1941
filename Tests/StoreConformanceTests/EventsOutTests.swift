import Foundation
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// Events going out on every database: each history's events in the order they happened, what their record was then,
/// nothing of a change that was refused, and webhooks that take their events in order, one node at a time, retried,
/// disabled and sent again as asked.
@Suite struct EventsOutTests {
    private static let databases: [Backend] = [.sqlite, .postgresql]

    private static func draft(events: [String] = ["*"]) -> HookDraft {
        HookDraft(url: "https://hooks.example.com/in", events: events, description: "test", secret: HookSecret.make())
    }

    private static func later(_ seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSinceEpoch: Timestamp.now().millisecondsSinceEpoch + seconds * 1000)
    }

    @Test(arguments: databases)
    func eachHistorysEventsGoOutInOrderSayingWhatTheRecordWasThen(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: 10)
            let bob = store.history(of: "bob", quota: nil)
            let report = try await alice.add("report.pdf", size: 4)
            _ = try await alice.updateShare(id: report.id, SharePatch(name: "final.pdf", folder: nil), includeTrashed: false, by: "alice")
            try await bob.add("bob.txt")
            await #expect(throws: ShareError.self, "past alice's quota: refused, rolled back") { try await alice.add("big.iso", size: 100) }
            try await alice.trashShare(id: report.id, includeTrashed: false, by: "alice")
            let events = try await alice.historyEvents(after: 0, limit: 10)
            #expect(events.map(\.action) == [.created, .renamed, .trashed], "nothing of the refused create, nothing of bob's")
            #expect(events.map(\.share.name) == ["report.pdf", "final.pdf", "final.pdf"], "the name as it was at each")
            #expect(events[1].from == "report.pdf" && events[1].to == "final.pdf" && events[1].share.type == "pdf")
            #expect(events.map(\.seq) == events.map(\.seq).sorted() && Set(events.map(\.seq)).count == 3)
            #expect(try await alice.historyEvents(after: events[0].seq, limit: 10) == Array(events.dropFirst()))
            #expect(try await alice.latestEvents(limit: 2).map(\.action) == [.trashed, .renamed], "newest first")
            #expect(try await alice.lastEventNumber() == events[2].seq)
            try await alice.purgeShare(id: report.id)
            #expect(try await alice.historyEvents(after: 0, limit: 10) == events, "what went out stays out after a purge")
            #expect(try await bob.historyEvents(after: 0, limit: 10).map(\.share.name) == ["bob.txt"])
            #expect(try await store.history(of: "carol", quota: nil).historyEvents(after: 0, limit: 10).isEmpty)
        }
    }

    /// A follower reads on from the last event it saw while writers race: an event numbered before one it saw but
    /// committed after would be skipped for good.
    @Test(arguments: databases)
    func aFollowerReadingOnFromTheLastEventItSawMissesNoneOfRacingWrites(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let followed = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for number in 0..<10 { try await alice.add("w\(writer)-\(number).txt") }
                        return []
                    }
                }
                group.addTask {
                    var seen: [Int64] = []
                    try await waitUntil("the follower saw eighty events", within: .seconds(120)) {
                        seen += try await alice.historyEvents(after: seen.last ?? 0, limit: 7).map(\.seq)
                        return seen.count >= 80
                    }
                    return seen
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(followed.count == 80 && followed == followed.sorted())
            #expect(followed == (try await alice.historyEvents(after: 0, limit: 100)).map(\.seq))
        }
    }

    @Test(arguments: databases)
    func aDownloadIsAnEventOnceItsLastByteIsSentAndNeverWhenItBreaksOff(_ backend: Backend) async throws {
        try await backend.withStore { store in
            var new = try NewShare(id: nil, name: "photo.jpg", folder: nil, createdAt: nil, size: 1200)
            new.link = NewLink(source: "https://drive.example.com/s/abc")
            let share = try await store.sharedHistory.createShare(new)
            let token = try #require(share.linkToken)
            let whole = ShareDownload(at: .now(), address: "2001:db8:1::", agent: "Firefox", bytes: 1200, complete: true)
            let broken = try #require(try await store.countDownload(token: token, whole))
            try await store.endDownload(broken, sent: 600)
            let sent = try #require(try await store.countDownload(token: token, whole))
            #expect(try await store.sharedHistory.historyEvents(after: 0, limit: 10).map(\.action) == [.created], "not yet sent")
            try await store.endDownload(sent, sent: 1200)
            _ = try await store.countDownload(token: token, ShareDownload(at: .now(), address: "203.0.113.0", agent: "curl"))
            let events = try await store.sharedHistory.historyEvents(after: 0, limit: 10)
            #expect(events.map(\.action) == [.created, .downloaded, .downloaded], "the one sent whole, then a redirect at once")
            #expect(events[1].downloads == 1 && events[1].download == HistoryEvent.Downloader(address: "2001:db8:1::", agent: "Firefox"))
            #expect(events[1].by == "link" && events[2].downloads == 2 && events[2].download?.addressFamily == "ipv4")
            let logged = try await store.sharedHistory.events(id: share.id, after: 0, limit: 10).events
            #expect(logged.map(\.action) == [.created, .downloaded, .downloaded] && logged[2].downloads == 2, "in the record's own log too")
        }
    }

    @Test(arguments: databases)
    func aHookSendsTheEventsThatFollowItInOrderOneAtATime(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            try await alice.add("before.txt")
            let hook = try await alice.addHook(Self.draft(events: ["created", "trashed"]), limit: 5, now: .now())
            #expect(hook.secret?.hasPrefix("whsec_") == true && hook.enabled && hook.events == ["created", "trashed"])
            #expect(try await alice.hook(id: hook.id).secret == nil, "the secret is shown once")
            let first = try await alice.add("a.txt")
            _ = try await alice.updateShare(id: first.id, SharePatch(name: "b.txt", folder: nil), includeTrashed: false, by: "alice")
            try await alice.add("c.txt")
            let now = Timestamp.now()
            let due = try #require(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)))
            #expect(due.hookID == hook.id && due.event.share.name == "a.txt" && due.attempt == 1 && !due.isResend, "not before.txt")
            #expect(due.secrets == [hook.secret!])
            #expect(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)) == nil, "held by the node that took it")
            try await store.recordDelivery(due, DeliveryOutcome(status: 200, milliseconds: 3, next: .delivered), now: now)
            let next = try #require(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)))
            #expect(next.event.share.name == "c.txt", "the rename is not asked for")
            try await store.recordDelivery(next, DeliveryOutcome(status: 200, milliseconds: 3, next: .delivered), now: now)
            #expect(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)) == nil)
            let log = try await alice.hookDeliveries(id: hook.id, before: 0, limit: 10)
            #expect(log.deliveries.map(\.eventId) == [next.event.id, due.event.id] && log.deliveries[0].status == 200, "newest first")
        }
    }

    @Test(arguments: databases)
    func aFailedDeliveryWaitsItsTurnAndAnExhaustedOneDisablesTheHookUntilEnabled(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let hook = try await alice.addHook(Self.draft(), limit: 5, now: .now())
            try await alice.add("a.txt")
            try await alice.add("b.txt")
            let now = Timestamp.now()
            let due = try #require(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)))
            try await store.recordDelivery(
                due, DeliveryOutcome(status: 500, milliseconds: 9, error: "boom", next: .retry(at: Self.later(300))), now: now)
            #expect(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)) == nil, "b waits behind a: order is kept")
            let again = try #require(try await store.takeDueDelivery(now: Self.later(301), leaseUntil: Self.later(400)))
            #expect(again.event == due.event && again.attempt == 2)
            try await store.recordDelivery(
                again, DeliveryOutcome(status: 410, milliseconds: 2, next: .disable(reason: "the receiver answered 410 Gone")), now: now)
            #expect(try await store.takeDueDelivery(now: Self.later(9999), leaseUntil: Self.later(10000)) == nil, "disabled")
            let disabled = try await alice.hook(id: hook.id)
            #expect(!disabled.enabled && disabled.disabledReason == "the receiver answered 410 Gone")
            let enabled = try await alice.changeHook(id: hook.id, HookChange(enabled: true))
            #expect(enabled.enabled && enabled.disabledReason == nil)
            let resumed = try #require(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)))
            #expect(resumed.event == due.event && resumed.attempt == 1, "from the event it stopped at, its count begun again")
        }
    }

    @Test(arguments: databases)
    func aDeliveryAskedForAgainGoesFirstOnceAndALapsedLeaseLetsAnotherNodeTakeIt(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let hook = try await alice.addHook(Self.draft(), limit: 5, now: .now())
            try await alice.add("a.txt")
            let now = Timestamp.now()
            let due = try #require(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(30)))
            let retaken = try #require(try await store.takeDueDelivery(now: Self.later(31), leaseUntil: Self.later(60)), "its node went quiet")
            #expect(retaken.event == due.event)
            try await store.recordDelivery(retaken, DeliveryOutcome(status: 204, milliseconds: 1, next: .delivered), now: now)
            let delivery = try #require(try await alice.hookDeliveries(id: hook.id, before: 0, limit: 1).deliveries.first)
            try await alice.resendDelivery(hook: hook.id, delivery: delivery.id)
            let resend = try #require(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)))
            #expect(resend.isResend && resend.event == due.event && resend.attempt == 1)
            try await store.recordDelivery(
                resend, DeliveryOutcome(status: 0, milliseconds: 15000, error: "timed out", next: .retry(at: now)), now: now)
            #expect(try await store.takeDueDelivery(now: now, leaseUntil: Self.later(60)) == nil, "a resend is tried once")
            await #expect(throws: ShareError.deliveryNotFound(id: 999_999)) { try await alice.resendDelivery(hook: hook.id, delivery: 999_999) }
        }
    }

    @Test(arguments: databases)
    func hooksBelongToTheirHistoryAndAreLimited(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let bob = store.history(of: "bob", quota: nil)
            let first = try await alice.addHook(Self.draft(), limit: 2, now: .now())
            let second = try await alice.addHook(Self.draft(), limit: 2, now: .now())
            await #expect(throws: ShareError.tooManyHooks(limit: 2)) { try await alice.addHook(Self.draft(), limit: 2, now: .now()) }
            #expect(Set(try await alice.hooks().map(\.id)) == [first.id, second.id])
            #expect(try await bob.hooks().isEmpty)
            await #expect(throws: ShareError.hookNotFound(id: first.id), "another's hook is not found") { try await bob.hook(id: first.id) }
            await #expect(throws: ShareError.hookNotFound(id: first.id)) { try await bob.deleteHook(id: first.id) }
            let changed = try await alice.changeHook(id: first.id, HookChange(url: "https://other.example.com/", events: ["downloaded"]))
            #expect(changed.url == "https://other.example.com/" && changed.events == ["downloaded"] && changed.description == "test")
            try await alice.add("a.txt")
            #expect(try await store.takeDueDelivery(now: .now(), leaseUntil: Self.later(60)).map(\.hookID) == second.id, "first asks for downloads")
            try await alice.deleteHook(id: second.id)
            let rotated = try await alice.replaceHookSecret(id: first.id, with: HookSecret.make(), oldSigns: Self.later(86400))
            _ = try await alice.changeHook(id: first.id, HookChange(events: ["created"]))
            try await alice.add("b.txt")
            let signed = try #require(try await store.takeDueDelivery(now: .now(), leaseUntil: Self.later(60)))
            #expect(signed.event.share.name == "a.txt", "the filter changed: a.txt, made after the hook, is asked for now")
            #expect(signed.secrets.count == 2 && signed.secrets[0] == rotated.secret, "both secrets sign for a day")
            try await store.recordDelivery(signed, DeliveryOutcome(status: 200, milliseconds: 1, next: .delivered), now: .now())
            let later = try #require(try await store.takeDueDelivery(now: Self.later(86401), leaseUntil: Self.later(86500)))
            #expect(later.event.share.name == "b.txt" && later.secrets == [rotated.secret!], "the old one no longer, a day on")
            try await alice.deleteHook(id: first.id)
            #expect(try await alice.hooks().isEmpty)
        }
    }

    @Test(arguments: databases)
    func oldEventsAreForgottenButThoseAnEnabledHookHasStillToSend(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let old = try #require(Timestamp(rfc3339: "2020-01-01T00:00:00Z"))
            let cutoff = try #require(Timestamp(rfc3339: "2021-01-01T00:00:00Z"))
            let alice = store.history(of: "alice", quota: nil)
            let bob = store.history(of: "bob", quota: nil)
            let hook = try await alice.addHook(Self.draft(), limit: 5, now: old)
            _ = try await alice.createShare(try NewShare(id: nil, name: "a.txt", folder: nil, createdAt: nil, size: 1), now: old, by: "alice")
            _ = try await bob.createShare(try NewShare(id: nil, name: "b.txt", folder: nil, createdAt: nil, size: 1), now: old, by: "bob")
            try await bob.add("new.txt")
            #expect(try await store.forgetEvents(before: cutoff) == 1, "bob's old event; alice's hook has still to send hers")
            #expect(try await bob.historyEvents(after: 0, limit: 10).map(\.share.name) == ["new.txt"])
            let due = try #require(try await store.takeDueDelivery(now: .now(), leaseUntil: Self.later(60)))
            #expect(due.event.share.name == "a.txt")
            try await store.recordDelivery(due, DeliveryOutcome(status: 204, milliseconds: 1, next: .delivered), now: old)
            #expect(try await store.forgetEvents(before: cutoff) == 1, "sent: forgotten in its turn")
            #expect(try await alice.historyEvents(after: 0, limit: 10).isEmpty)
            #expect(try await alice.hookDeliveries(id: hook.id, before: 0, limit: 10).deliveries.isEmpty, "its log's old lines too")
        }
    }

    @Test(arguments: databases)
    func aFeedKeyNamesItsHistoryUntilReplaced(_ backend: Backend) async throws {
        try await backend.withStore { store in
            let alice = store.history(of: "alice", quota: nil)
            let key = try await alice.feedKey(renewing: false)
            #expect(try await alice.feedKey(renewing: false) == key && LinkToken.isPlausible(key), "128 bits, kept")
            #expect(try await store.feedOwner(key: key) == "alice")
            #expect(try await store.feedOwner(key: try await store.sharedHistory.feedKey(renewing: false)) == "")
            let renewed = try await alice.feedKey(renewing: true)
            #expect(renewed != key)
            #expect(try await store.feedOwner(key: key) == nil, "the old key opens nothing")
            #expect(try await store.feedOwner(key: renewed) == "alice")
        }
    }
}
