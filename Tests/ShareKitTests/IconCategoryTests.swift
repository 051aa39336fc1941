import ShareKit
import Testing

@Suite struct IconCategoryTests {
    @Test(arguments: [
        ("photo.PNG", IconCategory.image), ("scan.heic", .image), ("logo.svg", .image), ("Report.pdf", .pdf),
        ("letter.docx", .doc), ("notes.md", .txt), ("slides.key", .ppt), ("budget.csv", .xls), ("backup.tar.gz", .zip),
        ("a.7z", .zip), ("song.mp3", .audio), ("clip.MOV", .video), ("README", .other), (".bashrc", .other),
        ("archive.", .other), ("weird.pdf.exe", .other), ("报告.PDF", .pdf),
    ])
    func followsTheExtensionCaseInsensitively(name: String, category: IconCategory) {
        #expect(IconCategory(fileName: name) == category)
    }
}
