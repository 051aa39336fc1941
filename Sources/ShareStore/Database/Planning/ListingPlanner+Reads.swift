import ShareKit

/// The reads that can answer a query, by the indexes the schema has: for each sort, one over the live records,
/// one led by type and one led by folder; the trigram index for text.
extension ListingPlanner {
    /// Indexes read in the listing's order: the sort's own, and the ones led by a type or the folder asked for.
    func orderedReads() -> [IndexRead] {
        let sort = query.sort
        let exactFolder = query.recursive ? nil : query.folder
        let dateServed = !hasDateRange || sort == .createdAt
        let rowsNeedTests = !dateServed || !(query.nameContains ?? "").isEmpty || subtree != nil
        var base = ShareFilter(live: true)
        if let cursor = listing.cursorCondition { base.add(cursor) }
        if sort == .createdAt { addDateRange(to: &base) }
        var reads: [IndexRead] = []
        if let types = query.types {
            let seeks = types.map(\.rawValue).sorted().map { type in base.adding("type = ?", type) }
            reads.append(IndexRead(index: Self.index(led: "type", sort), seeks: seeks, answersEveryFilter: !rowsNeedTests && exactFolder == nil))
        }
        if let exactFolder {
            let seek = base.adding("folder = ?", exactFolder)
            reads.append(IndexRead(index: Self.index(led: "folder", sort), seeks: [seek], answersEveryFilter: !rowsNeedTests && query.types == nil))
        }
        let global = !rowsNeedTests && query.types == nil && exactFolder == nil
        reads.append(IndexRead(index: Self.index(led: nil, sort), seeks: [base], answersEveryFilter: global))
        return reads
    }

    /// Indexes holding every match of a filter, but not in the listing's order: a date range when the sort is
    /// not by time, a folder with its subfolders.
    func unorderedReads() -> [IndexRead] {
        var reads: [IndexRead] = []
        if hasDateRange && query.sort != .createdAt {
            var range = ShareFilter(live: true)
            addDateRange(to: &range)
            reads.append(IndexRead(index: Self.index(led: nil, .createdAt), seeks: [range]))
            if let types = query.types {
                let seeks = types.map(\.rawValue).sorted().map { type in range.adding("type = ?", type) }
                reads.append(IndexRead(index: Self.index(led: "type", .createdAt), seeks: seeks))
            }
            if let folder = query.folder, !query.recursive {
                reads.append(IndexRead(index: Self.index(led: "folder", .createdAt), seeks: [range.adding("folder = ?", folder)]))
            }
        }
        if let subtree {
            // The folder itself, and its descendants: the folders from "/a/" up to, not including, "/a0".
            let prefix = FolderPath.descendantPrefix(of: subtree)
            let live = ShareFilter(live: true)
            let descendants = live.adding("folder >= ? AND folder < ?", [prefix, String(prefix.dropLast()) + "0"])
            reads.append(IndexRead(index: Self.index(led: "folder", .createdAt), seeks: [live.adding("folder = ?", subtree), descendants]))
        }
        return reads
    }

    private var hasDateRange: Bool { query.createdFrom != nil || query.createdBefore != nil }

    /// The folder whose whole tree is asked for; nil for the root's, which is every record.
    private var subtree: String? {
        guard query.recursive, let folder = query.folder, folder != FolderPath.root else { return nil }
        return folder
    }

    private func addDateRange(to filter: inout ShareFilter) {
        if let from = query.createdFrom { filter.add("created_at >= ?", from.millisecondsSinceEpoch) }
        if let before = query.createdBefore { filter.add("created_at < ?", before.millisecondsSinceEpoch) }
    }

    /// The live records' index led by `column` (none, `type` or `folder`), then the sort's column and the id.
    static func index(led column: String?, _ sort: ListingSort) -> String {
        // The first folder index, from before the others, is named without its sort.
        if column == "folder" && sort == .createdAt { return "share_live_by_folder" }
        let sorted = sort == .createdAt ? "created" : sort.rawValue
        return "share_live_by_" + (column.map { $0 + "_" } ?? "") + sorted
    }
}
