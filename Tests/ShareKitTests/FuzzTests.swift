import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// Seeded property tests over every reader of outside input in ShareKit: thousands of hostile inputs each, a
/// bounded time in CI, and a seed that replays any failure. No crash, no hang, and every failure a clear error.
@Suite struct FuzzTests {
    @Test func queryStringsDecodeOrNameTheirParameter() {
        var generator = SplitMix(seed: 20_261_122)
        for _ in 0..<5000 {
            let query = generator.hostileText()
            do {
                let listing = try ListingQuery(query: query)
                // Whatever decodes, encodes and decodes again to the same query.
                #expect(try ListingQuery(query: listing.formEncoded) == listing, "\(query.debugDescription)")
            } catch .invalidParameter(let name, let reason) {
                #expect(!reason.isEmpty && !name.isEmpty, "\(query.debugDescription)")
            } catch {
                Issue.record("\(query.debugDescription): \(error)")
            }
        }
    }

    @Test func namesAndFoldersAreValidOrRefusedNamingTheField() throws {
        var generator = SplitMix(seed: 7)
        for _ in 0..<5000 {
            let text = generator.hostileText(maxPieces: 8)
            if let name = try? FileName.validate(text) {
                #expect(name.utf8.count <= FileName.maxBytes && !name.contains("/") && name == SearchKey.nfc(name))
                #expect(!name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            } else {
                #expect(throws: ShareError.self) { try FileName.validate(text) }
            }
            if let folder = try? FolderPath.normalize("/" + text) {
                #expect(folder.hasPrefix("/") && !folder.contains("//") && (folder == "/" || !folder.hasSuffix("/")))
                #expect(try FolderPath.normalize(folder) == folder, "normalising twice changes nothing")
            }
        }
    }

    @Test func rfc3339ReadsWhatItWritesAndRefusesTheRest() {
        var generator = SplitMix(seed: 3339)
        for _ in 0..<5000 {
            let milliseconds = Int64.random(
                in: Timestamp.earliest.millisecondsSinceEpoch...Timestamp.latest.millisecondsSinceEpoch, using: &generator)
            let time = Timestamp(millisecondsSinceEpoch: milliseconds)
            #expect(Timestamp(rfc3339: time.description) == time)
            let text = generator.hostileText(maxPieces: 10)
            if let read = Timestamp(rfc3339: text) {
                #expect(read >= Timestamp.earliest && read <= Timestamp.latest, "\(text.debugDescription)")
            }
        }
    }

    @Test func configFilesLoadOrNameTheirKey() throws {
        var generator = SplitMix(seed: 78)
        let folder = try temporaryFolder("fuzz-config")
        let file = folder.appending(path: "share.toml")
        for _ in 0..<3000 {
            var text = generator.hostileText(maxPieces: 12)
            if Bool.random(using: &generator) { text = "[server]\nlisten = \"" + text + "\"\n" }
            try Data(text.utf8).write(to: file)
            do {
                _ = try ConfigLoader(environment: [:], workingDirectory: folder.path).load(explicitPath: file.path)
            } catch {
                #expect(error.description.contains(file.path), "\(text.debugDescription): \(error)")
            }
        }
    }
}
