import Foundation
import ShareTestSupport
import StoreTestSupport
import Testing

/// `sslmode` in `[database] url` means what it means to PostgreSQL's own tools: `require` encrypts (a server
/// without TLS is refused) without checking the certificate, `verify-full` checks it against `sslrootcert` (else
/// the system's authorities) and the host, `disable` never encrypts. Were it otherwise, a team's history would
/// cross its network in the clear while its URL said `require`, or `verify-full` would trust any certificate.
@Suite struct PostgresTLSTests {
    @Test func eachSSLModeEncryptsAndChecksTheServerAsPostgreSQLsToolsDo() async throws {
        let port = try freePort()
        let cluster = try OwnCluster(tcpPort: port, tls: true)
        let name = try cluster.newDatabaseName()
        let base = "postgres://postgres@127.0.0.1:\(port)/\(name)"
        for (query, encrypted) in [
            ("sslmode=require", true), ("", true), ("sslmode=disable", false),
            ("sslmode=verify-full&sslrootcert=\(cluster.folder)/server.crt", true),
        ] {
            let node = try Self.node(url: query.isEmpty ? base : "\(base)?\(query)")
            #expect(try await http("POST", "\(node.address)/share", body: #"{"name": "a.txt", "size": 1}"#).status == 201, "\(query)")
            let connections = try cluster.psql(
                "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.datname = '\(name)'")
            #expect(
                !connections.isEmpty && connections.split(separator: "\n").allSatisfy { $0 == (encrypted ? "t" : "f") }, "\(query): \(connections)")
            #expect(node.stop() == 0)
        }
        // The certificate is its own signer, which nothing here trusts unless told to.
        let untrusted = try Daemon.run(
            ["--listen", "127.0.0.1:0"], in: try temporaryFolder("untrusted"), environment: ["SHARE_DATABASE_URL": "\(base)?sslmode=verify-full"])
        #expect(untrusted.status != 0 && untrusted.output.contains("cannot open the PostgreSQL database"), "\(untrusted.output)")
        withExtendedLifetime(cluster) {}
    }

    @Test func requireRefusesAServerWithoutTLSWhichPreferUsesInTheClear() async throws {
        let port = try freePort()
        let cluster = try OwnCluster(tcpPort: port)
        let base = "postgres://postgres@127.0.0.1:\(port)/\(try cluster.newDatabaseName())"
        let refused = try Daemon.run(
            ["--listen", "127.0.0.1:0"], in: try temporaryFolder("no-tls"), environment: ["SHARE_DATABASE_URL": "\(base)?sslmode=require"])
        #expect(refused.status != 0 && refused.output.contains("cannot open the PostgreSQL database"), "\(refused.output)")
        let node = try Self.node(url: "\(base)?sslmode=prefer")
        #expect(try await http("GET", "\(node.address)/readyz").status == 200)
        #expect(node.stop() == 0)
        withExtendedLifetime(cluster) {}
    }

    private static func node(url: String) throws -> Daemon {
        try Daemon(folder: try temporaryFolder("tls"), arguments: ["--listen", "127.0.0.1:0"], environment: ["SHARE_DATABASE_URL": url])
    }
}
