import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// Webhooks with the real daemon, the real CLI and a receiver that checks signatures with the Standard Webhooks
/// library: each event arrives signed, in order, once it is taken; a receiver failing, gone, hanging, or the daemon
/// killed between a change and its delivery loses nothing and holds nothing else up.
@Suite struct HookDeliveryTests {
    /// Hooks reach loopback (the test's receiver), retry after a second (twenty times: a busy machine's test may
    /// look late, never after the hook gave up), and wait two for an answer.
    static let hooks = [
        "SHARE_HOOKS_ALLOW_PRIVATE_ADDRESSES": "true", "SHARE_HOOKS_RETRY_SECONDS": Array(repeating: "1", count: 20).joined(separator: ","),
        "SHARE_HOOKS_TIMEOUT_SECONDS": "2",
    ]
    /// For the tests that kill a daemon while its tries hang: a hook that keeps trying for minutes, so that it is
    /// still sending however late a busy machine lets the test kill the daemon.
    static let patientHooks = hooks.merging(["SHARE_HOOKS_RETRY_SECONDS": Array(repeating: "5", count: 30).joined(separator: ",")]) { $1 }

    /// `share hooks add URL` as JSON, its secret given to the receiver.
    private func addHook(_ receiver: HookReceiver, events: String = "*", _ daemon: Daemon) throws -> Hook {
        let added = try share(["hooks", "add", receiver.url + "/in", "--events", events, "--json"], server: daemon.address)
        let hook = try WireJSON.decoder().decode(Hook.self, from: Data(added.stdout.utf8))
        try receiver.trust([try #require(hook.secret)])
        return hook
    }

    private func addFile(_ name: String, in folder: URL, _ daemon: Daemon) throws -> ShareRecord {
        let file = folder.appending(path: name)
        try Data("hello".utf8).write(to: file)
        let added = try share(["add", file.path, "--json"], server: daemon.address)
        return try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
    }

    @Test func eachEventArrivesSignedAndInOrderAndAFailedOneIsSentAgainUnderItsID() async throws {
        let folder = try temporaryFolder()
        let receiver = try HookReceiver()
        let daemon = try Daemon(folder: folder, environment: Self.hooks)
        let hook = try addHook(receiver, daemon)
        try receiver.answer(["500", "503 retry-after=1"])
        let record = try addFile("report.txt", in: folder, daemon)
        #expect(try share(["rename", record.id, "final.txt"], server: daemon.address).status == 0)
        #expect(try await http("GET", daemon.address + (record.link ?? "") + "/file").status == 200)
        try await waitUntil("three events taken") { try receiver.received().filter { $0.answer == "204" }.count == 3 }
        let received = try receiver.received()
        #expect(received.allSatisfy { $0.verified }, "every signature checks out with the hook's secret")
        #expect(received.map(\.answer) == ["500", "503 retry-after=1", "204", "204", "204"])
        #expect(Set(received.prefix(3).map(\.id)).count == 1, "the same webhook-id on every try of an event")
        let taken = received.filter { $0.answer == "204" }.compactMap(\.message)
        #expect(taken.map(\.type) == ["share.uploaded", "share.renamed", "share.downloaded"], "in the order they happened")
        #expect(taken[1].data.from == "report.txt" && taken[1].data.share.name == "final.txt")
        #expect(taken[2].data.downloads == 1 && taken[2].data.download?.addressFamily == "ipv4" && taken[2].data.by == "link")

        let log = try share(["hooks", "log", hook.id, "--json"], server: daemon.address)
        let deliveries = try WireJSON.decoder().decode([HookDelivery].self, from: Data(log.stdout.utf8))
        #expect(deliveries.reversed().prefix(3).map(\.status) == [500, 503, 204] && deliveries.reversed().prefix(3).map(\.attempt) == [1, 2, 3])
        #expect(deliveries.last?.error == "the receiver answered 500")
        #expect(daemon.stop() == 0)
    }

    @Test func aReceiverAnswering410StopsItsHookUntilADeliveryIsRetried() async throws {
        let folder = try temporaryFolder()
        let receiver = try HookReceiver()
        let daemon = try Daemon(folder: folder, environment: Self.hooks)
        let hook = try addHook(receiver, daemon)
        try receiver.answer(["410"])
        _ = try addFile("a.txt", in: folder, daemon)
        try await waitUntil("the hook stopped") { try share(["hooks"], server: daemon.address).stdout.contains("stopped: the receiver answered 410") }
        let me = try share(["whoami"], server: daemon.address)
        #expect(me.stdout.contains("1 webhook stopped sending"), "\(me.stdout)")
        _ = try addFile("b.txt", in: folder, daemon)
        let logged = try share(["hooks", "log", hook.id, "--json"], server: daemon.address)
        #expect(logged.status == 0, "\(logged.stderr)")
        let log = try WireJSON.decoder().decode([HookDelivery].self, from: Data(logged.stdout.utf8))
        #expect(try share(["hooks", "retry", hook.id, String(try #require(log.first).id)], server: daemon.address).status == 0)
        try await waitUntil("the stopped event and the next taken") { try receiver.received().filter { $0.answer == "204" }.count == 3 }
        let names = try receiver.received().filter { $0.answer == "204" }.compactMap(\.message?.data.share.name)
        #expect(names == ["a.txt", "a.txt", "b.txt"], "the retried event, then the hook goes on from where it stopped")
        #expect(!(try share(["whoami"], server: daemon.address).stdout.contains("stopped")))
        #expect(daemon.stop() == 0)
    }

    @Test func aHangingReceiverHoldsUpNeitherOtherHooksNorTheServer() async throws {
        let folder = try temporaryFolder()
        let hanging = try HookReceiver()
        let answering = try HookReceiver()
        let daemon = try Daemon(folder: folder, environment: Self.hooks)
        let stuck = try addHook(hanging, daemon)
        _ = try addHook(answering, daemon)
        try hanging.answer(Array(repeating: "hang", count: 100))
        for name in ["a.txt", "b.txt", "c.txt"] { _ = try addFile(name, in: folder, daemon) }
        try await waitUntil("the other hook's three events") { try answering.received().count == 3 }
        #expect(try await http("GET", daemon.address + "/healthz").status == 200)
        try await waitUntil("the hanging receiver's first try given up") {
            let log = try share(["hooks", "log", stuck.id], server: daemon.address).stdout
            return log.contains("did not answer in time")
        }
        #expect(try hanging.received().compactMap(\.message?.data.share.name).allSatisfy { $0 == "a.txt" }, "in order: b waits behind a")
        #expect(await daemon.stop(within: .seconds(15)) == 0, "deliveries in flight do not keep it from stopping")
    }

    @Test func aDaemonKilledMidDeliveryLeavesTheEventToBeSentWhenItComesBack() async throws {
        let folder = try temporaryFolder()
        let receiver = try HookReceiver()
        let first = try Daemon(folder: folder, environment: Self.patientHooks)
        _ = try addHook(receiver, first)
        // Every try hangs until the daemon is killed: it dies in the middle of one.
        try receiver.answer(Array(repeating: "hang", count: 50))
        _ = try addFile("a.txt", in: folder, first)
        try await waitUntil("a try under way") { try !receiver.received().isEmpty }
        first.stop(signal: SIGKILL)
        try receiver.answer([])
        let second = try Daemon(folder: folder, environment: Self.patientHooks)
        try await waitUntil("the event taken after the restart", within: .seconds(60)) { try receiver.received().last?.answer == "204" }
        let received = try receiver.received()
        #expect(Set(received.map(\.id)).count == 1 && received.allSatisfy { $0.verified }, "one event, tried until taken")
        #expect(second.stop() == 0)
    }

    /// Two nodes on one PostgreSQL database: each event goes out once, whichever node takes it; a node killed while
    /// its receiver keeps it waiting leaves the event to the other once its lease runs out.
    @Test func twoPostgresNodesSendEachEventOnceAndOneTakesOverFromTheOtherKilled() async throws {
        try await TestPostgres.withDatabase { name in
            let folder = try temporaryFolder()
            let receiver = try HookReceiver()
            let environment = Self.patientHooks.merging(["SHARE_DATABASE_URL": try TestPostgres.url(of: name)]) { $1 }
            let nodes = try (0..<2).map { _ in try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: environment) }
            _ = try addHook(receiver, nodes[0])
            for number in 0..<10 { _ = try addFile("file-\(number).txt", in: folder, nodes[number % 2]) }
            try await waitUntil("ten events taken") { try receiver.received().count >= 10 }
            let ids = try receiver.received().compactMap { $0.id.flatMap { Int($0) } }
            #expect(ids.count == 10 && ids == ids.sorted() && Set(ids).count == 10, "each once, in order, from either node: \(ids)")

            #expect(nodes[1].stop() == 0)
            // Every try hangs until the node sending it is killed.
            try receiver.answer(Array(repeating: "hang", count: 50))
            _ = try addFile("last.txt", in: folder, nodes[0])
            try await waitUntil("the last event's first try under way") { try receiver.received().count > 10 }
            nodes[0].stop(signal: SIGKILL)
            try receiver.answer([])
            let survivor = try Daemon(folder: folder, arguments: ["--listen", "127.0.0.1:0"], environment: environment)
            try await waitUntil("the other node sending it once the lease ran out", within: .seconds(60)) {
                try receiver.received().last?.answer == "204"
            }
            let tries = try receiver.received().dropFirst(10)
            #expect(Set(tries.map(\.id)).count == 1 && tries.last?.message?.data.share.name == "last.txt", "one event, tried until taken")
            #expect(survivor.stop() == 0)
        }
    }

    @Test func aHookReachesOnlyPublicAddressesAndNamesWhatIsWrong() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let loopback = try share(["hooks", "add", "http://127.0.0.1:9/in"], server: daemon.address)
        #expect(loopback.status == 6 && loopback.stderr.contains("field 'url'") && loopback.stderr.contains("127.0.0.1"), "\(loopback.stderr)")
        let metadata = try share(["hooks", "add", "http://169.254.169.254/latest/meta-data/"], server: daemon.address)
        #expect(metadata.status == 6 && metadata.stderr.contains("169.254.169.254"))
        let scheme = try share(["hooks", "add", "file:///etc/passwd"], server: daemon.address)
        #expect(scheme.status == 6 && scheme.stderr.contains("http:// or https://"))
        let events = try share(["hooks", "add", "https://example.com/in", "--events", "uploaded,exploded"], server: daemon.address)
        #expect(events.status == 6 && events.stderr.contains("field 'events' names 'exploded'"))
        #expect(try share(["hooks"], server: daemon.address).stdout.contains("No webhooks"))
        #expect(daemon.stop() == 0)
    }
}
