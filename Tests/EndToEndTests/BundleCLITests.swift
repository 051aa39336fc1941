import Foundation
import ShareChildProcess
import ShareKit
import ShareTestSupport
import StoreTestSupport
import Testing

/// Several files under one link, through the real `share` and `shared`: a folder or files sent together become one
/// share whose link downloads each file alone or all of them as one ZIP that every unzipping tool reads. If the ZIP's
/// layout were off, a recipient would get a broken archive; if it counted per file, a one-download link would close
/// after the first photo.
@Suite struct BundleCLITests {
    /// A folder `trip` with a tree, a name in Unicode, an empty file and a link that is left out.
    private func trip(in folder: URL) throws -> (folder: URL, files: [(name: String, bytes: Data)]) {
        let trip = folder.appending(path: "trip")
        try FileManager.default.createDirectory(at: trip.appending(path: "day 1"), withIntermediateDirectories: true)
        let files: [(name: String, bytes: Data)] = [
            ("trip/day 1/café.jpg", try randomBytes(300_000)), ("trip/empty.txt", Data()), ("trip/notes.md", Data("# Day 1\n".utf8)),
        ]
        for file in files { try file.bytes.write(to: folder.appending(path: file.name)) }
        try FileManager.default.createSymbolicLink(atPath: trip.appending(path: "link").path, withDestinationPath: "notes.md")
        return (trip, files)
    }

    private func record(_ run: ShareRun) throws -> ShareRecord {
        #expect(run.status == 0, "\(run.stderr)")
        return try WireJSON.decoder().decode(ShareRecord.self, from: Data(run.stdout.utf8))
    }

    private func sha256(_ data: Data) throws -> String {
        let file = FileManager.default.temporaryDirectory.appending(path: "bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try data.write(to: file)
        return String(try ChildProcess.output(of: "/usr/bin/sha256sum", [file.path]).prefix(64))
    }

    @Test func aFolderSharedIsOneLinkThatDownloadsAsAZIPOrFileByFile() async throws {
        let folder = try temporaryFolder("bundle-folder")
        let daemon = try Daemon(folder: folder)
        let (trip, files) = try trip(in: folder)
        let added = try share(["add", trip.path, "--json"], server: daemon.address)
        #expect(added.stderr.contains("link is left out: not a regular file"))
        let record = try record(added)
        #expect(record.name == "trip.zip" && record.type == .zip && record.size == 300_008)
        #expect(record.files?.map(\.name) == files.map(\.name) && record.files?.first?.type == .image)
        let link = daemon.address + (record.link ?? "")
        let shown = try share(["show", record.id], server: daemon.address).stdout
        #expect(shown.contains("files:   3\n    trip/day 1/café.jpg  300.0 kB\n    trip/empty.txt  0 B"), "\(shown)")

        let page = try await http("GET", link)
        #expect(page.body.contains("3 files were shared with you") && page.body.contains(">trip/day 1/café.jpg</a>"))
        #expect(page.body.contains(#"/zip" download>Download all (ZIP)</a>"#))

        let saved = folder.appending(path: "saved.zip")
        let got = try share(["get", link, "-o", saved.path], server: daemon.address)
        #expect(got.status == 0, "\(got.stderr)")
        let entries = try ZipTools.entries(of: saved.path)
        #expect(entries.map(\.name) == files.map(\.name) && entries.map(\.size) == files.map { Int64($0.bytes.count) })
        #expect(entries.map(\.sha256) == (try files.map { try sha256($0.bytes) }))
        let zip = try Data(contentsOf: saved)

        let one = try await http("GET", link + "/files/0")
        #expect(one.status == 200 && one.headers["content-disposition"]?.contains("UTF-8''caf%C3%A9.jpg") == true)
        #expect(one.headers["content-length"] == "300000")
        let rest = try await http("GET", link + "/zip", headers: ["Range": "bytes=1000-"])
        #expect(rest.status == 206 && rest.headers["content-range"] == "bytes 1000-\(zip.count - 1)/\(zip.count)")
        #expect(try await http("GET", link + "/files/3").status == 404, "past the last file")
        #expect(try await http("GET", link + "/files/-1").status == 404)
        #expect(try await http("GET", link + "/files/x").status == 404)

        let owners = try await http("GET", daemon.address + "/share/\(record.id)/file")
        #expect(owners.status == 200 && owners.headers["content-length"] == "\(zip.count)", "the owner's download is the same ZIP")
        #expect(try await http("GET", daemon.address + "/share/\(record.id)/files/2").body == "# Day 1\n")
        let counted = try WireJSON.decoder().decode(
            ShareRecord.self, from: Data(try await http("GET", daemon.address + "/share/" + record.id).body.utf8))
        #expect(counted.downloads == 2, "the whole ZIP, and its rest from byte 1000 on, each reached its end; a file alone did not")
        #expect(try await http("GET", link + "/files/2").body == "# Day 1\n")
        let byFiles = try WireJSON.decoder().decode(
            ShareRecord.self, from: Data(try await http("GET", daemon.address + "/share/" + record.id).body.utf8))
        #expect(byFiles.downloads == 3, "the last file, taken alone, completes a download taken file by file")
        #expect(daemon.stop() == 0)
    }

    /// Files in a bucket, handed out by redirects: a ZIP (or one file of several) is no object of the bucket, so it is
    /// streamed from the files' object, ranges read from the store, never a redirect to the whole object.
    @Test func aZIPOfFilesInABucketIsStreamedFromTheirObject() async throws {
        let folder = try temporaryFolder("bundle-bucket")
        let node = try Daemon(
            folder: folder, arguments: ["--listen", "127.0.0.1:0"],
            environment: ["SHARE_FILES_DOWNLOADS": "redirect"].merging(try TestS3.daemonEnvironment()) { $1 })
        let (trip, files) = try trip(in: folder)
        try randomBytes(6 * 1_048_576 + 5, writtenTo: trip.appending(path: "video.mp4"))
        let record = try record(try share(["add", trip.path, "--json"], server: node.address))
        let link = node.address + (record.link ?? "")
        let saved = folder.appending(path: "saved.zip")
        #expect(try share(["get", link, "-o", saved.path], server: node.address).status == 0)
        let entries = try ZipTools.entries(of: saved.path)
        #expect(entries.map(\.name) == files.map(\.name) + ["trip/video.mp4"], "\(entries.map(\.name))")
        #expect(entries.first { $0.name == "trip/notes.md" }?.sha256 == (try sha256(Data("# Day 1\n".utf8))))
        let one = try await http("GET", link + "/files/2", followingRedirects: false)
        #expect(one.status == 200 && one.body == "# Day 1\n", "one file of several is sent, not a redirect")
        withExtendedLifetime(node) {}
    }

    @Test func filesSentTogetherUnderALimitOfOneDownloadCountOnce() async throws {
        let folder = try temporaryFolder("bundle-together")
        let daemon = try Daemon(folder: folder)
        let contract = folder.appending(path: "contract.pdf")
        let annex = folder.appending(path: "annex.pdf")
        try Data("%PDF contract".utf8).write(to: contract)
        try Data("%PDF annex".utf8).write(to: annex)
        let record = try record(
            try share(
                ["add", contract.path, annex.path, "--together", "--name", "Signed.zip", "--max-downloads", "1", "--json"], server: daemon.address))
        #expect(record.name == "Signed.zip" && record.files?.map(\.name) == ["contract.pdf", "annex.pdf"])
        let named = try self.record(
            try share(["add", contract.path, annex.path, "--together", "--name", "scan.pdf", "--json"], server: daemon.address))
        let namedLink = daemon.address + (named.link ?? "")
        #expect(try await http("GET", namedLink + "/preview").status == 404, "files together are no PDF, whatever their name")
        #expect(!(try await http("GET", namedLink).body.contains(#"class="preview""#)))
        #expect(try await http("GET", daemon.address + "/share/\(named.id)/preview").status == 404)
        let link = daemon.address + (record.link ?? "")
        #expect(try await http("HEAD", link + "/files/0").status == 200, "a look at one file spends nothing")
        let directory = try await http("GET", link + "/zip", headers: ["Range": "bytes=-120"])
        #expect(directory.status == 206, "a tool reads the ZIP's directory first: that is no download")
        let zip = try await http("GET", link + "/zip")
        #expect(zip.status == 200 && zip.headers["content-disposition"]?.contains(#"filename="Signed.zip""#) == true)
        #expect(try await http("GET", link + "/zip").status == 410, "the one download was the ZIP")
        #expect(try await http("GET", link + "/files/1").status == 410)
        let annexes = folder.appending(path: "annexes")
        try FileManager.default.createDirectory(at: annexes, withIntermediateDirectories: true)
        try Data("%PDF annex".utf8).write(to: annexes.appending(path: "annex.pdf"))
        try FileManager.default.createDirectory(at: annexes.appending(path: "sub"), withIntermediateDirectories: true)
        let dotted = try self.record(try share(["add", annexes.path + "/sub/..", "--json"], server: daemon.address))
        #expect(dotted.name == "annexes.zip" && dotted.files?.map(\.name) == ["annexes/annex.pdf"], "a folder named as it is, not as typed")
        let twice = try share(["add", contract.path, contract.path, "--together"], server: daemon.address)
        #expect(twice.status != 0 && twice.stderr.contains("files[1].name") && twice.stderr.contains("listed twice"), "\(twice.stderr)")
        #expect(daemon.stop() == 0)
    }

    @Test func aBundleThatBreaksARuleIsRefusedNamingTheField() async throws {
        let folder = try temporaryFolder("bundle-refused")
        let daemon = try Daemon(folder: folder, environment: ["SHARE_SERVER_MAX_UPLOAD_BYTES": "1000"])
        let tus = ["Tus-Resumable": "1.0.0"]
        func refusal(_ body: String, headers: [String: String] = tus) async throws -> HTTPResult {
            try await http("POST", daemon.address + "/share/bundles", body: body, headers: headers)
        }
        let cases: [(body: String, status: Int, names: String)] = [
            (#"{"files":[]}"#, 400, "files"),
            (#"{"files":[{"name":"a/../b","size":1}]}"#, 400, "files[0].name"),
            (#"{"files":[{"name":"/etc/passwd","size":1}]}"#, 400, "files[0].name"),
            (#"{"files":[{"name":"a","size":1},{"name":"a/b","size":1}]}"#, 400, "both a file and a folder"),
            (#"{"files":[{"name":"a","size":-1}]}"#, 400, "files[0].size"),
            (#"{"files":[{"name":"a"}]}"#, 400, "files[0].size"),
            (#"{"files":[{"name":"a","size":600},{"name":"b","size":600}]}"#, 413, "max_upload_bytes"),
        ]
        for (body, status, names) in cases {
            let answer = try await refusal(body)
            #expect(answer.status == status && answer.body.contains(names), "\(body): \(answer.status) \(answer.body)")
        }
        #expect(try await refusal(#"{"files":[{"name":"a","size":1}]}"#, headers: [:]).status == 400, "tus is spoken")
        let empty = try await refusal(#"{"files":[{"name":"a.txt","size":0},{"name":"b.txt","size":0}]}"#)
        #expect(empty.status == 201 && empty.body.contains(#""name":"2 files.zip""#), "empty files make their share at once")
        #expect(daemon.stop() == 0)
    }
}
