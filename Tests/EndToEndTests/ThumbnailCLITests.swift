import Foundation
import ShareKit
import ShareTestSupport
import Testing

/// `share add` of a picture: the CLI user never thinks about thumbnails, yet the page shows the picture.
@Suite(.serialized) struct ThumbnailCLITests {
    @Test func addingAPictureSendsItsThumbnailAlongAndOtherFilesAsBefore() async throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        let photo = folder.appending(path: "beach.jpg")
        try Data(try Pictures.bytes("photo.jpg")).write(to: photo)
        let report = folder.appending(path: "report.pdf")
        try Data("%PDF-1.4".utf8).write(to: report)

        let added = try share(["add", photo.path, report.path, "--json"], server: daemon.address)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr.isEmpty, "\(added.stderr)")
        let records = try added.stdout.split(separator: "\n").map { try WireJSON.decoder().decode(ShareRecord.self, from: Data($0.utf8)) }
        #expect(records.map(\.name) == ["beach.jpg", "report.pdf"])
        #expect(records.map(\.thumbnail) == [true, nil])
        let thumbnail = try await http("GET", "\(daemon.address)/share/\(records[0].id)/thumbnail")
        #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/webp")

        let skipped = try share(["add", photo.path, "--no-thumbnail", "--json"], server: daemon.address)
        #expect(try WireJSON.decoder().decode(ShareRecord.self, from: Data(skipped.stdout.utf8)).thumbnail == nil)
        #expect(daemon.stop() == 0)
    }

    @Test func aPictureTheServerCannotReadIsRecordedWithAWarning() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder)
        // A PDF named as a picture: the server reads its first bytes, not its name.
        let disguised = folder.appending(path: "holiday.png")
        try Data("%PDF-1.4 not a picture".utf8).write(to: disguised)

        let added = try share(["add", disguised.path], server: daemon.address)
        #expect(added.status == 0)
        #expect(added.stdout.contains("  holiday.png\n  link: "), "\(added.stdout)")
        #expect(
            added.stderr == "share: warning: no thumbnail for \(disguised.path): the picture (the request body) is not a picture in a "
                + "format thumbnails are made from (JPEG, PNG, WebP, GIF, BMP, HEIC)\n")
        #expect(try share(["ls"], server: daemon.address).stdout.contains("holiday.png"))
        #expect(daemon.stop() == 0)
    }

    @Test func aPictureLargerThanTheServerTakesIsRefusedBeforeItIsSent() throws {
        let folder = try temporaryFolder()
        let daemon = try Daemon(folder: folder, environment: ["SHARE_SERVER_MAX_PICTURE_BYTES": "1000"])
        let photo = folder.appending(path: "beach.jpg")
        try Data(try Pictures.bytes("photo.jpg")).write(to: photo)

        let added = try share(["add", photo.path], server: daemon.address)
        #expect(added.status == 0)
        #expect(
            added.stderr
                == "share: warning: no thumbnail for \(photo.path): the request body (4662 bytes) is larger than the 1000 bytes the server accepts\n"
        )
        #expect(daemon.stop() == 0)
    }
}
