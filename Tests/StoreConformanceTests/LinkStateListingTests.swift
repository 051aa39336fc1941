import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Listing by a link's state on every store: a filter by state gives exactly the shares whose `state` says so, as a
/// download or a passing time changes it, and a record without a link has none; a sort by downloads pages through
/// every share once. Were they to disagree, the page's filter would hide a share its row calls active.
@Suite struct LinkStateListingTests {
    private static func listed(_ history: any HistoryStore, _ parameters: [(String, String)]) async throws -> [ShareRecord] {
        let query = try ShareQuery(parameters: parameters.map { (name: $0.0, value: $0.1) }, defaultZone: ZonedCalendar(identifier: "UTC")!)
        return try await history.listShares(query).records
    }

    private static func linked(
        _ history: any HistoryStore, _ name: String, expiresAt: String? = nil, maxDownloads: Int64? = nil
    ) async throws
        -> ShareRecord
    {
        var new = try NewShare(id: nil, name: name, folder: nil, createdAt: nil, size: 10)
        new.link = NewLink(
            source: "https://drive.example.com/\(name)", expiresAt: expiresAt.flatMap(Timestamp.init(rfc3339:)), maxDownloads: maxDownloads)
        return try await history.createShare(new)
    }

    @Test(arguments: Backend.allCases)
    func aStateFilterGivesTheSharesInThatStateAndNoRecordWithoutALink(_ backend: Backend) async throws {
        try await backend.withStore { store in
            _ = try await store.sharedHistory.createShare(try NewShare(id: nil, name: "record.pdf", folder: nil, createdAt: nil, size: 10))
            _ = try await Self.linked(store.sharedHistory, "open.pdf")
            _ = try await Self.linked(store.sharedHistory, "later.pdf", expiresAt: "2040-01-01T00:00:00Z")
            _ = try await Self.linked(store.sharedHistory, "past.pdf", expiresAt: "2020-01-01T00:00:00Z")
            let once = try await Self.linked(store.sharedHistory, "once.pdf", maxDownloads: 1)
            let cut = try await Self.linked(store.sharedHistory, "cut.pdf")
            _ = try await store.sharedHistory.updateShare(id: cut.id, SharePatch(name: nil, folder: nil, link: LinkChange(revoked: true)))
            func names(_ state: String) async throws -> Set<String> {
                let records = try await Self.listed(store.sharedHistory, [("state", state)])
                #expect(records.allSatisfy { state.split(separator: ",").contains(Substring($0.state?.rawValue ?? "none")) }, "\(state)")
                return Set(records.map(\.name))
            }
            #expect(try await names("active") == ["open.pdf", "later.pdf", "once.pdf"])
            let active = try ShareQuery(parameters: [(name: "state", value: "active")], defaultZone: ZonedCalendar(identifier: "UTC")!)
            #expect(try await store.sharedHistory.stats(active, by: StatsPeriod.none).count == 3, "statistics take the state filter too")
            #expect(try await names("expired") == ["past.pdf"])
            #expect(try await names("revoked") == ["cut.pdf"])
            _ = try await store.countDownload(token: try #require(once.linkToken), ShareDownload(at: .now(), address: "203.0.113.0", agent: "curl"))
            #expect(try await names("expired,revoked") == ["past.pdf", "once.pdf", "cut.pdf"], "its last download expired it")
            let byDownloads = try await Self.listed(store.sharedHistory, [("sort", "downloads"), ("limit", "2")])
            #expect(byDownloads.first?.name == "once.pdf", "the most downloaded first")
        }
    }
}
