import ShareKit
import Testing

/// People type words: `final report` must find `final_report.pdf`, in either order, while a quoted phrase and the
/// characters inside a word stay literal.
@Suite struct SearchWordsTests {
    @Test func wordsSplitAtSpacesAndTheSeparatorsNamesAreWrittenWith() {
        #expect(SearchWords.pieces(of: "final report") == ["final", "report"])
        #expect(SearchWords.pieces(of: "  Draft_Report-v2.PDF, ") == ["draft", "report", "v2", "pdf"])
        #expect(SearchWords.pieces(of: "年度\u{3000}报告") == ["年度", "报告"], "an ideographic space separates too")
    }

    @Test func aQuotedPhraseIsOnePieceSeparatorsAndAll() {
        #expect(SearchWords.pieces(of: "\"report draft\" final") == ["report draft", "final"])
        #expect(SearchWords.pieces(of: "\"100%_done") == ["100%_done"], "an unclosed quote runs to the end")
        #expect(SearchWords.pieces(of: "a\"b c\"d") == ["a", "b c", "d"])
    }

    @Test func piecesAreFoldedAndNoneIsKeptThatAnotherHolds() {
        #expect(SearchWords.pieces(of: "RÉSUMÉ Straße") == ["résumé", "strasse"])
        #expect(SearchWords.pieces(of: "re report REPORT") == ["report"])
        #expect(SearchWords.pieces(of: "port report") == ["report"])
    }

    @Test func textOfSeparatorsOnlyIsLiteralAndBlankTextIsNone() {
        #expect(SearchWords.pieces(of: "_") == ["_"])
        #expect(SearchWords.pieces(of: " - ") == ["-"])
        #expect(SearchWords.pieces(of: "   ") == [])
        #expect(SearchWords.pieces(of: "\"\"") == [])
        #expect(SearchWords.pieces(of: "%") == ["%"], "no wildcards")
    }

    @Test func aSearchTakesAtMost32WordsEachNoLongerThanAName() {
        #expect(SearchWords.problem(with: Array(repeating: "a", count: 32).joined(separator: " ")) == nil)
        #expect(SearchWords.problem(with: Array(repeating: "a", count: 33).joined(separator: " ")) == "has 33 words; a search takes at most 32")
        #expect(SearchWords.problem(with: String(repeating: "é", count: 128))?.hasPrefix("has a word longer than a name can be") == true)
        #expect(SearchWords.problem(with: String(repeating: "e", count: 255)) == nil)
    }
}
