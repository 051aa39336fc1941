import Foundation
import Testing

/// `bytes` random bytes, which no compression shrinks and no two files share; written to `url` when given.
@discardableResult
func randomBytes(_ bytes: Int, writtenTo url: URL? = nil) throws -> Data {
    let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
    defer { try? random.close() }
    let data = try #require(try random.read(upToCount: bytes))
    if let url { try data.write(to: url) }
    return data
}

/// The paths of the files a daemon with its database in `folder` keeps for shares.
func blobFiles(_ folder: URL) -> [String] {
    let root = folder.appending(path: "share.db.files/blobs").path
    let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
    return names.filter { $0.count > 40 }.map { root + "/" + $0 }
}
