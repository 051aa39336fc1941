import Foundation
import FoundationNetworking
import ShareChildProcess
import ShareKit
import ShareTestSupport
import Testing

#if canImport(FoundationNetworking)
#endif

/// The README's backup and restore, run line by line with the real binaries, the unit's paths moved into a
/// temporary folder: what it tells an operator to run brings every shared file back, a purged one too.
@Suite struct ReadmeBackupTests {
    private static let readme = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../README.md").standardized

    /// The commands of the README's "Backups" block, in order, without their comments.
    private static func backupCommands() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = text[try #require(text.range(of: "### Backups")).upperBound...]
        let block = section[try #require(section.range(of: "```sh\n")).upperBound...]
        return block[..<(try #require(block.range(of: "```"))).lowerBound].split(separator: "\n").map { line in
            String(line[..<(line.range(of: "  #")?.lowerBound ?? line.endIndex)]).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Runs one line as a shell runs it, `shared` and `share` first on the `PATH`; fails with what it printed.
    private static func run(_ line: String, in folder: URL) throws {
        let process = ChildProcess()
        process.executableURL = URL(filePath: "/bin/sh")
        process.arguments = ["-c", line]
        process.currentDirectoryURL = folder
        process.environment = ["HOME": folder.path, "PATH": sharedBinary.deletingLastPathComponent().path + ":/usr/bin:/bin"]
        let output = folder.appending(path: "line-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        let printed = try String(contentsOf: output, encoding: .utf8)
        #expect(process.terminationStatus == 0, "`\(line)` printed: \(printed)")
    }

    @Test func theReadmesBackupAndRestoreBringEverySharedFileBack() async throws {
        let commands = try Self.backupCommands()
        #expect(commands.count == 5 && commands.contains("sudo systemctl stop shared"), "\(commands)")
        let folder = try temporaryFolder("readme-backup")
        // The unit's state folder (/var/lib/private/share, /var/lib/share to the service) and the backups' folder.
        let state = folder.appending(path: "private-share")
        let backups = folder.appending(path: "backups")
        for made in [state, backups] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        let database = state.appending(path: "share.db").path
        let serving = ["--listen", "127.0.0.1:0", "--db", database]
        var daemon = try Daemon(folder: state, arguments: serving)

        var shares: [(record: ShareRecord, bytes: Data)] = []
        for (name, size) in [("report.pdf", 300_000), ("photo.jpg", 70_000)] {
            let file = folder.appending(path: name)
            let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ size) })
            try bytes.write(to: file)
            let added = try share(["add", "--json", "--no-thumbnail", file.path], server: daemon.address)
            #expect(added.status == 0, "\(added.stderr)")
            shares.append((try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8)), bytes))
        }

        for command in commands {
            let line = command.replacingOccurrences(of: "sudo ", with: "")
                .replacingOccurrences(of: "/var/lib/share/share.db", with: database)
                .replacingOccurrences(of: "/var/lib/private/share", with: state.path)
                .replacingOccurrences(of: "/var/backups/share", with: backups.path)
                .replacing(/share-(\$\(date \+%F\)|\d{4}-\d{2}-\d{2})\.db/, with: "share-today.db")
            switch line {
            case "systemctl stop shared":
                // What the restore must undo: a share purged, its file deleted with it.
                let purged = try share(["rm", "--purge", "--yes", shares[0].record.id], server: daemon.address)
                #expect(purged.status == 0, "\(purged.stderr)")
                #expect(daemon.stop() == 0)
            case "systemctl start shared":
                daemon = try Daemon(folder: state, arguments: serving)
            default:
                try Self.run(line, in: folder)
            }
        }

        for (record, bytes) in shares {
            let link = daemon.address + (try #require(record.link))
            let (data, response) = try await exchange(URLRequest(url: try #require(URL(string: link + "/file"))))
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(record.name) opens at its link")
            #expect(data == bytes, "\(record.name): the very bytes, back from the backup")
        }
        #expect(daemon.stop() == 0)
    }
}
