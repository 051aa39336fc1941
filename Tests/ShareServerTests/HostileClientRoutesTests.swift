import Foundation
import HTTPTypes
import HummingbirdTesting
import ShareKit
import Testing

/// What a client that means harm (or only writes oddly) gets from the routes: a clear 400 naming what it sent,
/// never a 500, a silently dropped character or a second spelling that skips a rule.
@Suite struct HostileClientRoutesTests {
    @Test(arguments: [
        ("/share?q=a%00b", "q"), ("/share?q=%00", "q"), ("/share?q=a%00", "q"), ("/share?q=a%1Bb", "q"), ("/share?q=%C2%85x", "q"),
        ("/share/stats?q=a%00bc", "q"), ("/share?folder=/a%00", "folder"), ("/share?tz=UTC%00", "tz"), ("/share?date=2021-01-17%00", "date"),
    ])
    func controlCharactersInATextParameterAreRefusedByName(uri: String, parameter: String) async throws {
        try await withServer { client in
            try await client.create(#""name": "ab.txt", "size": 1"#)
            let response = try await client.send(.get, uri)
            #expect(response.status == .badRequest)
            #expect(response.problemDetail.hasPrefix("parameter '\(parameter)' must not contain control characters"), "\(response.text)")
        }
    }

    /// Which of two values would count? Refused by name on every route that takes parameters, as on listings.
    @Test(arguments: [
        ("/events?limit=1&limit=2", "limit"), ("/events?cursor=a&cursor=b", "cursor"), ("export?trashed=include&trashed=include", "trashed"),
    ])
    func aParameterGivenTwiceIsRefusedByName(suffix: String, parameter: String) async throws {
        try await withServer { client in
            let record = try await client.create(#""name": "a.txt", "size": 1"#)
            let uri = suffix.hasPrefix("/") ? "/share/\(record.id)\(suffix)" : "/share/\(suffix)"
            let response = try await client.send(.get, uri)
            #expect(response.status == .badRequest, "\(uri): \(response.text)")
            #expect(response.problemDetail == "parameter '\(parameter)' is given more than once", "\(response.text)")
        }
    }

    @Test func everyAnswerLeavesOneAccessLogLineWhateverItsStatus() async throws {
        let log = CapturedLog()
        try await withServer(
            {
                $0.auth.tokens = ["s3cret"]
                $0.server.maxBodyBytes = 100
            }, log: log
        ) { client in
            let token: HTTPFields = [.authorization: "Bearer s3cret"]
            let record = try await client.send(.post, "/share", #"{"name":"a.txt","size":1}"#, headers: token).decode(ShareRecord.self)
            let requests: [(HTTPRequest.Method, String, String?, HTTPFields, Int)] = [
                (.get, "/share", nil, [.authorization: "Bearer guess"], 401),
                (.get, "/share?limit=0", nil, token, 400),
                (.get, "/share/NOSUCH", nil, token, 404),
                (.put, "/share", nil, token, 405),
                (.post, "/share", #"{"name":"b.txt","size":1,"id":"\#(record.id)"}"#, token, 409),
                (.post, "/share", #"{"name":"\#(String(repeating: "x", count: 200))","size":1}"#, token, 413),
                (.get, "/nowhere", nil, token, 404),
            ]
            for (method, uri, body, headers, status) in requests {
                let response = try await client.send(method, uri, body, headers: headers)
                #expect(Int(response.status.code) == status, "\(method) \(uri)")
            }
            let lines = log.lines.filter { $0.hasPrefix("request ") }
            #expect(lines.count == requests.count + 1)
            for (method, uri, _, _, status) in requests {
                let path = String(uri.prefix { $0 != "?" })
                #expect(
                    lines.contains { $0.contains("method=\(method.rawValue)") && $0.contains("path=\(path) ") && $0.contains("status=\(status)") },
                    "\(uri)")
            }
        }
    }

    @Test func datesAreProlepticGregorianFromYear0000To9999() async throws {
        try await withServer { client in
            for time in ["0000-01-01T00:00:00Z", "0001-01-01T12:00:00Z", "1500-03-01T12:00:00Z", "9999-12-31T23:59:59.999Z"] {
                try await client.create(#""name": "\#(time.prefix(4)).txt", "size": 1, "createdAt": "\#(time)""#)
            }
            func names(_ uri: String) async throws -> [String] {
                try await client.send(.get, uri).decode([ShareRecord].self).map(\.name)
            }
            #expect(try await names("/share?date=1500-03-01") == ["1500.txt"])
            #expect(try await names("/share?date=1500-02-20").isEmpty, "the Julian date of that day finds nothing")
            #expect(try await names("/share?date=0000-01-01") == ["0000.txt"])
            #expect(try await names("/share?date=0001-01-01") == ["0001.txt"])
            #expect(try await names("/share?date=9999-12-31") == ["9999.txt"])
            #expect(try await names("/share?from=1500-03-01&to=1500-03-01") == ["1500.txt"])
            let stats = try await client.send(.get, "/share/stats?by=day").decode(ShareStats.self)
            #expect(stats.periods.map(\.period) == ["0000-01-01", "0001-01-01", "1500-03-01", "9999-12-31"], "stats agree with the listing")
        }
    }

    @Test func pathsHaveOneSpellingForRoutesAndForAuth() async throws {
        try await withServer({ $0.auth.tokens = ["s3cret"] }) { client in
            let token: HTTPFields = [.authorization: "Bearer s3cret"]
            let record = try await client.send(.post, "/share", #"{"name":"a.txt","size":1,"id":"PATHT1"}"#, headers: token)
            #expect(record.status == .created)
            for uri in ["/share/%50ATHT1", "/share/%50%41THT1", "//share//PATHT1/", "/share/x/../PATHT1", "/%73hare/PATHT1"] {
                #expect(try await client.send(.get, uri, headers: token).status == .ok, "\(uri)")
            }
            for uri in ["/healthz", "/healthz/", "//healthz", "/%68ealthz", "/share/../healthz", "/readyz/"] {
                #expect(try await client.send(.get, uri).status == .ok, "\(uri) needs no token, like /healthz")
            }
            for uri in ["/share/", "//share", "/share/./", "/healthz/../share", "/%73hare"] {
                #expect(try await client.send(.get, uri).status == .unauthorized, "\(uri) needs a token, like /share")
            }
        }
    }

    @Test func aKeyGivenTwiceIsRefusedByNameHoweverItIsSpelled() async throws {
        try await withServer { client in
            for body in [#"{"size":1,"size":-5,"name":"a.txt"}"#, #"{"size":1,"s\u0069ze":-5,"name":"a.txt"}"#] {
                let response = try await client.send(.post, "/share", body)
                #expect(response.status == .badRequest)
                #expect(response.problemDetail == "field 'size' is given more than once")
            }
            let record = try await client.create(#""name": "a.txt", "size": 1"#)
            let patch = try await client.send(.patch, "/share/\(record.id)", #"{"name":"b.txt","name":"c.txt"}"#)
            #expect(patch.problemDetail == "field 'name' is given more than once")
            #expect(try await client.send(.get, "/share").decode([ShareRecord].self).map(\.name) == ["a.txt"])
        }
    }

    @Test(arguments: ["1e400", "-1e400", "1e300", "1e-400"])
    func aNumberTheDecoderCannotHoldIsNamedByItsField(number: String) async throws {
        try await withServer { client in
            let response = try await client.send(.post, "/share", #"{"name":"a.txt","size":\#(number)}"#)
            #expect(response.status == .badRequest)
            #expect(response.problemDetail.hasPrefix("field 'size'"), "\(response.text)")
        }
    }

    @Test(arguments: ["TRUE", "1", "0", "yes", "True"])
    func booleansAreExactlyTrueOrFalse(value: String) async throws {
        try await withServer { client in
            for uri in ["/share?trashed=\(value)", "/share?folder=/&recursive=\(value)"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .badRequest)
                #expect(response.problemDetail.contains("must be true or false, got '\(value)'"))
            }
        }
    }

    @Test func searchUsesFullCaseFolding() async throws {
        try await withServer { client in
            for name in ["ΣΊΣΥΦΟΣ.txt", "straße.txt", "ﬁle.pdf", "Ǆemal.doc"] {
                try await client.create(#""name": "\#(name)", "size": 1"#)
            }
            func names(_ text: String) async throws -> [String] {
                let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                return try await client.send(.get, "/share?q=\(query)").decode([ShareRecord].self).map(\.name)
            }
            #expect(try await names("συφος") == ["ΣΊΣΥΦΟΣ.txt"])
            #expect(try await names("σίσυφοσ") == ["ΣΊΣΥΦΟΣ.txt"])
            #expect(try await names("STRASSE") == ["straße.txt"])
            #expect(try await names("Straße") == ["straße.txt"])
            #expect(try await names("FILE") == ["ﬁle.pdf"])
            #expect(try await names("ǆ") == ["Ǆemal.doc"])
        }
    }

    @Test func headOfTheStreamedExportClaimsNoLength() async throws {
        try await withServer { client in
            try await client.create(#""name": "a.txt", "size": 1"#)
            let head = try await client.send(.head, "/share/export")
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == nil)
            #expect(head.headers[.contentType] == "application/x-ndjson")
        }
    }

    @Test func anImportGoesOnPastARecordOverTheLimit() async throws {
        try await withServer { client in
            let huge = #"{"name": "\#(String(repeating: "x", count: 5_000_000))", "size": 1}"#
            let body = #"{"name": "first.txt", "size": 1}"# + "\n" + huge + "\n" + #"{"name": "after.txt", "size": 2}"# + "\n"
            let report = try await client.send(.post, "/share/import", body).decode(ImportReport.self)
            #expect(report.imported == 2)
            #expect(report.rejected == 1)
            #expect(report.problems.map(\.line) == [2])
            #expect(report.problems.first?.detail.contains("larger than 1048576 bytes") == true)
            let names = try await client.send(.get, "/share").decode([ShareRecord].self).map(\.name)
            #expect(Set(names) == ["first.txt", "after.txt"])
        }
    }
}
