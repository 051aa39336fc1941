import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import StoreTestSupport
import Testing

@Suite struct ListingRoutesTests {
    private func names(_ client: any TestClientProtocol, _ uri: String) async throws -> [String] {
        let response = try await client.send(.get, uri)
        guard response.status == .ok else { throw UnexpectedResponse(text: response.text) }
        return try response.decode([ShareRecord].self).map(\.name)
    }

    @Test(arguments: Backend.allCases)
    func dateMeansTheCalendarDayInTheGivenZone(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            // 2021-01-17 in Shanghai runs from 2021-01-16T16:00Z to 2021-01-17T16:00Z.
            try await client.create(#""name": "before.pdf", "size": 1, "createdAt": "2021-01-16T15:59:59.999Z""#)
            try await client.create(#""name": "first.pdf", "size": 1, "createdAt": "2021-01-16T16:00:00Z""#)
            try await client.create(#""name": "last.pdf", "size": 1, "createdAt": "2021-01-17T15:59:59.999Z""#)
            try await client.create(#""name": "after.pdf", "size": 1, "createdAt": "2021-01-17T16:00:00Z""#)
            #expect(try await names(client, "/share?date=2021-01-17&tz=Asia/Shanghai") == ["last.pdf", "first.pdf"])
            #expect(try await names(client, "/share?date=2021-01-17&tz=Asia%2FShanghai&order=asc") == ["first.pdf", "last.pdf"])
            #expect(try await names(client, "/share?date=2021-01-17") == ["after.pdf", "last.pdf"])
        }
    }

    @Test(arguments: Backend.allCases)
    func theServersZoneAppliesWhenNoTzIsGiven(_ backend: Backend) async throws {
        try await withServer({ $0.server.timezone = "Asia/Shanghai" }, backend: backend) { client in
            try await client.create(#""name": "late-utc.pdf", "size": 1, "createdAt": "2021-01-16T17:00:00Z""#)
            #expect(try await names(client, "/share?date=2021-01-17") == ["late-utc.pdf"])
        }
    }

    @Test(arguments: Backend.allCases)
    func searchFindsEveryWordEachLiteralAndCaseInsensitive(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            for name in ["50%_off.png", "500 off.png", "年度报告.pdf", "Résumé.doc"] {
                try await client.create(#""name": "\#(name)", "size": 1"#)
            }
            #expect(try await names(client, "/share?q=%25_") == ["50%_off.png"])
            #expect(try await names(client, "/share?q=%E6%8A%A5%E5%91%8A") == ["年度报告.pdf"])
            #expect(try await names(client, "/share?q=R%C3%89SUM") == ["Résumé.doc"])
            #expect(try await names(client, "/share?q=OFF+500") == ["500 off.png"], "every word, in any order")
            #expect(try await names(client, "/share?q=%220+off%22") == ["500 off.png"], "a quoted phrase as it is")
            #expect(try await names(client, "/share?q=off").sorted() == ["50%_off.png", "500 off.png"])
        }
    }

    @Test(arguments: Backend.allCases)
    func linkHeadersWalkEveryPageKeepingTheFilters(_ backend: Backend) async throws {
        try await withServer({ $0.server.basePath = "/files" }, backend: backend) { client in
            for index in 0..<7 {
                try await client.create(#""name": "r\#(index).pdf", "size": \#(index), "folder": "/r""#, at: "/files/share")
            }
            try await client.create(#""name": "other.txt", "size": 1, "folder": "/r""#, at: "/files/share")
            var uri: String? = "/files/share?type=pdf&folder=%2Fr&sort=size&order=asc&limit=3"
            var seen: [String] = []
            while let next = uri {
                let response = try await client.send(.get, next)
                seen += try response.decode([ShareRecord].self).map(\.name)
                uri = response.headers[HTTPField.Name("Link")!].flatMap { link in
                    #expect(link.hasPrefix("</files/share?") && link.hasSuffix(#">; rel="next""#))
                    #expect(link.contains("type=pdf") && link.contains("folder=%2Fr") && link.contains("sort=size"))
                    return String(link.dropFirst().prefix { $0 != ">" })
                }
            }
            #expect(seen == (0..<7).map { "r\($0).pdf" })
        }
    }

    @Test(arguments: [
        "date=2021-13-01", "date=yesterday", "tz=Nowhere/City", "from=soon", "to=2021-01-17T25:00:00Z", "type=pdf,movie",
        "folder=relative", "recursive=perhaps", "sort=color", "order=sideways", "limit=0", "limit=5000", "cursor=garbage",
        "trashed=nope",
    ])
    func invalidParametersAre400ProblemsNamingTheParameter(query: String) async throws {
        try await withServer { client in
            let response = try await client.send(.get, "/share?\(query)")
            let parameter = String(query.prefix { $0 != "=" })
            #expect(response.status == .badRequest)
            #expect(response.problemDetail.contains("'\(parameter)'"), "\(response.text)")
        }
    }

    @Test(arguments: Backend.allCases)
    func statsCountSharesAndBytesWithTheListFilters(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            try await client.create(#""name": "a.pdf", "size": 1000, "createdAt": "2021-01-16T20:00:00Z""#)
            try await client.create(#""name": "b.jpg", "size": 24, "createdAt": "2021-01-17T09:00:00Z""#)
            let response = try await client.send(.get, "/share/stats?tz=Asia/Tokyo&from=2021-01-17")
            let stats = try response.decode(ShareStats.self)
            #expect(stats.count == 2 && stats.bytes == 1024)
            #expect(stats.types["pdf"] == ShareStats.Total(count: 1, bytes: 1000))
            #expect(stats.periods.map(\.period) == ["2021-01-17"])
            #expect(try await client.send(.get, "/share/stats?type=nope").problemDetail.contains("'type'"))
        }
    }

    @Test(arguments: Backend.allCases)
    func brokenPercentEncodingIsA400(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            let response = try await client.send(.get, "/share?q=%ZZ")
            #expect(response.status == .badRequest)
            #expect(response.problemDetail.contains("'q'"))
            #expect(try await client.send(.get, "/share?q=%FF").status == .badRequest)
        }
    }
}

@Suite struct AccessTests {
    @Test(arguments: Backend.allCases)
    func withTokensEveryEndpointButHealthNeedsOne(_ backend: Backend) async throws {
        try await withServer({ $0.auth.tokens = ["s3cret"] }, backend: backend) { client in
            let anonymous = try await client.send(.get, "/share")
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(try await client.send(.get, "/share", headers: [.authorization: "Bearer wrong"]).status == .unauthorized)
            #expect(try await client.send(.get, "/share", headers: [.authorization: "Bearer s3cret"]).status == .ok)
            #expect(try await client.send(.get, "/share", headers: [.authorization: "bearer s3cret"]).status == .ok)
            #expect(try await client.send(.get, "/share", headers: [.authorization: "Bearer s3cretX"]).status == .unauthorized)
            #expect(try await client.send(.get, "/healthz").status == .ok)
            #expect(try await client.send(.get, "/readyz").status == .ok)
        }
    }

    @Test(arguments: Backend.allCases)
    func publicReadOpensOnlyGETs(_ backend: Backend) async throws {
        try await withServer(
            {
                $0.auth.tokens = ["s3cret"]
                $0.auth.publicRead = true
            }, backend: backend
        ) { client in
            #expect(try await client.send(.get, "/share").status == .ok)
            #expect(try await client.send(.post, "/share", #"{"name": "a.txt", "size": 1}"#).status == .unauthorized)
            let authorised = try await client.send(
                .post, "/share", #"{"name": "a.txt", "size": 1}"#, headers: [.authorization: "Bearer s3cret"])
            #expect(authorised.status == .created)
        }
    }

    @Test(arguments: Backend.allCases)
    func everythingLivesUnderTheBasePath(_ backend: Backend) async throws {
        try await withServer({ $0.server.basePath = "/files" }, backend: backend) { client in
            #expect(try await client.send(.get, "/files/share").status == .ok)
            #expect(try await client.send(.get, "/files/healthz").status == .ok)
            #expect(try await client.send(.get, "/share").status == .notFound)
            let created = try await client.send(.post, "/files/share", #"{"name": "a.txt", "size": 1}"#)
            #expect(created.headers[.location]?.hasPrefix("/files/share/") == true)
        }
    }

    /// Five years of shares are 60 months, not 1,800 days; `by` picks another period, `none` leaves them out.
    @Test(arguments: Backend.allCases)
    func statsCountPerThePeriodThatFitsTheSpanOrTheOneAskedFor(_ backend: Backend) async throws {
        try await withServer(backend: backend) { client in
            for (index, day) in ["2021-01-17", "2021-01-20", "2022-06-01", "2025-12-31"].enumerated() {
                try await client.create(#""name": "f\#(index).pdf", "size": 10, "createdAt": "\#(day)T12:00:00Z""#)
            }
            let fitting = try await client.send(.get, "/share/stats").decode(ShareStats.self)
            #expect(fitting.by == .month && fitting.periods.map(\.period) == ["2021-01", "2022-06", "2025-12"])
            #expect(fitting.periods.map(\.count) == [2, 1, 1])
            let years = try await client.send(.get, "/share/stats?by=year").decode(ShareStats.self)
            #expect(years.periods.map(\.period) == ["2021", "2022", "2025"] && years.periods.map(\.bytes) == [20, 10, 10])
            let days = try await client.send(.get, "/share/stats?from=2021-01-01&to=2021-01-31").decode(ShareStats.self)
            #expect(days.by == .day && days.periods.map(\.period) == ["2021-01-17", "2021-01-20"])
            let none = try await client.send(.get, "/share/stats?by=none").decode(ShareStats.self)
            #expect(none.by == .none && none.periods.isEmpty && none.count == 4)
            let wrong = try await client.send(.get, "/share/stats?by=week")
            #expect(wrong.status == .badRequest && wrong.problemDetail.hasPrefix("parameter 'by' must be day, month, year or none"))
        }
    }
}
