import ShareKit
import Testing

/// A sender's name and a message are shown to anyone with the link: kept as typed, but never able to disguise the page.
@Suite struct ShareGreetingTests {
    @Test func textIsTrimmedNormalisedAndAMessageKeepsItsLinesAndTabs() throws {
        #expect(try ShareGreeting.sender("  Zoe\u{301} Martin ") == "Zoé Martin")
        #expect(try ShareGreeting.message("Hello,\r\n\tthe contract.\n\n") == "Hello,\n\tthe contract.")
        #expect(try ShareGreeting.sender(String(repeating: "é", count: 80)).count == 80, "80 characters, however many bytes")
    }

    @Test(arguments: [
        "Bank\u{202E}", "a\u{2066}b", "a\u{200F}b", "a\u{061C}b", "two\nlines", "tab\there", "bell\u{7}", "c\u{85}1", " ",
        String(repeating: "x", count: 81),
    ])
    func aSenderThatCouldDisguiseThePageIsRefusedNamingTheField(_ text: String) {
        #expect(throws: ShareError.self) { try ShareGreeting.sender(text) }
        do {
            _ = try ShareGreeting.sender(text)
        } catch {
            #expect(error.detail.contains("'sender'"), "\(error.detail)")
        }
    }

    @Test(arguments: ["over\u{202D}ride", "nul\u{0}", "esc\u{1B}[2J", "\n\t", String(repeating: "x", count: 1001)])
    func aMessageRefusesControlsButLinesAndTabs(_ text: String) {
        #expect(throws: ShareError.self) { try ShareGreeting.message(text) }
    }
}
