import Foundation
import ShareKit
import ShareTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Downloads in flight, with the real binaries. Recipients who ask for a file and then stop reading it, or read it a
/// byte at a time: none of them may keep a connection's place or the daemon's memory, and each download they began
/// is given back, its log saying how far it went. A link its owner revokes stops sending at once.
@Suite(.serialized) struct SlowReaderTests {
    @Test func readersThatStopOrCrawlAreCutOffAndTheirDownloadsGivenBack() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(
            folder: folder, environment: ["SHARE_SERVER_MAX_CONNECTIONS": "6", "SHARE_SERVER_REQUEST_TIMEOUT_SECONDS": "2"])
        // Far more than the two sockets' buffers hold: the daemon has bytes waiting for each reader.
        let file = folder.appending(path: "film.mp4")
        let size = 32_000_000
        _ = try randomBytes(size, writtenTo: file)
        let added = try share(["add", "--json", file.path], server: daemon.address)
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
        let request = "GET \(try #require(record.link))/file HTTP/1.1\r\nHost: localhost\r\n\r\n"

        // Five that stop reading after the response's head, and one that takes a byte every fifth of a second: every
        // place is theirs. Each is answered before the next connects, so none is a connection still sending its
        // request, which a new one may replace.
        let readers = try (0..<6).map { _ in
            let reader = try RawConnection(port: daemon.port)
            reader.send(request)
            let head = reader.read(until: "\r\n\r\n", seconds: 10)
            guard head.hasPrefix("HTTP/1.1 200") else { throw SocketError(description: "the download began \(head.prefix(80))") }
            return reader
        }
        let crawling = Task { [descriptor = readers[5].descriptor] in
            var byte: UInt8 = 0
            for _ in 0..<600 {
                guard recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) != 0 else { return }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { crawling.cancel() }

        var seen = ""
        do {
            try await waitUntil("every reader's download given back, the log saying how far it went") {
                // Refused while the readers hold every place.
                guard let log = try? await http("GET", "\(daemon.address)/share/\(record.id)/downloads", timeout: 5) else { return false }
                seen = log.body
                let entries = try WireJSON.decoder().decode([ShareDownload].self, from: Data(log.body.utf8))
                return entries.count == 6 && entries.allSatisfy { !$0.complete && ($0.bytes ?? .max) < Int64(size) }
            }
        } catch {
            let logged = (try? String(contentsOf: daemon.log, encoding: .utf8)) ?? ""
            Issue.record("\(error); the downloads were \(seen); the daemon said \(logged.suffix(3000))")
            throw error
        }
        let after = try await http("GET", "\(daemon.address)/share/\(record.id)", timeout: 5)
        #expect(try WireJSON.decoder().decode(ShareRecord.self, from: Data(after.body.utf8)).downloads == 0)
        #expect(try await http("GET", "\(daemon.address)/healthz", timeout: 5).status == 200, "a new client finds a place")
        #expect(daemon.stop() == 0)
        withExtendedLifetime(readers) {}
        let logged = try String(contentsOf: daemon.log, encoding: .utf8)
        #expect(logged.contains("connection closed: the client took none of the response for 2 seconds"), "\(logged.suffix(2000))")
    }

    @Test func aDownloadInFlightStopsWhenItsOwnerRevokesTheLink() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "film.mp4")
        let size = 48_000_000
        _ = try randomBytes(size, writtenTo: file)
        let added = try share(["add", "--json", file.path], server: daemon.address)
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
        let reader = try RawConnection(port: daemon.port)
        reader.send("GET \(try #require(record.link))/file HTTP/1.1\r\nHost: localhost\r\n\r\n")

        // A recipient taking the file at about a megabyte a second; the owner revokes the link two megabytes in. The
        // loop never suspends (it sleeps its thread): a busy test process could otherwise leave it unread past the
        // daemon's stall limit, which cuts the reader off before the revocation is tried.
        var (received, revoked) = (0, false)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + .seconds(120)
        while received < size, ContinuousClock.now < deadline {
            let count = recv(reader.descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { break }
            if count > 0 { received += count }
            if !revoked && received > 2_000_000 {
                #expect(try share(["revoke", record.id, "--yes"], server: daemon.address).status == 0)
                revoked = true
            }
            usleep(50_000)
        }
        #expect(revoked && received < size, "the sending stopped with the link: \(received) of \(size) bytes")
        let log = try await http("GET", "\(daemon.address)/share/\(record.id)/downloads")
        let entries = try WireJSON.decoder().decode([ShareDownload].self, from: Data(log.body.utf8))
        #expect(entries.count == 1 && entries.allSatisfy { !$0.complete }, "\(log.body)")
        #expect(daemon.stop() == 0)
    }

    /// A daemon killed while it sends the only download a link allows cannot give it back itself: the download's
    /// lease runs out and the daemon started again gives it back, its log entry no longer whole, the link open again.
    @Test func aDownloadCutOffByTheDaemonsDeathIsGivenBackAfterItsLease() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let file = folder.appending(path: "film.mp4")
        _ = try randomBytes(32_000_000, writtenTo: file)
        let added = try share(["add", "--json", "--max-downloads", "1", file.path], server: daemon.address)
        let record = try WireJSON.decoder().decode(ShareRecord.self, from: Data(added.stdout.utf8))
        let reader = try RawConnection(port: daemon.port)
        reader.send("GET \(try #require(record.link))/file HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(reader.read(until: "\r\n\r\n", seconds: 10).hasPrefix("HTTP/1.1 200"))
        #expect(daemon.stop(signal: SIGKILL) == SIGKILL)
        withExtendedLifetime(reader) {}

        let again = try Daemon(folder: folder)
        var seen = ""
        try await waitUntil("the download given back", within: .seconds(150)) {
            let shown = try await http("GET", "\(again.address)/share/\(record.id)", timeout: 5)
            seen = shown.body
            return try WireJSON.decoder().decode(ShareRecord.self, from: Data(shown.body.utf8)).downloads == 0
        }
        let log = try await http("GET", "\(again.address)/share/\(record.id)/downloads", timeout: 5)
        let entries = try WireJSON.decoder().decode([ShareDownload].self, from: Data(log.body.utf8))
        #expect(entries.count == 1 && !entries[0].complete && entries[0].bytes == nil, "\(log.body); the share was \(seen)")
        let link = try #require(record.link)
        let linkPath = try #require(URL(string: link)).path
        #expect(try await http("GET", "\(again.address)\(linkPath)/file", timeout: 30).status == 200, "the link opens again")
        #expect(again.stop() == 0)
        let logged = try String(contentsOf: again.log, encoding: .utf8)
        #expect(logged.contains("downloads given back: their node stopped sending"), "\(logged.suffix(2000))")
    }
}
