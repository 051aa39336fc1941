import ShareHistory
import ShareKit
import StoreTestSupport
import Testing

@Suite struct ShareQueryTests {
    private let utc = ZonedCalendar(identifier: "UTC")!

    private func parse(_ pairs: KeyValuePairs<String, String>, zone: ZonedCalendar? = nil) throws(ShareError) -> ShareQuery {
        try ShareQuery(parameters: pairs.map { (name: $0.key, value: $0.value) }, defaultZone: zone ?? utc)
    }

    private func rejected(_ pairs: KeyValuePairs<String, String>) -> String? {
        do {
            _ = try parse(pairs)
            return nil
        } catch .invalidParameter(let name, _) {
            return name
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func noParametersMeansNewestFirstHundredLive() throws {
        let query = try parse([:])
        #expect(query == ShareQuery())
        #expect(query.sort == .createdAt && query.order == .desc && query.limit == 100 && !query.trashed)
    }

    @Test func dateIsTheWholeDayInTheRequestedZone() throws {
        let query = try parse(["date": "2021-01-17", "tz": "Asia/Tokyo"])
        #expect(query.createdFrom?.description == "2021-01-16T15:00:00.000Z")
        #expect(query.createdBefore?.description == "2021-01-17T15:00:00.000Z")
    }

    @Test func dateFallsBackToTheServersZone() throws {
        let query = try parse(["date": "2021-01-17"], zone: ZonedCalendar(identifier: "Europe/Paris"))
        #expect(query.createdFrom?.description == "2021-01-16T23:00:00.000Z")
    }

    @Test func toIsInclusiveForADayAndExclusiveForATime() throws {
        let days = try parse(["from": "2021-01-10", "to": "2021-01-17"])
        #expect(days.createdFrom?.description == "2021-01-10T00:00:00.000Z")
        #expect(days.createdBefore?.description == "2021-01-18T00:00:00.000Z")
        let times = try parse(["from": "2021-01-10T08:00:00+02:00", "to": "2021-01-17T12:00:00Z"])
        #expect(times.createdFrom?.description == "2021-01-10T06:00:00.000Z")
        #expect(times.createdBefore?.description == "2021-01-17T12:00:00.000Z")
    }

    @Test func dateAndRangeCombineAsAnd() throws {
        let query = try parse(["date": "2021-01-17", "from": "2021-01-17T12:00:00Z", "to": "2021-02-01"])
        #expect(query.createdFrom?.description == "2021-01-17T12:00:00.000Z")
        #expect(query.createdBefore?.description == "2021-01-18T00:00:00.000Z")
    }

    @Test func searchTextIsFoldedIntoWordsEachKeptLiteral() throws {
        #expect(try parse(["q": "RÉSUMÉ"]).nameWords == ["résumé"])
        #expect(try parse(["q": "100%_done"]).nameWords == ["100%", "done"])
        #expect(try parse(["q": "\"100%_done\""]).nameWords == ["100%_done"])
    }

    @Test func typesFoldersSortingAndPaging() throws {
        let query = try parse([
            "type": "pdf,DOC", "folder": "/reports/", "recursive": "true", "sort": "name", "order": "asc", "limit": "1000",
        ])
        #expect(query.types == [.pdf, .doc])
        #expect(query.folder == "/reports")
        #expect(query.recursive)
        #expect(query.sort == .name && query.order == .asc && query.limit == 1000)
    }

    @Test func cursorsOnlyContinueTheSortTheyCameFrom() throws {
        let cursor = ShareCursor(sort: .size, order: .asc, value: .integer(42), id: "ABCD1234").encoded
        #expect(try parse(["sort": "size", "order": "asc", "cursor": cursor]).cursor?.id == "ABCD1234")
        #expect(rejected(["cursor": cursor]) == "cursor")
        #expect(rejected(["cursor": "bm90IGEgY3Vyc29y"]) == "cursor")
    }

    @Test(arguments: [
        ("date", "2021-02-30"), ("date", "17/01/2021"), ("tz", "Mars/Olympus"), ("from", "yesterday"), ("to", "2021-01-17T25:00:00Z"),
        ("type", "pdf,movie"), ("type", ""), ("type", "pdf,"), ("folder", "reports"), ("folder", "/a/../b"), ("recursive", "yes"),
        ("sort", "createdat"), ("order", "up"), ("limit", "0"), ("limit", "1001"), ("limit", "ten"), ("limit", "-5"),
        ("cursor", "!!!"), ("trashed", "maybe"), ("q", String(repeating: "a ", count: 33)), ("q", String(repeating: "x", count: 256)),
    ])
    func everyInvalidValueIsRejectedByName(name: String, value: String) {
        #expect(rejected([name: value]) == name)
    }

    @Test func aParameterGivenTwiceIsAmbiguous() {
        #expect(rejected(["date": "2021-01-17", "date": "2021-01-18"]) == "date")
    }

    @Test func unknownParametersAreIgnored() throws {
        #expect(try parse(["_": "1612345678", "utm_source": "app"]) == ShareQuery())
    }
}
