import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ShareHistory
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

@testable import ShareServer

/// What a share's recipient meets at its link, with no sign-in: the page, the code it asks for, the file (for a share
/// made elsewhere, a redirect to it), and a closed link's reason; and how wrong codes and made-up links are held off.
@Suite struct LinkRoutesTests {
    private static let drive = "https://drive.example.com/s/abc"
    private static func secured(_ config: inout ShareConfig) { config.auth.tokens = ["s3cret"] }
    private static let owner: HTTPFields = [.authorization: "Bearer s3cret"]

    private func linked(_ client: any TestClientProtocol, _ fields: String = "") async throws -> ShareRecord {
        let response = try await client.send(
            .post, "/share", #"{"name": "Q1 <b>report<b>.pdf", "size": 1200, "source": "\#(Self.drive)"\#(fields)}"#, headers: Self.owner)
        guard response.status == .created else { throw UnexpectedResponse(text: response.text) }
        return try response.decode(ShareRecord.self)
    }

    @Test(arguments: Backend.allCases)
    func aLinkOpensItsPageAndItsFileWithoutSignInUntilItsDownloadsRunOut(_ backend: Backend) async throws {
        try await withServer(Self.secured, backend: backend) { client in
            let record = try await linked(client, #", "maxDownloads": 2"#)
            let link = try #require(record.link)
            let page = try await client.send(.get, link)
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("Q1 &lt;b&gt;report&lt;b&gt;.pdf") && !page.text.contains("<b>report"), "the name is text, never markup")
            #expect(page.text.contains("1.2 kB") && page.text.contains("for 2 more downloads"))
            #expect(page.text.contains(#"href="\#(link)/file""#))
            #expect(
                page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true
                    && page.headers[.init("X-Content-Type-Options")!] == "nosniff")
            #expect(try await client.send(.head, "\(link)/file").status == .found, "a HEAD downloads nothing")
            for _ in 0..<2 {
                let file = try await client.send(.get, "\(link)/file")
                #expect(file.status == .found && file.headers[.location] == Self.drive)
            }
            let closed = try await client.send(.get, "\(link)/file")
            #expect(closed.status == .gone)
            #expect(try await client.send(.get, link).text.contains("All 2 downloads it allowed have been made."), "which limit closed it")
            let after = try await client.send(.get, "/share/\(record.id)", headers: Self.owner).decode(ShareRecord.self)
            #expect(after.downloads == 2 && after.state == .expired)
            let log = try await client.send(.get, "/share/\(record.id)/downloads", headers: Self.owner)
            #expect(try log.decode([ShareDownload].self).count == 2)
            #expect(try await client.send(.get, "/share/\(record.id)/downloads").status == .unauthorized, "the log is the owner's")
            let events = try await client.send(.get, "/share/\(record.id)/events", headers: Self.owner).decode([ShareEvent].self)
            #expect(events.map(\.action) == [.created, .downloaded, .downloaded, .expired], "each download, then the first refusal for expiry")
        }
    }

    @Test func aCodedLinkAsksForItsCodeAndNeverGivesTheFileWithoutIt() async throws {
        let log = CapturedLog()
        try await withServer(Self.secured, log: log) { client in
            let record = try await linked(client, #", "code": "Open42""#)
            let link = try #require(record.link)
            let asking = try await client.send(.get, link)
            #expect(asking.status == .ok && asking.text.contains(#"name="code""#) && !asking.text.contains("/file"))
            #expect(!asking.text.contains("report") && !asking.text.contains("1.2 kB"), "nothing of the share shows before its code")
            let wrong = try await client.send(.get, "\(link)?code=Guess1")
            #expect(wrong.status == .forbidden && wrong.text.contains("not right"))
            #expect(try await client.send(.get, "\(link)/file").status == .forbidden)
            let right = try await client.send(.get, "\(link)?code=Open42")
            #expect(right.status == .ok && right.text.contains("\(link)/file?code=Open42"))
            #expect(try await client.send(.get, "\(link)/file?code=Open42").headers[.location] == Self.drive)
            #expect(!log.lines.joined().contains("Open42") && !log.lines.joined().contains("Guess1"), "codes never reach the log")
        }
    }

    /// A request from `address`, as a trusted proxy forwards it.
    private static func from(_ address: String) -> HTTPFields { [.init("X-Forwarded-For")!: address] }

    @Test func wrongCodesHoldOffTheGuesserAndNeverTheRecipient() async throws {
        try await withServer(Self.secured) { client in
            let link = try #require(try await linked(client, #", "code": "9JURF2""#).link)
            let guesser = Self.from("198.51.100.7")
            var told: [TestResponse] = []
            for _ in 0..<5 { told.append(try await client.send(.get, "\(link)?code=Nope99", headers: guesser)) }
            #expect(told.allSatisfy { $0.status == .forbidden })
            #expect(told[0].text.contains("4 tries left") && told[3].text.contains("1 try left") && told[4].text.contains("last try"))
            let refused = try await client.send(.get, "\(link)?code=9JURF2", headers: guesser)
            #expect(refused.status == .tooManyRequests)
            let wait = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...3600).contains(wait), "until the oldest wrong code leaves the window (an hour in these tests)")
            let recipient = Self.from("203.0.113.9")
            #expect(try await client.send(.get, "\(link)?code=9jurf2", headers: recipient).status == .ok, "the right code, in any case")
            #expect(try await client.send(.get, "\(link)?code=9JURF2\(String(repeating: "A", count: 256))", headers: recipient).status == .forbidden)
            let plain = try #require(try await linked(client).link)
            #expect(try await client.send(.get, plain, headers: guesser).status == .ok, "a link with no code is never held off")
        }
    }

    @Test func aShareGuessedAtFromEverywhereGivesEachAddressOneTry() async throws {
        try await withServer(Self.secured) { client in
            let link = try #require(try await linked(client, #", "code": "Open42""#).link)
            for host in 1...20 {
                #expect(try await client.send(.get, "\(link)?code=Nope99", headers: Self.from("198.51.100.\(host)")).status == .forbidden)
            }
            let latecomer = Self.from("198.51.100.200")
            #expect(try await client.send(.get, "\(link)?code=Nope99", headers: latecomer).status == .forbidden)
            #expect(try await client.send(.get, "\(link)?code=Open42", headers: latecomer).status == .tooManyRequests)
            #expect(try await client.send(.get, "\(link)?code=Open42", headers: Self.from("203.0.113.9")).status == .ok)
        }
    }

    @Test func oneAddressDownloadsAtMostThirtyTimesAMinute() async throws {
        try await withServer(Self.secured) { client in
            let record = try await linked(client)
            let link = try #require(record.link)
            for _ in 0..<30 { #expect(try await client.send(.get, "\(link)/file").status == .found) }
            let held = try await client.send(.get, "\(link)/file")
            #expect(held.status == .tooManyRequests && held.headers[.retryAfter] != nil, "each download is a write: not without end")
            let after = try await client.send(.get, "/share/\(record.id)", headers: Self.owner).decode(ShareRecord.self)
            #expect(after.downloads == 30, "the refused one is not counted")
        }
    }

    @Test func aPicturesPageShowsItsThumbnailOnlyToWhoeverMayOpenIt() async throws {
        try await withServer(Self.secured) { client in
            let response = try await client.send(
                .post, "/share", #"{"name": "photo.jpg", "size": 4662, "source": "\#(Self.drive)", "code": "Open42"}"#, headers: Self.owner)
            let record = try response.decode(ShareRecord.self)
            let link = try #require(record.link)
            let picture = try await client.execute(
                uri: "/share/\(record.id)/thumbnail", method: .put, headers: [.authorization: "Bearer s3cret", .contentType: "image/jpeg"],
                body: ByteBuffer(bytes: try Pictures.bytes("photo.jpg")))
            #expect(picture.status == .ok)
            let page = try await client.send(.get, "\(link)?code=Open42")
            #expect(page.text.contains(#"<img class="thumbnail" src="\#(link)/thumbnail?code=Open42""#))
            let thumbnail = try await client.send(.get, "\(link)/thumbnail?code=Open42")
            #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/webp")
            #expect(Array(buffer: thumbnail.body).starts(with: Array("RIFF".utf8)))
            let tag = try #require(thumbnail.headers[.eTag])
            let again = try await client.send(.get, "\(link)/thumbnail?code=Open42", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified && again.body.readableBytes == 0, "a page shown again does not fetch it again")
            #expect(try await client.send(.get, "\(link)/thumbnail").status == .notFound, "not without the code")
            #expect(try await client.send(.get, "\(link)/thumbnail", headers: [.ifNoneMatch: tag]).status == .notFound)
            let plain = try #require(try await linked(client).link)
            #expect(!(try await client.send(.get, plain).text.contains("<img")))
            #expect(try await client.send(.get, "\(plain)/thumbnail").status == .notFound)
        }
    }

    @Test func madeUpLinksAreNotFoundThenRefusedFromTheSameAddress() async throws {
        try await withServer(Self.secured) { client in
            let real = try #require(try await linked(client).link)
            #expect(try await client.send(.get, "/s/not-a-token").status == .notFound)
            for _ in 0..<4 { #expect(try await client.send(.get, "/s/AAAAAAAAAAAAAAAAAAAAAA/file").status == .notFound) }
            #expect(try await client.send(.get, "/s/BBBBBBBBBBBBBBBBBBBBBB").status == .tooManyRequests)
            #expect(try await client.send(.get, real).status == .ok, "a link that exists still opens")
        }
    }

    @Test func aNameCannotTurnItselfAroundOnTheRecipientsPage() async throws {
        try await withServer(Self.secured) { client in
            let response = try await client.send(
                .post, "/share", #"{"name": "invoice\u202Efdp.exe", "size": 10, "source": "\#(Self.drive)"}"#, headers: Self.owner)
            let page = try await client.send(.get, try #require(try response.decode(ShareRecord.self).link))
            #expect(page.text.contains("invoice&lt;U+202E&gt;fdp.exe") && !page.text.contains("\u{202E}"), "the control is shown, never obeyed")
        }
    }

    @Test func aSourceLinkLeadsToAnAddressHTTPCanCarry() async throws {
        try await withServer(Self.secured) { client in
            let response = try await client.send(
                .post, "/share", #"{"name": "cv.pdf", "size": 10, "source": "https://drive.example.com:8443/s/résumé?x=1"}"#, headers: Self.owner)
            let record = try response.decode(ShareRecord.self)
            #expect(record.source == "https://drive.example.com:8443/s/r%C3%A9sum%C3%A9?x=1")
            let file = try await client.send(.get, try #require(record.link) + "/file")
            #expect(file.status == .found && file.headers[.location] == record.source)
            let v6 = try await client.send(
                .post, "/share", #"{"name": "a.pdf", "size": 1, "source": "https://[2001:db8::1]/a"}"#, headers: Self.owner)
            #expect(v6.status == .created)
        }
    }

    /// A code typed in the page goes in the request's body, and the browser carries it for that link alone: the
    /// address bar, a forwarded URL or a reload never hold it. A stale remembered code is no try.
    @Test func aCodeTypedInThePageOpensTheLinkWithoutEverStandingInItsAddress() async throws {
        try await withServer(Self.secured) { client in
            let record = try await linked(client, #", "code": "Open42""#)
            let link = try #require(record.link)
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "http://localhost"]
            let asking = try await client.send(.get, link)
            #expect(asking.text.contains(#"<form method="post">"#))
            let wrong = try await client.send(.post, link, "code=Guess1", headers: form)
            #expect(wrong.status == .forbidden && wrong.text.contains("not right") && wrong.headers[.setCookie] == nil)
            let right = try await client.send(.post, link, "code=open42", headers: form)
            #expect(right.status == .seeOther && right.headers[.location] == link, "the page again, at its plain address")
            let cookie = try #require(right.headers[.setCookie])
            #expect(cookie == "share-code=open42; Path=\(link); Max-Age=43200; HttpOnly; SameSite=Lax")
            let remembered: HTTPFields = [.cookie: "theme=dark; share-code=open42"]
            let page = try await client.send(.get, link, headers: remembered)
            #expect(page.status == .ok && page.text.contains(#"href="\#(link)/file""#) && !page.text.contains("open42"), "no code in any link")
            #expect(try await client.send(.get, "\(link)/file", headers: remembered).headers[.location] == Self.drive)
            let stale = try await client.send(.get, link, headers: [.cookie: "share-code=Old999"])
            #expect(stale.status == .ok && stale.text.contains(#"name="code""#) && !stale.text.contains("not right"), "a stale code is no try")
            var fromElsewhere = form
            fromElsewhere[.origin] = "https://evil.example"
            let elsewhere = try await client.send(.post, link, "code=Open42", headers: fromElsewhere)
            #expect(elsewhere.status == .forbidden, "another site cannot try codes through a visitor's browser")
        }
    }

    /// The recipient is told on which service, what kind of file in words, times in their own zone (a script
    /// allowed by its hash alone), where a share made elsewhere leads, and which limit closed a link.
    @Test func theRecipientsPageSaysWhoseServiceWhatKindWhereAndWhyItClosed() async throws {
        try await withServer({
            Self.secured(&$0)
            $0.server.serviceName = "Acme Files"
        }) { client in
            let record = try await linked(client, #", "maxDownloads": 1"#)
            let link = try #require(record.link)
            let page = try await client.send(.get, link)
            #expect(page.text.contains("<title>Q1 &lt;b&gt;report&lt;b&gt;.pdf · Acme Files</title>"))
            #expect(page.text.contains(#"<p class="type">PDF</p>"#), "the kind in words")
            #expect(page.text.contains("This file is kept on <strong>drive.example.com</strong>") && page.text.contains("Open on drive.example.com"))
            #expect(page.text.contains(#"<time datetime=""#))
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src '\(RecipientPage.localTimesHash)'"))
            #expect(page.text.contains("<script>\(RecipientPage.localTimes)</script>"), "the one script the policy allows")
            _ = try await client.send(.get, "\(link)/file")
            let spent = try await client.send(.get, link)
            #expect(spent.status == .gone && spent.text.contains("Its one download has been made."), "which limit closed it")
        }
    }

    /// The owner's chosen name and message greet the recipient once any code is given — as text, never as markup —
    /// and change or go when the owner says so.
    @Test func theRecipientsPageSaysWhoSentItAndTheirMessageAfterTheCode() async throws {
        try await withServer(Self.secured) { client in
            let record = try await linked(client, #", "code": "Open42", "sender": "Zoé <i>M</i>", "message": "Signed:\r\n<script>x()</script>""#)
            #expect(record.sender == "Zoé <i>M</i>" && record.message == "Signed:\n<script>x()</script>", "line breaks kept as \\n")
            let link = try #require(record.link)
            let asking = try await client.send(.get, link)
            #expect(!asking.text.contains("Zoé") && !asking.text.contains("Signed"), "nothing of the share before its code")
            let page = try await client.send(.get, link, headers: [.cookie: "share-code=Open42"])
            #expect(page.text.contains(#"<h1 class="lead">Zoé &lt;i&gt;M&lt;/i&gt; shared a file with you</h1>"#))
            #expect(page.text.contains(#"<blockquote class="message">Signed:\#n&lt;script&gt;x()&lt;/script&gt;</blockquote>"#))
            let patch = #"{"sender": null, "message": "Page 5."}"#
            let changed = try await client.send(.patch, "/share/\(record.id)", patch, headers: Self.owner).decode(ShareRecord.self)
            #expect(changed.sender == nil && changed.message == "Page 5.")
            let again = try await client.send(.get, link, headers: [.cookie: "share-code=Open42"])
            #expect(again.text.contains(#"<h1 class="lead">A file was shared with you</h1><blockquote class="message">Page 5.</blockquote>"#))
        }
    }

    @Test func aRevokedLinkSaysSoAndAPastOneHasExpired() async throws {
        try await withServer(Self.secured) { client in
            let record = try await linked(client)
            let link = try #require(record.link)
            let revoke = try await client.send(.patch, "/share/\(record.id)", #"{"revoked": true}"#, headers: Self.owner)
            #expect(revoke.status == .ok)
            #expect(try revoke.decode(ShareRecord.self).state == .revoked)
            let gone = try await client.send(.get, link)
            #expect(gone.status == .gone && gone.text.contains("Its owner stopped sharing it."))
            let past = try await linked(client, #", "expiresAt": "2020-01-01T00:00:00Z""#)
            #expect(past.state == .expired)
            #expect(try await client.send(.get, try #require(past.link) + "/file").status == .gone)
        }
    }

    @Test(arguments: [
        (#""source": "http://drive.example.com/x""#, "source"), (#""source": "https://""#, "source"), (#""code": "ab""#, "code"),
        (#""source": "https://bank.example@evil.example/x""#, "source"), (#""source": "https://-drive-.example/x""#, "source"),
        (#""source": "https://bücher.example/x""#, "source"), (#""source": "https://drive.example.com:0/x""#, "source"),
        (#""source": "https://drive.example.com/a b""#, "source"),
        (#""code": "with space""#, "code"), (#""code": false"#, "code"), (#""maxDownloads": 0"#, "maxDownloads"),
        (#""maxDownloads": 1.5"#, "maxDownloads"), (#""expiresAt": "next week""#, "expiresAt"),
        (#""sender": "Your bank\u202E""#, "sender"), (#""sender": "two\nlines""#, "sender"), (#""sender": "  ""#, "sender"),
        ("\"sender\": \"\(String(repeating: "é", count: 81))\"", "sender"), (#""message": "\u0007bell""#, "message"),
        ("\"message\": \"\(String(repeating: "x", count: 1001))\"", "message"), (#""message": 42"#, "message"),
    ])
    func aBadLinkFieldIsAProblemNamingIt(fields: String, field: String) async throws {
        try await withServer { client in
            let created = try await client.send(.post, "/share", #"{"name": "a.pdf", "size": 1, \#(fields)}"#)
            #expect(created.status == .badRequest && created.problemDetail.contains("'\(field)'"), "\(created.problemDetail)")
            let record = try await client.create(#""name": "b.pdf", "size": 1"#)
            let patched = try await client.send(.patch, "/share/\(record.id)", "{\(fields)}")
            if field != "source" {
                #expect(patched.status == .badRequest && patched.problemDetail.contains("'\(field)'"), "\(patched.problemDetail)")
            }
        }
    }

    /// The page's *Stop sharing* has an Undo: the same link opens again, and the history says so.
    @Test func aPatchClearsWithNullAndFalseUndoesARevocation() async throws {
        try await withServer { client in
            let record = try await client.create(#""name": "a.pdf", "size": 1, "source": "\#(Self.drive)", "code": true, "maxDownloads": 3"#)
            #expect(record.code?.count == 6, "true draws a code")
            let cleared = try await client.send(.patch, "/share/\(record.id)", #"{"code": null, "maxDownloads": null}"#)
            let after = try cleared.decode(ShareRecord.self)
            #expect(after.code == nil && after.maxDownloads == nil && after.name == "a.pdf")
            let stopped = try await client.send(.patch, "/share/\(record.id)", #"{"revoked": true}"#).decode(ShareRecord.self)
            #expect(stopped.state == .revoked)
            let undone = try await client.send(.patch, "/share/\(record.id)", #"{"revoked": false}"#).decode(ShareRecord.self)
            #expect(undone.state == .active && undone.link == record.link, "the same link opens again")
            let events = try await client.send(.get, "/share/\(record.id)/events").decode([ShareEvent].self)
            #expect(events.suffix(2).map(\.action) == [.revoked, .expiryChanged] && events.last?.from == "revoked", "\(events)")
            let wrong = try await client.send(.patch, "/share/\(record.id)", #"{"revoked": "no"}"#)
            #expect(wrong.status == .badRequest)
        }
    }

    @Test func aPublicHistoryReadWithoutSignInShowsLinksButNeverCodes() async throws {
        try await withServer({
            $0.auth.tokens = ["s3cret"]
            $0.auth.publicRead = true
        }) { client in
            let record = try await linked(client, #", "code": "Open42""#)
            let anonymous = try await client.send(.get, "/share").decode([ShareRecord].self)
            #expect(anonymous.first?.link == record.link && anonymous.first?.code == nil)
            #expect(try await client.send(.get, "/share/\(record.id)").decode(ShareRecord.self).code == nil)
            #expect(try await client.send(.get, "/share", headers: Self.owner).decode([ShareRecord].self).first?.code == "Open42")
        }
    }

    @Test func linksLiveUnderTheBasePathOrWhereShareURLPoints() async throws {
        try await withServer({ $0.server.basePath = "/files" }) { client in
            let record = try await client.create(#""name": "a.pdf", "size": 1, "source": "\#(Self.drive)""#, at: "/files/share")
            let link = try #require(record.link)
            #expect(link.hasPrefix("/files/s/"))
            #expect(try await client.send(.get, link).text.contains(#"href="\#(link)/file""#))
        }
        try await withServer({ $0.server.shareURL = "https://files.example.org/s/{token}" }) { client in
            let record = try await client.create(#""name": "a.pdf", "size": 1, "source": "\#(Self.drive)""#)
            let token = try #require(record.link?.split(separator: "/").last)
            #expect(record.link == "https://files.example.org/s/\(token)" && LinkToken.isPlausible(token))
        }
    }
}
