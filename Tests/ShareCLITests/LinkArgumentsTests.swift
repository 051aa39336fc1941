import Foundation
import ShareKit
import Testing

@testable import ShareCLI

/// How `share add --code` and the link's times are read: what a user typing them would expect.
@Suite struct LinkArgumentsTests {
    @Test(arguments: [
        (["add", "f.pdf", "--code"], ["add", "f.pdf", "--code=-"]),
        (["add", "--code", "Open42", "f.pdf"], ["add", "--code", "Open42", "f.pdf"]),
        (["add", "--code", "report.pdf"], ["add", "--code=-", "report.pdf"]),
        (["add", "--code", "--expires", "7d", "f.pdf"], ["add", "--code=-", "--expires", "7d", "f.pdf"]),
        (["add", "f.pdf", "--code", "Ab"], ["add", "f.pdf", "--code", "Ab"]),
        (["add", "--", "--code"], ["add", "--", "--code"]),
    ])
    func aBareCodeAsksTheServerToDrawOne(arguments: [String], parsed: [String]) {
        #expect(CodeArgument.normalize(arguments) == parsed)
    }

    @Test func spansDatesAndTimesEachMeanWhatTheySay() throws {
        #expect(LinkExpiry.span("7d") == 7 * 86_400_000 && LinkExpiry.span("30m") == 1_800_000 && LinkExpiry.span("2w") == 1_209_600_000)
        #expect(LinkExpiry.span("0d") == nil && LinkExpiry.span("d") == nil && LinkExpiry.span("7 d") == nil && LinkExpiry.span("7y") == nil)
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(try LinkExpiry.at("2021-01-24", in: tokyo).description == "2021-01-24T15:00:00.000Z", "through the end of the day, in the zone")
        #expect(try LinkExpiry.at("2021-01-24T18:00:00+08:00", in: tokyo).description == "2021-01-24T10:00:00.000Z")
        let now = Timestamp(millisecondsSinceEpoch: 1_000_000)
        #expect(try LinkExpiry.after("12h", from: now).millisecondsSinceEpoch == 1_000_000 + 43_200_000)
        #expect(throws: CommandFailure.self) { try LinkExpiry.parse("soon", in: tokyo) }
    }
}
