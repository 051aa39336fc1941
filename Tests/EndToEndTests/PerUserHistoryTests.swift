import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// A team's history moves from one shared history to each person their own, as docs/configuration.md tells operators to:
/// stop, `shared assign --to alice`, start with `histories = "per-user"`; then the real `share` binary, signed
/// in as alice, bob or an admin acting for bob.
@Suite(.serialized) struct PerUserHistoryTests {
    private static let users = "alice=alice-secret,bob=bob-secret"

    private func run(_ arguments: [String], _ daemon: Daemon, as token: String, input: String = "") throws -> ShareRun {
        try share(arguments, server: daemon.address, environment: ["SHARE_TOKEN": token], input: input)
    }

    @Test func aSharedHistoryWithEventsAndTrashBecomesAlicesAndBobSeesNoneOfIt() throws {
        let folder = try temporaryFolder()
        let database = folder.appending(path: "share.db").path
        let shared = try Daemon(folder: folder, environment: ["SHARE_AUTH_USERS": Self.users])
        let lines = (1...4).map { #"{"name": "report \#($0).pdf", "size": 10, "id": "TEAM-\#($0)"}"# }.joined(separator: "\n")
        #expect(try run(["import", "-"], shared, as: "alice-secret", input: lines).status == 0)
        #expect(try run(["rename", "TEAM-1", "final.pdf"], shared, as: "bob-secret").status == 0)
        #expect(try run(["rm", "TEAM-2", "--yes"], shared, as: "alice-secret").status == 0)
        let busy = try Daemon.run(["assign", "--to", "alice", "--db", database], in: folder)
        #expect(busy.status != 0 && busy.output.contains("open in another process"), "a serving daemon holds the database: \(busy.output)")
        #expect(shared.stop() == 0)

        let assigned = try Daemon.run(["assign", "--to", "alice", "--db", database], in: folder)
        #expect(assigned.status == 0 && assigned.output.contains("4 records assigned to alice"), "\(assigned.output)")
        let again = try Daemon.run(["assign", "--to", "alice", "--db", database], in: folder)
        #expect(again.output.contains("0 records assigned"), "\(again.output)")

        let perUser = try Daemon(
            folder: folder,
            environment: [
                "SHARE_AUTH_USERS": Self.users, "SHARE_AUTH_HISTORIES": "per-user", "SHARE_AUTH_ADMINS": "alice",
                "SHARE_AUTH_QUOTA_BYTES": "1000",
            ])
        let alices = try run(["--json", "ls"], perUser, as: "alice-secret")
        #expect(try ids(alices.stdout) == ["TEAM-4", "TEAM-3", "TEAM-1"], "\(alices)")
        #expect(try ids(try run(["--json", "trash"], perUser, as: "alice-secret").stdout) == ["TEAM-2"])
        let log = try run(["--json", "log", "TEAM-1"], perUser, as: "alice-secret")
        let events = try WireJSON.decoder().decode([ShareEvent].self, from: Data(log.stdout.utf8))
        #expect(events.map(\.by) == ["alice", "bob"], "the events came along")

        #expect(try run(["--json", "ls"], perUser, as: "bob-secret").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let notHis = try run(["show", "TEAM-1"], perUser, as: "bob-secret")
        #expect(notHis.status == 5 && notHis.stderr == "share: no share with id 'TEAM-1'\n", "\(notHis)")
        let notAdmin = try run(["users"], perUser, as: "bob-secret")
        #expect(notAdmin.status == 4 && notAdmin.stderr.contains("only admins"), "\(notAdmin)")

        // alice, an admin, works in bob's history: what she does is his, and its events name them both.
        let forBob = try run(["--user", "bob", "import", "-"], perUser, as: "alice-secret", input: #"{"name": "b.zip", "size": 7, "id": "BOB-1"}"#)
        #expect(forBob.status == 0, "\(forBob)")
        #expect(try ids(try run(["--json", "ls"], perUser, as: "bob-secret").stdout) == ["BOB-1"])
        let bobsLog = try run(["--json", "log", "BOB-1"], perUser, as: "bob-secret")
        #expect(try WireJSON.decoder().decode([ShareEvent].self, from: Data(bobsLog.stdout.utf8)).map(\.by) == ["alice for bob"])
        let users = try run(["users"], perUser, as: "alice-secret")
        #expect(users.status == 0 && users.stdout.contains("alice") && users.stdout.contains("bob"), "\(users)")
        let whoami = try run(["whoami"], perUser, as: "bob-secret")
        let said = whoami.stdout.split(separator: "\n")
        #expect(said.first == "bob · signed in by token · per-user history · 7 B used of 1.0 kB", "\(whoami)")
        #expect(said.count == 2 && said[1].hasPrefix("feed: \(perUser.address)/feed/"), "his history's feed: \(whoami)")

        let overQuota = try run(["--user", "bob", "import", "-"], perUser, as: "alice-secret", input: #"{"name": "big.zip", "size": 994}"#)
        #expect(overQuota.status == 4 && overQuota.stderr.contains("quota of 1.0 kB (1000 bytes)"), "\(overQuota)")
    }

    private func ids(_ json: String) throws -> [String] {
        try WireJSON.decoder().decode([ShareRecord].self, from: Data(json.utf8)).map(\.id)
    }
}
