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
        ("[auth]\ntokens = [\"a1\", \"b2\"]\n[auth.labelled]\ntoken-2 = \"c3\"\n", "'token-2' is given twice"),
        ("[auth.labelled]\nlocal = \"a1\"\n", "'local' is reserved"),
        ("[auth]\ntoken_file = \"tokens\"\n[auth.labelled]\nalice = \"a1\"\n", "'alice' is given twice"),
        ("[auth]\ntokens = [\"same\"]\n[auth.labelled]\nlaptop = \"same\"\nphone = \"same\"\n", "one token is given under two labels"),
        ("[server]\nlisten = \"unix:/tmp/share-test.sock\"\nsocket_mode = \"0777\"\n", "lets every user of this machine use the API"),
    ])
    func labelsThatCollideOrAnOpenSocketWithoutTokensAreRefused(toml: String, reason: String) throws {
        let result = try setup(toml, files: ["tokens": "alice b2\n"])
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(toml)")
            return
        }
        #expect(error.description.contains(reason), "\(error)")
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
