import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// `share mv`, `rm` and `restore` with many ids: one request, all of them or none, as the real binaries do it.
@Suite(.serialized) struct BatchCLITests {
    @Test func manyIdsAreMovedTrashedRestoredAndPurgedTogether() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "a.txt")
        try Data(count: 3).write(to: file)
        let ids = try (0..<3).map { _ in
            try #require(share(["add", file.path], server: daemon.address).stdout.split(separator: " ").first.map(String.init))
        }

        #expect(try share(["mv"] + ids + ["/archive"], server: daemon.address).stdout == "Moved 3 shares to /archive\n")
        #expect(try share(["ls", "/archive"], server: daemon.address).stdout.hasSuffix("3 shares\n"))
        let missing = try share(["rm", ids[0], "NOSUCHID", "--yes"], server: daemon.address)
        #expect(missing.status != 0 && missing.stderr.contains("no share with id 'NOSUCHID'"), "\(missing.stderr)")
        #expect(try share(["ls", "/archive"], server: daemon.address).stdout.hasSuffix("3 shares\n"), "nothing was trashed")
        #expect(try share(["rm"] + ids + ["--yes"], server: daemon.address).stdout == "Moved 3 shares to the trash\n")
        #expect(try share(["restore", ids[0], ids[1]], server: daemon.address).stdout == "Restored 2 shares\n")
        let purged = try share(["rm", ids[0], ids[1], "--purge", "--yes", "--json"], server: daemon.address)
        #expect(purged.stdout == #"{"action":"purge","count":2}"# + "\n", "\(purged.stdout)")
        #expect(daemon.stop() == 0)
    }

    @Test func filtersNameEveryShareTheyMatchOnEveryPage() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let server = daemon.address
        let drafts = (0..<3).map { folder.appending(path: "draft \($0).pdf") } + [folder.appending(path: "Draft notes.txt")]
        let kept = folder.appending(path: "final.pdf")
        for file in drafts + [kept] { try Data(count: 5).write(to: file) }
        #expect(try share(["add"] + (drafts + [kept]).map(\.path) + ["--folder", "/work"], server: server).status == 0)

        let moved = try share(["mv", "--matching", "DRAFT", "--type", "pdf", "/drafts"], server: server)
        #expect(moved.stdout == "Moved 3 shares to /drafts\n", "\(moved.stdout)\(moved.stderr)")
        #expect(try share(["rm", "--in", "/drafts", "--yes"], server: server).stdout == "Moved 3 shares to the trash\n")
        #expect(try share(["ls", "/work"], server: server).stdout.hasSuffix("2 shares\n"), "the text file and final.pdf stay")
        #expect(try share(["restore", "--matching", "draft 1"], server: server).stdout == "Restored 1 share\n", "from the trash only")
        #expect(try share(["rm", "--matching", "draft", "--purge", "--yes"], server: server).stdout == "Deleted 2 shares for good\n")

        for (arguments, words) in [
            (["rm", "--yes"], "name share ids, or filters"), (["rm", "ABC", "--matching", "x", "--yes"], "not both"),
            (["mv", "--type", "pdf"], "id-or-folder"), (["restore", "--date", "17-01-2021"], "--date"),
        ] {
            let refused = try share(arguments, server: server)
            #expect(refused.status != 0 && refused.stderr.contains(words), "\(arguments): \(refused.stderr)")
        }
        #expect(daemon.stop() == 0)
    }
}
