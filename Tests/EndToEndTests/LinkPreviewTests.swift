import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// A recipient sees a file before saving it: a picture or a PDF's first page large, a text's beginning, a video or a
/// song in a player. If previews counted as downloads, a link for one download would be spent by a look; if a
/// player's source were served inline to anything, a shared HTML file could run on the service's origin.
@Suite struct LinkPreviewTests {
    /// `share add FILE` with `options` on `daemon`: the record, its link made absolute.
    private func added(_ file: URL, _ options: [String] = [], on daemon: Daemon) throws -> (record: ShareRecord, link: String) {
        let run = try share(["add", "--json", file.path] + options, server: daemon.address)
        #expect(run.status == 0, "\(run.stderr)")
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(run.stdout.utf8))
        return (record, daemon.address + (record.link ?? ""))
    }

    private func downloads(_ id: String, on daemon: Daemon) async throws -> Int64 {
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(try await http("GET", daemon.address + "/share/" + id).body.utf8))
        return record.downloads ?? 0
    }

    @Test func aPictureAndAPDFArePreviewedLargeBehindTheCodeAndNeverCounted() async throws {
        let folder = try temporaryFolder("previews")
        let daemon = try Daemon(folder: folder)
        let photo = folder.appending(path: "holiday.webp")
        try Data(try Pictures.bytes("picture.webp")).write(to: photo)
        let (picture, pictureLink) = try added(photo, ["--code", "Open42", "--max-downloads", "1", "--no-thumbnail"], on: daemon)
        let page = try await http("GET", pictureLink + "?code=Open42")
        #expect(
            page.body.contains(#"<img class="preview" src="/s/"#) && page.body.contains(#"/preview?code=Open42" alt="A preview of holiday.webp">"#))
        let preview = try await http("GET", pictureLink + "/preview?code=Open42")
        #expect(preview.status == 200 && preview.headers["content-type"] == "image/webp" && preview.body.utf8.count > 100)
        #expect(preview.headers["x-content-type-options"] == "nosniff" && preview.headers["content-security-policy"]?.hasPrefix("sandbox") == true)
        let tag = try #require(preview.headers["etag"])
        #expect(try await http("GET", pictureLink + "/preview?code=Open42", headers: ["If-None-Match": tag]).status == 304)
        #expect(try await http("GET", pictureLink + "/preview").status == 404, "nothing of the share without its code")
        #expect(try await http("GET", pictureLink + "/preview?code=Open42").status == 200, "looked at twice")
        #expect(try await downloads(picture.id, on: daemon) == 0, "looking is not downloading: the one download is still there")
        #expect(try await http("GET", pictureLink + "/file?code=Open42").status == 200)
        let owners = try await http("GET", daemon.address + "/share/\(picture.id)/preview")
        #expect(owners.status == 200 && owners.headers["content-type"] == "image/webp", "the owner's page sees the same preview")

        let document = folder.appending(path: "plan.pdf")
        try Data(Documents.pdf(width: 600, height: 800)).write(to: document)
        let (plan, planLink) = try added(document, on: daemon)
        #expect(try await http("GET", planLink).body.contains(#"alt="A preview of plan.pdf""#))
        let page1 = try await http("GET", planLink + "/preview")
        #expect(page1.status == 200 && page1.headers["content-type"] == "image/webp", "the first page, drawn")
        #expect(try share(["revoke", plan.id, "--yes"], server: daemon.address).status == 0)
        #expect(try await http("GET", planLink + "/preview").status == 404, "a closed link shows nothing of its file")
        let notPDF = folder.appending(path: "fake.pdf")
        try Data("%PDF-1.4 but nothing after".utf8).write(to: notPDF)
        let (fake, fakeLink) = try added(notPDF, on: daemon)
        #expect(try await http("GET", fakeLink + "/preview").status == 404, "a file that cannot be drawn has no preview")
        let refused = try await http("GET", daemon.address + "/share/\(fake.id)/preview")
        #expect(refused.status == 404 && refused.body.contains("has no preview"), "\(refused.body)")
        #expect(try await http("GET", fakeLink).status == 200, "and its page still opens")
        #expect(daemon.stop() == 0)
    }

    @Test func aTextsBeginningIsShownEscapedAndSaysWhereItWasCut() async throws {
        let folder = try temporaryFolder("text-previews")
        let daemon = try Daemon(folder: folder)
        let note = folder.appending(path: "note.txt")
        try Data("Café <script>alert(1)</script>\nsecond line".utf8).write(to: note)
        let (_, noteLink) = try added(note, on: daemon)
        let page = try await http("GET", noteLink).body
        #expect(page.contains("Café &lt;script&gt;alert(1)&lt;/script&gt;\nsecond line</pre>") && !page.contains("<script>alert"))
        #expect(!page.contains(#"class="cut""#), "all of it is shown")

        let long = folder.appending(path: "long.md")
        let lines = (0..<2_000).map { "line \($0): " + String(repeating: "é", count: 40) }.joined(separator: "\n")
        try Data(lines.utf8).write(to: long)
        let longPage = try await http("GET", try added(long, on: daemon).link).body
        #expect(longPage.contains("line 0: ") && !longPage.contains("line 1999: ") && !longPage.contains("\u{FFFD}"), "cut whole")
        #expect(longPage.contains(#"<p class="cut">The first 65.5 kB of 182.9 kB.</p>"#))

        let binary = folder.appending(path: "data.txt")
        try Data([0x41, 0x00, 0x42]).write(to: binary)
        #expect(try await !http("GET", try added(binary, on: daemon).link).body.contains(#"<pre class="text""#), "a NUL is no text")
        #expect(daemon.stop() == 0)
    }

    @Test func aPlayerStreamsTheFileUncountedAndAnythingElseGetsTheDownload() async throws {
        let folder = try temporaryFolder("players")
        let daemon = try Daemon(folder: folder)
        let film = folder.appending(path: "film.mp4")
        let filmBytes = try randomBytes(200_000, writtenTo: film)
        let (record, link) = try added(film, on: daemon)
        #expect(try await http("GET", link).body.contains(#"<video class="preview" src="/s/"#))
        let player = ["Sec-Fetch-Dest": "video"]
        let part = try await http("GET", link + "/media", headers: player.merging(["Range": "bytes=0-99"]) { $1 })
        #expect(part.status == 206 && part.headers["content-type"] == "video/mp4" && part.headers["content-disposition"] == "inline")
        let whole = try await http("GET", link + "/media", headers: player)
        #expect(whole.status == 200 && whole.headers["content-length"] == String(filmBytes.count))
        #expect(try await downloads(record.id, on: daemon) == 0, "played, not downloaded")
        let fetched = try await http("GET", link + "/media")
        #expect(fetched.headers["content-disposition"]?.hasPrefix("attachment") == true, "to anything but a player, the download")
        #expect(fetched.headers["content-type"] == "application/octet-stream")
        try await waitUntil("the download counted") { try await downloads(record.id, on: daemon) == 1 }

        let song = folder.appending(path: "song.mp3")
        try randomBytes(5_000, writtenTo: song)
        let (limited, limitedLink) = try added(song, ["--max-downloads", "2"], on: daemon)
        #expect(try await !http("GET", limitedLink).body.contains("<audio"), "no player where downloads are limited")
        let asked = try await http("GET", limitedLink + "/media", headers: ["Sec-Fetch-Dest": "audio"])
        #expect(asked.headers["content-disposition"]?.hasPrefix("attachment") == true)
        try await waitUntil("the limited download counted") { try await downloads(limited.id, on: daemon) == 1 }
        #expect(daemon.stop() == 0)
    }
}
