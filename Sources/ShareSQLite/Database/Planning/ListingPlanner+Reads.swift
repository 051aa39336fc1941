import ShareHistory
import ShareKit

/// The reads that can answer a query, by the indexes the schema has: for each sort, one over the live records
/// (by name, size and downloads also holding the folder, by time, size and downloads the folded name) and one led
/// by the type; one led by the folder, by time; one of the shares that open by their link's state; the trigram
/// index for text.
extension ListingPlanner {
    /// Indexes read in the listing's order: the ones led by the types or the folder asked for (a folder only by
    /// time), else the sort's own. A read led by a filter reads a part of the sort's own read, in the same order:
    /// it never reads more rows, so the sort's own read is left out when there is one.
    func orderedReads() -> [IndexRead] {
        let sort = query.sort
        let exactFolder = query.recursive ? nil : query.folder
        let folderLed = sort == .createdAt ? exactFolder : nil
        let dateServed = !hasDateRange || sort == .createdAt
        let rowsNeedTests = !dateServed || !query.nameWords.isEmpty || subtree != nil || query.states != nil
        // The cursor is the read's own to add (`IndexRead.orderedRows`), as it resumes past it.
        var base = SQLiteFilter(live: true, owner: owner)
        if sort == .createdAt { base.addCreatedRange(query) }
        var reads: [IndexRead] = []
        if let types = query.types {
            let seeks = Self.typeSeeks(types, from: base)
            reads.append(
                read(Self.index(led: "type", sort), seeks, ordered: true, answersEveryFilter: !rowsNeedTests && exactFolder == nil))
        }
        if let folderLed {
            let seek = base.adding("folder = \(folderLed)")
            reads.append(
                read(Self.index(led: "folder", sort), [seek], ordered: true, answersEveryFilter: !rowsNeedTests && query.types == nil))
        }
        if reads.isEmpty {
            let global = !rowsNeedTests && exactFolder == nil
            reads.append(read(Self.index(led: nil, sort), [base], ordered: true, answersEveryFilter: global))
        }
        return reads
    }

    /// Indexes holding every match of a filter, but not in the listing's order: a date range when the sort is
    /// not by time (led by the types or the folder asked for, as ordered reads are), a folder by name or size, a
    /// folder with its subfolders.
    func unorderedReads() -> [IndexRead] {
        var reads: [IndexRead] = []
        let exactFolder = query.recursive ? nil : query.folder
        if query.sort != .createdAt {
            var range = SQLiteFilter(live: true, owner: owner)
            range.addCreatedRange(query)
            if let types = query.types, hasDateRange {
                reads.append(read(Self.index(led: "type", .createdAt), Self.typeSeeks(types, from: range), ordered: false, totals: datesAndTypes))
            }
            if let exactFolder {
                reads.append(read(Self.index(led: "folder", .createdAt), [range.adding("folder = \(exactFolder)")], ordered: false))
            } else if hasDateRange && query.types == nil {
                reads.append(read(Self.index(led: nil, .createdAt), [range], ordered: false, totals: datesAndTypes))
            }
        }
        if let states = query.states, let now = query.statesJudgedAt {
            reads.append(read(StateSeeks.index, StateSeeks.seeks(states, at: now.millisecondsSinceEpoch, owner: owner), ordered: false))
        }
        if let subtree {
            // The folder itself, and its descendants.
            let live = SQLiteFilter(live: true, owner: owner)
            let descendants = live.adding(SQLiteFilter.descendants(of: subtree))
            let seeks = [live.adding("folder = \(subtree)"), descendants]
            reads.append(read(Self.index(led: "folder", .createdAt), seeks, ordered: false, totals: .folderTree(subtree, owner: owner)))
        }
        guard !query.nameWords.isEmpty else { return reads }
        // With text, a read that would look every row up in the table for its name looks up only the rows the
        // trigram index names.
        return reads.flatMap { read -> [IndexRead] in
            guard read.readsTable, Self.heldColumns[read.index]?.contains("name_key") == false else { return [read] }
            var named = read
            named.amongNamed = true
            named.readsTable = false
            return [named, read]
        }
    }

    /// A read of `index`, knowing whether its rows are read from the table: for a filter on a column the index
    /// lacks, or, read out of order, for the sort value every match is sorted (and the cursor tested) by.
    private func read(
        _ index: String, _ seeks: [SQLiteFilter], ordered: Bool, answersEveryFilter: Bool = false, totals: RowTotals? = nil
    ) -> IndexRead {
        var tested = testedColumns
        if !ordered { tested.insert(SQLiteListing.column(for: query.sort)) }
        let held = Self.heldColumns[index] ?? []
        return IndexRead(
            index: index, seeks: seeks, answersEveryFilter: answersEveryFilter, readsTable: !tested.isSubset(of: held), totals: totals)
    }

    /// The totals of the reads of the query's date range (and types): its other filters and its cursor left out.
    private var datesAndTypes: RowTotals {
        var dates = query
        dates.nameWords = []
        dates.folder = nil
        dates.recursive = false
        dates.cursor = nil
        return .dates(dates, owner: owner)
    }

    /// The columns each live index holds, besides `id` (and `seq`, which every index holds); the owner leads each.
    static let heldColumns: [String: Set<String>] = [
        "share_live_by_created": ["owner", "created_at", "name_key"],
        "share_live_by_name": ["owner", "name_key", "folder"],
        "share_live_by_size": ["owner", "size", "name_key", "folder"],
        "share_live_by_folder": ["owner", "folder", "created_at"],
        "share_live_by_type_created": ["owner", "type", "created_at"],
        "share_live_by_type_name": ["owner", "type", "name_key"],
        "share_live_by_type_size": ["owner", "type", "size"],
        "share_live_by_downloads": ["owner", "downloads", "name_key", "folder"],
        "share_live_by_type_downloads": ["owner", "type", "downloads"],
        // Its seeks hold the state asked for.
        StateSeeks.index: ["owner", "state", "expires_at"],
    ]

    /// The columns the query's filters test.
    private var testedColumns: Set<String> {
        var columns: Set<String> = []
        if !query.nameWords.isEmpty { columns.insert("name_key") }
        if query.folder != nil && !(query.recursive && query.folder == FolderPath.root) { columns.insert("folder") }
        if query.types != nil { columns.insert("type") }
        if hasDateRange { columns.insert("created_at") }
        if query.states != nil { columns.insert("state") }
        return columns
    }

    private var hasDateRange: Bool { query.createdFrom != nil || query.createdBefore != nil }

    /// The folder whose whole tree is asked for; nil for the root's, which is every record.
    private var subtree: String? {
        guard query.recursive, let folder = query.folder, folder != FolderPath.root else { return nil }
        return folder
    }

    /// One seek per type, in a stable order, each `base` and that type.
    private static func typeSeeks(_ types: Set<IconCategory>, from base: SQLiteFilter) -> [SQLiteFilter] {
        types.map(\.rawValue).sorted().map { type in base.adding("type = \(type)") }
    }

    /// The live records' index led by `column` (none, `type` or `folder`), then the sort's column and the id.
    static func index(led column: String?, _ sort: ListingSort) -> String {
        // The folder's one index, by time, is named without its sort.
        if column == "folder" { return "share_live_by_folder" }
        let sorted = sort == .createdAt ? "created" : sort.rawValue
        return "share_live_by_" + (column.map { $0 + "_" } ?? "") + sorted
    }
}
