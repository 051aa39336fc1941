import Foundation
import ShareHistory
import ShareKit
import ShareSQLite
import ShareTestSupport

/// Every kind of change a history goes through, drawn at random (seeded, so a failure replays): creations,
/// renames that change the type, moves, trashing, restoring, purging one record or the old trash, imports
/// with records of their own, records already held, and records straight into the trash, and batches of each. Times cluster where
/// zones are awkward: Amsterdam's +00:19:32 of 1937, 1965, Sao Paulo's midnight DST start of 2018, and 2021 with
/// New York's, Lord Howe's half-hour and Chatham's changes; some fall exactly on a quarter hour.
public struct RandomChanges {
    public enum Kind: CaseIterable {
        case create, rename, move, trash, restore, purge, purgeTrash, importBatch, batch
    }

    /// The store, which purges the old trash of every history.
    public let store: any ShareStore
    /// The history changed.
    public let history: any HistoryStore
    private var generator: SplitMix
    private var ids: [String] = []
    private var made: Set<Kind> = []
    private var imports = 0
    /// Part of the ids imports give, so that two users' changes never give the same one.
    private let seed: UInt64

    public init(_ store: any ShareStore, owner: String = "", seed: UInt64 = 22) {
        self.store = store
        history = store.history(of: owner, quota: nil)
        generator = SplitMix(seed: seed)
        self.seed = seed
    }

    /// How many kinds of change have been made at least once.
    public var kindsMade: Int { made.count }

    private static let windows = [
        ("1937-01-01T00:00:00Z", "1937-12-31T00:00:00Z"), ("1965-05-01T00:00:00Z", "1965-08-01T00:00:00Z"),
        ("2018-10-25T00:00:00Z", "2018-11-15T00:00:00Z"), ("2021-01-01T00:00:00Z", "2022-01-01T00:00:00Z"),
    ].map { (Timestamp(rfc3339: $0.0)!.millisecondsSinceEpoch, Timestamp(rfc3339: $0.1)!.millisecondsSinceEpoch) }
    private static let extensions = ["pdf", "jpg", "png", "docx", "txt", "zip", "mp3", "mp4", "xlsx", "bin"]

    public mutating func apply(_ count: Int) async throws {
        for _ in 0..<count {
            let kind = ids.count < 10 ? .create : Kind.allCases.randomElement(using: &generator)!
            do {
                try await apply(kind)
                made.insert(kind)
            } catch is ShareError {
                // A record drawn was purged already, or a restore met a live one: nothing changed.
            }
        }
    }

    private mutating func apply(_ kind: Kind) async throws {
        switch kind {
        case .create:
            ids.append(try await history.createShare(try newShare(id: nil), by: "test").id)
        case .rename:
            _ = try await history.updateShare(id: pick(), try SharePatch(name: name(), folder: nil), includeTrashed: true, by: "test")
        case .move:
            _ = try await history.updateShare(id: pick(), try SharePatch(name: nil, folder: folder()), includeTrashed: false, by: "test")
        case .trash:
            try await history.trashShare(id: pick(), includeTrashed: false, now: time(), by: "test")
        case .restore:
            _ = try await history.restoreShare(id: pick(), by: "test")
        case .purge:
            try await history.purgeShare(id: pick())
        case .purgeTrash:
            _ = try await store.purgeTrash(trashedBefore: time())
        case .importBatch:
            imports += 1
            let session = try await history.beginImport(by: "test")
            var batch: [(line: Int, share: NewShare)] = []
            for line in 1...Int.random(in: 1...12, using: &generator) {
                // One in four records has an id the history holds already, and is skipped.
                let id = line % 4 == 0 ? pick() : "import-\(seed)-\(imports)-\(line)"
                batch.append((line, try newShare(id: id, trashed: line % 5 == 0)))
            }
            let taken = Set(try await session.stage(batch).map(\.line))
            _ = try await session.finish()
            ids += batch.filter { !taken.contains($0.line) }.compactMap(\.share.id).filter { !ids.contains($0) }
        case .batch:
            // Many at once, by ids or by a folder's tree, moved, trashed, restored or purged.
            let changes: [BatchChange] = [.move(folder: folder()), .trash, .restore, .purge]
            let change = changes.randomElement(using: &generator)!
            let targets: BatchTargets =
                Bool.random(using: &generator)
                ? .ids([pick(), pick(), pick()])
                : .matching(try ShareQuery(parameters: [("folder", folder()), ("recursive", "true")], defaultZone: ZonedCalendar(zone: .gmt)))
            _ = try await history.batch(change, targets, now: time(), by: "test")
        }
    }

    private mutating func pick() -> String {
        ids.randomElement(using: &generator)!
    }

    private mutating func name() -> String {
        "file-\(Int.random(in: 1...999, using: &generator)).\(Self.extensions.randomElement(using: &generator)!)"
    }

    private mutating func time() -> Timestamp {
        let (start, end) = Self.windows.randomElement(using: &generator)!
        var instant = Int64.random(in: start..<end, using: &generator)
        if Bool.random(using: &generator) { instant -= instant % (15 * 60_000) }
        return Timestamp(millisecondsSinceEpoch: instant)
    }

    /// A folder, nested up to three deep, with neighbours that share a prefix (`/a` and `/a b`).
    private mutating func folder() -> String {
        ["/", "/a", "/a/b", "/a/b/c", "/a b", "/moved", "/写真"].randomElement(using: &generator)!
    }

    private mutating func newShare(id: String?, trashed: Bool = false) throws -> NewShare {
        let created = time()
        let size =
            Int.random(in: 0..<20, using: &generator) == 0
            ? Int64.max - Int64.random(in: 0..<1000, using: &generator) : Int64.random(in: 0..<10_000_000, using: &generator)
        return try NewShare(
            id: id, name: name(), folder: folder(), createdAt: created.description, size: size,
            trashedAt: trashed ? Timestamp(millisecondsSinceEpoch: created.millisecondsSinceEpoch + 1000).description : nil)
    }
}
