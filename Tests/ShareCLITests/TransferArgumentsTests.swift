import Foundation
import ShareClient
import Testing

@testable import ShareCLI
@testable import ShareClient

/// How `share get` and `share add` read what a user gives them: a rate, a link, the name a server sends.
@Suite struct TransferArgumentsTests {
    @Test func aRateIsBytesASecondInTheUnitsSizesAreShownIn() {
        #expect(TransferRate(argument: "500k")?.bytesPerSecond == 500_000 && TransferRate(argument: "2M")?.bytesPerSecond == 2_000_000)
        #expect(TransferRate(argument: "1024")?.bytesPerSecond == 1024 && TransferRate(argument: "1G")?.bytesPerSecond == 1_000_000_000)
        for wrong in ["", "0", "-1k", "2MB", "fast", "99999999999G"] { #expect(TransferRate(argument: wrong) == nil, "\(wrong)") }
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
