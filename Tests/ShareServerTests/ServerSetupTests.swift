import Foundation
import ShareKit
import ShareServer
import ShareTestSupport
import Testing

/// What `shared` refuses to start with, and what it warns about, before it opens anything.
@Suite struct ServerSetupTests {
    /// The setup of `toml` written as `share.toml` (with `files` beside it), or the error that refuses it.
    private func setup(_ toml: String, files: [String: String] = [:], mode: Int = 0o600) throws -> Result<ServerSetup, ConfigError> {
        let folder = try temporaryFolder("setup")
        let all = files.merging(["share.toml": toml]) { $1 }
        for (name, text) in all {
            let path = folder.appending(path: name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
        let config = try ConfigLoader(environment: ["HOME": folder.path], workingDirectory: folder.path).load()
        do throws(ConfigError) {
            return .success(try ServerSetup(config: config))
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [
        ("[auth]\ntokens = [\"a1\", \"b2\"]\n[auth.users]\ntoken-2 = \"c3\"\n", "'token-2' is given twice"),
        ("[auth.users]\nlocal = \"a1\"\n", "'local' is reserved"),
        ("[auth.users]\nLOCAL = \"a1\"\n", "'local' is reserved"),
        ("[auth]\ntoken_file = \"tokens\"\n[auth.users]\nalice = \"a1\"\n", "'alice' is given twice"),
        ("[auth.users]\nalice = \"a1\"\n[auth.labelled]\nalice = \"a2\"\n", "'alice' is given twice"),
        ("[auth]\ntokens = [\"same\"]\n[auth.users]\nlaptop = \"same\"\nphone = \"same\"\n", "one token is given for two users"),
        ("[auth.users]\nalice = [\"a1\"]\nbob = [\"b1\", \"a1\"]\n", "one token is given for two users, 'alice' and 'bob'"),
        ("[server]\nlisten = \"unix:/tmp/share-test.sock\"\nsocket_mode = \"0777\"\n", "lets every user of this machine use the API"),
        ("[auth]\nunix_peer = true\n", "listen on unix:/path"),
        ("[server]\nlisten = \"0.0.0.0:8080\"\n", "without sign-in"),
        ("[auth]\ntokens = [\"a1\"]\npublic_read = true\nhistories = \"per-user\"\n", "every history is somebody's"),
        ("[auth]\ntokens = [\"a1\"]\n[auth.quota]\ntoken-1 = 1000\n", "there is one history, capped by auth.quota_bytes"),
    ])
    func usersThatCollideOrAnOpenDaemonAreRefused(toml: String, reason: String) throws {
        let result = try setup(toml, files: ["tokens": "alice b2\n"])
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(toml)")
            return
        }
        #expect(error.description.contains(reason), "\(error)")
    }

    @Test func everyWayOfNamingUsersGivesEachTokenItsUser() throws {
        let toml = """
            [auth]
            tokens = ["t1"]
            token_file = "tokens"
            [auth.users]
            alice = ["a-laptop", "a-phone"]
            "bob@example.org" = "b1"
            """
        let setup = try setup(toml, files: ["tokens": "# a comment\ncarol c1\nf2\n"]).get()
        let users = Dictionary(setup.credentials.map { ($0.secret, $0.user) }, uniquingKeysWith: { first, _ in first })
        #expect(
            users == ["t1": "token-1", "c1": "carol", "f2": "token-3", "a-laptop": "alice", "a-phone": "alice", "b1": "bob@example.org"])
        #expect(setup.notices.isEmpty && setup.signInConfigured)
    }

    @Test func theEarlierLabelledTableIsReadAsUsersAndSaidSo() throws {
        let setup = try setup("[auth.labelled]\nlaptop = \"l1\"\n").get()
        #expect(setup.credentials == [Credential(user: "laptop", secret: "l1")])
        #expect(setup.notices == ["[auth.labelled] is read as [auth.users]: each label is a user's name"])
    }

    @Test func aProxyOrAUnixSocketsPeerIsSignInEnoughToListenBeyondLoopback() throws {
        let proxied = try setup("[server]\nlisten = \"0.0.0.0:8080\"\n[auth]\nproxy_user_header = \"X-Forwarded-User\"\n").get()
        #expect(proxied.signInConfigured && proxied.credentials.isEmpty)
        let peers = try setup("[server]\nlisten = \"unix:/tmp/share-test.sock\"\nsocket_mode = \"0666\"\n[auth]\nunix_peer = true\n").get()
        #expect(peers.signInConfigured, "every peer is named, so the socket may be open to all")
    }

    @Test func filesHoldingTokensThatOthersCanReadAreWarnedAbout() throws {
        let readable = try setup("[auth]\ntokens = [\"a1\"]\ntoken_file = \"tokens\"\n", files: ["tokens": "b2\n"], mode: 0o644).get()
        #expect(readable.warnings.count == 2, "\(readable.warnings)")
        #expect(readable.warnings.allSatisfy { $0.contains("chmod 600") })
        let private_ = try setup("[auth]\ntokens = [\"a1\"]\ntoken_file = \"tokens\"\n", files: ["tokens": "b2\n"]).get()
        #expect(private_.warnings.isEmpty)
        let tokenless = try setup("[server]\ntimezone = \"UTC\"\n", mode: 0o644).get()
        #expect(tokenless.warnings.isEmpty, "a file without tokens has nothing to hide")
    }
}
