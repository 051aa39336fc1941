import Foundation
import ShareHistory
import ShareKit
import ShareSQLite
import ShareTestSupport

/// A generated history with the shapes that make listings hard: a day holding thousands of records, a type and
/// a folder found only among the oldest records, a type with none, a folder of ten, names that tie, sizes that
/// tie, a folder whose name the tree's prefix also starts, a rare word and common ones, links in every state (a few
/// revoked), download counts that tie, and some of it trashed.
public enum GridHistory {
    public static let start = Timestamp(rfc3339: "2021-01-01T00:00:00Z")!.millisecondsSinceEpoch
    public static let end = Timestamp(rfc3339: "2026-01-01T00:00:00Z")!.millisecondsSinceEpoch
    public static let busyDay = Timestamp(rfc3339: "2023-06-15T00:00:00Z")!.millisecondsSinceEpoch
    public static let endOf2021 = Timestamp(rfc3339: "2022-01-01T00:00:00Z")!.millisecondsSinceEpoch

    /// What drawn ids are made of: both cases, so that ties between ids are ordered as ids compare (case-insensitively).
    public static let idCharacters = Array("ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz0123456789")
    public static let words = ["report", "photo", "notes", "invoice", "budget", "summary", "年度报告", "résumé", "plan", "draft"]
    public static let extensions = [
        ("pdf", 25), ("jpg", 25), ("png", 5), ("docx", 12), ("xlsx", 10), ("mp4", 5), ("txt", 8), ("zip", 5), ("pptx", 5),
    ]
    public static let folders = [
        "/", "/", "/reports", "/reports/2021", "/reports/2021/q1", "/reports/2022", "/reports-old", "/reports.bak", "/photos",
        "/projects/alpha", "/projects/beta",
    ]

    /// The link of the share on `line`, a third of them: downloaded a few times each, some revoked, some with their
    /// downloads used up, some past their time, some expiring in years.
    private static func link(_ line: Int, created: Int64) -> NewLink {
        var link = NewLink(source: "https://elsewhere.example/\(line)")
        link.downloads = Int64(line % 41)
        if line % 51 == 0 { link.revokedAt = Timestamp(millisecondsSinceEpoch: created + Timestamp.millisecondsPerDay) }
        if line % 9 == 0 { link.maxDownloads = 20 }
        if line % 12 == 0 { link.expiresAt = Timestamp(millisecondsSinceEpoch: created + 30 * Timestamp.millisecondsPerDay) }
        if line % 24 == 0 { link.expiresAt = Timestamp(rfc3339: "2031-01-01T00:00:00Z") }
        return link
    }

    /// Fills `database` with `records` records; with `idSeed`, their ids are drawn from it (mixed case, as
    /// imported ids may be) rather than by the store, so that two stores filled alike hold the same records.
    public static func fill(_ database: any HistoryStore, records: Int, idSeed: UInt64? = nil) async throws {
        var generator = SplitMix(seed: 10)
        var ids = idSeed.map(SplitMix.init(seed:))
        let weights = extensions.reduce(0) { $0 + $1.1 }
        let session = try await database.beginImport()
        var batch: [(line: Int, share: NewShare)] = []
        for line in 1...records {
            var created = Int64.random(in: start..<end, using: &generator)
            if line % 33 == 0 { created = busyDay + Int64.random(in: 0..<Timestamp.millisecondsPerDay, using: &generator) }
            var pick = Int.random(in: 0..<weights, using: &generator)
            var ext = extensions[0].0
            for (candidate, weight) in extensions {
                if pick < weight {
                    ext = candidate
                    break
                }
                pick -= weight
            }
            var folder = folders.randomElement(using: &generator)!
            let old = created < endOf2021
            if old && line % 7 == 0 { ext = "mp3" }
            if old && line % 5 == 0 { folder = "/archive" }
            if line % 10_000 == 0 { folder = "/tiny" }
            var name = words.randomElement(using: &generator)!
            if line % 4 != 0 { name += " \(Int.random(in: 1...300, using: &generator))" }
            if line % 5_000 == 0 { name = "zebra " + name }
            let size: Int64 = line % 10 == 0 ? 0 : Int64(exp(Double.random(in: 3...22, using: &generator)))
            let trashed = line % 31 == 0 ? Timestamp(millisecondsSinceEpoch: created + 1000).description : nil
            var id: String?
            if ids != nil { id = String((0..<10).map { _ in idCharacters.randomElement(using: &ids!)! }) }
            var share = try NewShare(
                id: id, name: name + "." + ext, folder: folder, createdAt: Timestamp(millisecondsSinceEpoch: created).description,
                size: size, trashedAt: trashed)
            if line % 3 == 0 { share.link = link(line, created: created) }
            batch.append((line, share))
            if batch.count == 2_000 {
                _ = try await session.stage(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        _ = try await session.stage(batch)
        _ = try await session.finish()
    }
}
