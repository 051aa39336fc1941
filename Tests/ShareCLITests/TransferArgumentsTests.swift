import Foundation
import ShareClient
import ShareTestSupport
import Testing

@testable import ShareCLI
@testable import ShareClient

/// How `share get`, `share add` and `share request` read what a user gives them: a rate or a size, a link, the name a
/// server sends.
@Suite struct TransferArgumentsTests {
    @Test func aRateOrASizeIsBytesInTheUnitsSizesAreShownIn() {
        #expect(ByteAmount(argument: "500k")?.bytes == 500_000 && ByteAmount(argument: "2M")?.bytes == 2_000_000)
        #expect(ByteAmount(argument: "1024")?.bytes == 1024 && ByteAmount(argument: "1G")?.bytes == 1_000_000_000)
        #expect(ByteAmount(argument: "50MB")?.bytes == 50_000_000 && ByteAmount(argument: "2T")?.bytes == 2_000_000_000_000)
        for wrong in ["", "B", "0", "-1k", "2MiB", "fast", "99999999999G"] { #expect(ByteAmount(argument: wrong) == nil, "\(wrong)") }
    }

    @Test func aLinksFileKeepsItsQueryAndGetsItsCode() throws {
        let api = ShareAPI(transport: FakeTransport(), server: try #require(ServerAddress("http://127.0.0.1:8080/files")), token: nil)
        #expect(api.fileURL(ofLink: "/files/s/abc", code: nil) == "http://127.0.0.1:8080/files/s/abc/file")
        #expect(api.fileURL(ofLink: "https://x.org/s/abc", code: "Open 42") == "https://x.org/s/abc/file?code=Open%2042")
        #expect(api.fileURL(ofLink: "https://x.org/s/abc?code=A1b2", code: nil) == "https://x.org/s/abc/file?code=A1b2")
    }

    @Test func theNameOfADownloadIsTheServersUTF8NameElseItsPlainOne() {
        #expect(ShareAPI.fileName(#"attachment; filename="r_p ort.pdf"; filename*=UTF-8''r%C3%A9p%20ort.pdf"#) == "rép ort.pdf")
        #expect(ShareAPI.fileName(#"attachment; filename="plain.txt""#) == "plain.txt")
        #expect(ShareAPI.fileName("inline") == nil)
    }
}

/// `share add` through a balancer whose node dies mid-upload: the PATCH ends in a 502, the next HEAD reaches another
/// node, and the rest of the file goes from the offset it holds.
@Suite struct UploadResumptionTests {
    @Test func aPatchAnswered502IsResumedFromTheOffsetTheServerHolds() throws {
        let folder = try temporaryFolder("resume")
        let file = folder.appending(path: "video.mp4")
        try Data(count: 3000).write(to: file)
        let upload = "\(server)/share/uploads/AAAAAAAAAAAAAAAAAAAAAA"
        let transport = FakeTransport()
            .on("POST", "\(server)/share/uploads", status: 201, headers: ["location": "/share/uploads/AAAAAAAAAAAAAAAAAAAAAA"])
            .on("HEAD", upload, headers: ["upload-offset": "0"])
            .on("PATCH", upload, status: 502, body: "<html>502 Bad Gateway</html>")
            .on("HEAD", upload, headers: ["upload-offset": "1000"])
            .on("PATCH", upload, body: recordJSON(name: "video.mp4", size: 3000))
        let run = try runShare(["add", file.path], transport: transport, environment: ["XDG_STATE_HOME": folder.path])
        #expect(run.exitStatus == 0 && run.output.hasPrefix("7K2M9QDX  video.mp4\n"), "\(run.output)")
        let patches = transport.sent.filter { $0.method == "PATCH" }
        #expect(patches.map { $0.headers["Upload-Offset"] } == ["0", "1000"], "the rest, from where the server stopped")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "share/uploads").path)) ?? []).isEmpty)
    }
}
