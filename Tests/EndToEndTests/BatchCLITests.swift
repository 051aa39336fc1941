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
}
