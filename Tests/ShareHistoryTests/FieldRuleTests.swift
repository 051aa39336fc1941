import ShareHistory
import ShareKit
import Testing

@Suite struct FileNameTests {
    @Test func namesAreStoredNFCNormalised() throws {
        let decomposed = "Re\u{0301}sume\u{0301}.pdf"
        #expect(try FileName.validate(decomposed) == "Résumé.pdf")
        #expect(try FileName.validate("报告 2021.docx") == "报告 2021.docx")
    }

    @Test func theLimitIs255BytesOfUTF8NotCharacters() throws {
        #expect(try FileName.validate(String(repeating: "a", count: 255)).utf8.count == 255)
        #expect(throws: ShareError.self) { try FileName.validate(String(repeating: "a", count: 256)) }
        // 85 three-byte characters are 255 bytes; one more is too many.
        #expect(try FileName.validate(String(repeating: "报", count: 85)).count == 85)
        #expect(throws: ShareError.self) { try FileName.validate(String(repeating: "报", count: 86)) }
    }

    @Test(arguments: [
        "", ".", "..", "a/b", "a/\u{301}b", "nul\u{0}byte", "bell\u{7}", "esc\u{1B}[2J", "del\u{7F}", "c1\u{85}", "csi\u{9B}",
        " leading", "trailing ", "tab\t", "\u{3000}ideographic-space", "nbsp\u{A0}",
    ])
    func unsafeNamesAreRefusedNamingTheField(name: String) {
        #expect {
            try FileName.validate(name)
        } throws: { error in
            guard case .invalidField("name", _) = error as? ShareError else { return false }
            return true
        }
    }

    @Test func innerSpacesAndDotsAreFine() throws {
        #expect(try FileName.validate("my report .v2..pdf") == "my report .v2..pdf")
        #expect(try FileName.validate(".hidden") == ".hidden")
    }
}

@Suite struct FolderPathTests {
    @Test(arguments: [
        ("/", "/"), ("//", "/"), ("/reports", "/reports"), ("/reports/2021/", "/reports/2021"), ("//a///b", "/a/b"),
        ("/Cafe\u{301}", "/Café"),
    ])
    func foldersAreNormalised(input: String, normalised: String) throws {
        #expect(try FolderPath.normalize(input) == normalised)
    }

    @Test(arguments: ["", "reports", "/a/../b", "/./a", "/a/ b", "/tab\t/x", "/a/\u{1B}"])
    func badFoldersAreRefusedNamingTheField(input: String) {
        #expect {
            try FolderPath.normalize(input)
        } throws: { error in
            guard case .invalidField("folder", _) = error as? ShareError else { return false }
            return true
        }
    }
}

@Suite struct ShareIDTests {
    @Test func generatedIdsAreEightCrockfordCharacters() {
        let crockford = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let id = ShareID.generate()
            #expect(id.count == 8)
            #expect(id.allSatisfy(crockford.contains))
            seen.insert(id)
        }
        #expect(seen.count == 10_000, "40 random bits should not collide in 10,000 draws")
    }

    @Test func importedIdsFollowTheirOwnRule() throws {
        #expect(try ShareID.validate("legacy_ID-42") == "legacy_ID-42")
        #expect(try ShareID.validate(String(repeating: "x", count: 64)).count == 64)
        for bad in ["", String(repeating: "x", count: 65), "has space", "slash/", "ümlaut", "import", "EXPORT", "Stats"] {
            #expect(throws: ShareError.self, "\(bad)") { try ShareID.validate(bad) }
        }
    }
}
