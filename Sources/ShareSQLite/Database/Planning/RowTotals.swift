import GRDB
import ShareHistory
import ShareKit

/// How the running totals count a read's rows without reading them: a date range (and types) from `share_total`,
/// exactly as statistics do, or a folder's tree from `share_folder_total`. A millisecond or two, whatever the rows.
enum RowTotals: Sendable {
    /// The live records of the query's date range and types (its other filters left out).
    case dates(ShareQuery, owner: Int64)
    /// The live records of a folder and of every folder below it in `owner`'s history.
    case folderTree(String, owner: Int64)

    func rows(_ db: Database) throws -> Int {
        switch self {
        case .dates(let query, let owner):
            return try SQLiteTotalsStatistics(query: query, owner: owner).fetch(by: StatsPeriod.none, db).count
        case .folderTree(let folder, let owner):
            return try FolderTotals.records(inTreeOf: folder, owner: owner, db)
        }
    }
}
