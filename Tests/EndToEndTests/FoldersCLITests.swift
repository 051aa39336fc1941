import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// `share folders [PATH]` and `share show`'s link, with the real binaries: where shares are, and how to send one.
@Suite(.serialized) struct FoldersCLITests {
    @Test func aFoldersSubfoldersAreListedWithCountsAndSizes() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "a.txt")
        try Data(count: 1500).write(to: file)
        for place in ["/reports/2021", "/reports/2022", "/photos"] {
            #expect(try share(["add", file.path, "--folder", place], server: daemon.address).status == 0)
        }

        let top = try share(["folders"], server: daemon.address)
        #expect(
            top.stdout.split(separator: "\n").map { $0.split(separator: " ") } == [
                ["FOLDER", "SHARES", "SIZE"], ["/photos", "1", "1.5", "kB"], ["/reports", "2", "3.0", "kB"],
            ], "\(top.stdout)")
        let reports = try share(["folders", "/reports", "--json"], server: daemon.address)
        #expect(try WireJSON.decoder().decode([FolderUsage].self, from: Data(reports.stdout.utf8)).map(\.name) == ["2021", "2022"])
        #expect(try share(["folders", "/photos"], server: daemon.address).stdout == "No folders in /photos.\n")
        let bad = try share(["folders", "photos"], server: daemon.address)
        #expect(bad.status != 0 && bad.stderr.contains("parent"), "\(bad.stderr)")
        #expect(daemon.stop() == 0)
    }

    @Test func showPrintsTheSharesLinkWhenTheServiceHasAPattern() throws {
        let folder = try temporaryFolder()
        let linked = try Daemon(folder: folder, environment: ["SHARE_SERVER_SHARE_URL": "https://files.example.org/s/{id}"])
        let created = try share(["add", "--json", "--record-only", try Self.file(in: folder).path], server: linked.address)
        let id = try WireJSON.decoder().decode(ShareRecord.self, from: Data(created.stdout.utf8)).id
        #expect(try share(["show", id], server: linked.address).stdout.contains("\n  link:    https://files.example.org/s/\(id)\n"))
        #expect(linked.stop() == 0)
        let plain = try Daemon(folder: folder)
        #expect(try !share(["show", id], server: plain.address).stdout.contains("link:"), "no pattern, no link for a record alone")
        #expect(plain.stop() == 0)
    }

    private static func file(in folder: URL) throws -> URL {
        let file = folder.appending(path: "a.txt")
        try Data(count: 3).write(to: file)
        return file
    }
}
