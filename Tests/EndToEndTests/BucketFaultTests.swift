import Foundation
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// An object store that freezes, then dies, under `shared`, as a failing store does: the owner's upload ends within
/// the request's time with a 503 naming the store, what the upload holds stays held and nothing shows before its last
/// byte; once the store is back the upload resumes to the whole file; a store gone fails quickly while the history
/// still reads. Were it otherwise, a hung store would hang every upload, or lose what a client was told was held.
@Suite struct BucketFaultTests {
    @Test func anUploadIntoAFrozenStoreIsA503NamingItAndResumesOnceItWakesAndAGoneStoreFailsAtOnce() async throws {
        let store = try OwnS3Store()
        let folder = try temporaryFolder("bucket-fault")
        let node = try Daemon(
            folder: folder,
            environment: ["SHARE_SERVER_REQUEST_TIMEOUT_SECONDS": "5"].merging(try TestS3.daemonEnvironment(endpoint: store.endpoint())) { $1 })
        let bytes = [UInt8](try randomBytes(12 * 1_048_576))
        let path = try #require(try await TusRequests.create(node.address, length: bytes.count, name: "survey.zip"))
        let upload = node.address + path
        let half = 6 * 1_048_576
        #expect(try await TusRequests.append(upload, at: 0, bytes[..<half]).0.statusCode == 204)

        try store.pause()
        let started = ContinuousClock.now
        let (refused, detail) = try await TusRequests.append(upload, at: half, bytes[half...])
        #expect(refused.statusCode == 503, "\(String(decoding: detail, as: UTF8.self))")
        #expect(String(decoding: detail, as: UTF8.self).contains("the object store (bucket share-test"))
        #expect(ContinuousClock.now - started < .seconds(60), "bounded by the request's time, with room for a busy machine")
        let held = try await TusRequests.offset(upload)
        #expect(held >= half && held < bytes.count, "what was held stays held: \(held)")
        #expect(try await http("GET", "\(node.address)/share").body == "[]", "nothing shows before the last byte")

        try store.resume()
        // Woken, a store on a busy machine may take a while to serve again: the upload resumes once it does.
        let awake = try store.client(timeout: .seconds(30))
        try await waitUntil("the store answering again") { (try? await awake.list(limit: 1)) != nil }
        let (finished, _) = try await TusRequests.append(upload, at: held, bytes[held...])
        #expect(finished.statusCode == 200)
        let saved = folder.appending(path: "survey.zip")
        let listed = try WireJSON.decoder().decode([ShareRecord].self, from: Data(try await http("GET", "\(node.address)/share").body.utf8))
        let shown = try #require(listed.first?.link)
        let link = shown.hasPrefix("/") ? node.address + shown : shown
        #expect(try share(["get", link, "-o", saved.path], server: node.address).status == 0)
        #expect(try Data(contentsOf: saved) == Data(bytes), "every byte, in order, across the freeze")

        try store.kill()
        let gone = ContinuousClock.now
        let (unstarted, said) = try await TusRequests.send(
            "POST", "\(node.address)/share/uploads", headers: ["Upload-Length": "10", "Upload-Metadata": "filename bGF0ZS50eHQ="])
        #expect(
            unstarted.statusCode == 503 && String(decoding: said, as: UTF8.self).contains("the object store (bucket share-test"),
            "\(unstarted.statusCode) \(String(decoding: said, as: UTF8.self))")
        let download = try await http("GET", link + "/file")
        #expect(download.status == 503 && download.body.contains("does not answer"), "\(download)")
        #expect(ContinuousClock.now - gone < .seconds(30), "a store that refuses connections fails without waiting")
        #expect(try await http("GET", "\(node.address)/readyz").status == 503)
        #expect(try await http("GET", "\(node.address)/share/\(try #require(listed.first?.id))").status == 200, "the history still reads")
    }
}
