import Foundation
import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

/// Listings: search, filters and cursors, on every store.
@Suite struct ListingTests {
    private func ids(_ database: any HistoryStore, _ configure: (inout ShareQuery) -> Void) async throws -> [String] {
        var query = ShareQuery()
        configure(&query)
        return try await database.listShares(query).records.map(\.name)
    }

    @Test(arguments: Backend.allCases)
    func searchIsALiteralCaseInsensitiveUnicodeSubstring(_ backend: Backend) async throws {
        try await backend.withStore { database in
            for name in ["100%_done.txt", "1000 done.txt", "年度报告.pdf", "Re\u{301}sume\u{301}.doc", "STRASSE.md", "report.pdf"] {
                try await database.sharedHistory.add(name)
            }
            #expect(try await ids(database.sharedHistory) { $0.nameWords = SearchWords.pieces(of: "\"%_\"") } == ["100%_done.txt"])
            #expect(try await ids(database.sharedHistory) { $0.nameWords = SearchWords.pieces(of: "报告") } == ["年度报告.pdf"])
            #expect(try await ids(database.sharedHistory) { $0.nameWords = SearchWords.pieces(of: "RÉSUMÉ") } == ["Résumé.doc"])
            #expect(try await ids(database.sharedHistory) { $0.nameWords = SearchWords.pieces(of: "Re\u{301}s") } == ["Résumé.doc"])
            #expect(try await ids(database.sharedHistory) { $0.nameWords = SearchWords.pieces(of: "strasse") } == ["STRASSE.md"])
            #expect(try await ids(database.sharedHistory) { $0.nameWords = SearchWords.pieces(of: "PORT") }.sorted() == ["report.pdf"])
        }
    }

    @Test(arguments: Backend.allCases)
    func searchFindsNamesHoldingEveryWordInAnyOrder(_ backend: Backend) async throws {
        try await backend.withStore { database in
            for name in ["final_report.pdf", "report draft v2.doc", "draft-report.txt", "finally.txt", "年度报告 2021.xlsx", "a.b"] {
                try await database.sharedHistory.add(name)
            }
            let found = { (text: String) in try await ids(database.sharedHistory) { $0.nameWords = SearchWords.pieces(of: text) }.sorted() }
            #expect(try await found("final report") == ["final_report.pdf"])
            #expect(try await found("draft report") == ["draft-report.txt", "report draft v2.doc"])
            #expect(try await found("REPORT, draft") == ["draft-report.txt", "report draft v2.doc"])
            #expect(try await found("\"report draft\"") == ["report draft v2.doc"], "a quoted phrase stays literal")
            #expect(try await found("2021 报告") == ["年度报告 2021.xlsx"])
            #expect(try await found("r A") == ["draft-report.txt", "final_report.pdf", "report draft v2.doc"], "two words of one letter")
            #expect(try await found("final report xyz") == [])
        }
    }

    @Test(arguments: Backend.allCases)
    func dateTypeAndFolderFiltersCombine(_ backend: Backend) async throws {
        try await backend.withStore { database in
            try await database.sharedHistory.add("early.pdf", folder: "/a", at: "2021-01-16T23:59:59.999Z")
            try await database.sharedHistory.add("inside.pdf", folder: "/a", at: "2021-01-17T00:00:00Z")
            try await database.sharedHistory.add("inside.doc", folder: "/a", at: "2021-01-17T12:00:00Z")
            try await database.sharedHistory.add("nested.pdf", folder: "/a/b", at: "2021-01-17T13:00:00Z")
            try await database.sharedHistory.add("sibling.pdf", folder: "/ab", at: "2021-01-17T14:00:00Z")
            try await database.sharedHistory.add("late.pdf", folder: "/a", at: "2021-01-18T00:00:00Z")
            let day = ZonedCalendar(identifier: "UTC")!.range(of: CalendarDay("2021-01-17")!)
            let onTheDay: (inout ShareQuery) -> Void = {
                $0.createdFrom = day.lowerBound
                $0.createdBefore = day.upperBound
            }
            #expect(try await ids(database.sharedHistory, onTheDay) == ["sibling.pdf", "nested.pdf", "inside.doc", "inside.pdf"])
            #expect(
                try await ids(database.sharedHistory) {
                    onTheDay(&$0)
                    $0.types = [.pdf]
                    $0.folder = "/a"
                } == ["inside.pdf"])
            #expect(
                try await ids(database.sharedHistory) {
                    onTheDay(&$0)
                    $0.folder = "/a"
                    $0.recursive = true
                }
                    == ["nested.pdf", "inside.doc", "inside.pdf"])
            #expect(
                try await ids(database.sharedHistory) {
                    $0.folder = "/"
                    $0.recursive = true
                }.count == 6)
            #expect(try await ids(database.sharedHistory) { $0.folder = "/" }.isEmpty)
        }
    }

    @Test(arguments: Backend.allCases, ListingSort.allCases)
    func pagingVisitsEveryRecordOnceInOrderEvenWithTies(_ backend: Backend, sort: ListingSort) async throws {
        for order in ListingOrder.allCases { try await backend.withStore { database in try await pageThrough(database, sort: sort, order: order) } }
    }

    private func pageThrough(_ database: any ShareStore, sort: ListingSort, order: ListingOrder) async throws {
        // Three values of each sort key, so most records tie with others and only the id separates them.
        for index in 0..<23 {
            try await database.sharedHistory.add(
                ["b.pdf", "A.pdf", "c.pdf"][index % 3], size: Int64(index % 3),
                at: ["2021-01-17T10:00:00Z", "2021-01-17T11:00:00Z", "2021-01-17T09:00:00Z"][index % 3])
        }
        var query = ShareQuery()
        query.sort = sort
        query.order = order
        query.limit = 5
        var seen: [ShareRecord] = []
        var pages = 0
        repeat {
            let page = try await database.sharedHistory.listShares(query)
            seen += try page.records
            query.cursor = page.next
            pages += 1
        } while query.cursor != nil && pages < 10
        #expect(pages == 5)
        #expect(Set(seen.map(\.id)).count == 23)
        let keys = seen.map { record -> String in
            let key: String
            switch sort {
            case .createdAt: key = record.createdAt.description
            case .name: key = SearchKey.fold(record.name)
            case .size: key = String(record.size)
            case .downloads: key = String(record.downloads ?? 0)
            }
            return key + " " + record.id.uppercased()
        }
        #expect(keys == (order == .asc ? keys.sorted() : keys.sorted(by: >)))
    }
}
