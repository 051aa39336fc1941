import Foundation

/// `GET /share/folders`: one subfolder of the folder asked about, with the live records in it and below it.
public struct FolderUsage: Codable, Sendable, Equatable {
    /// The subfolder's path (`/reports/2021`).
    public var folder: String
    /// Its last segment (`2021`).
    public var name: String
    public var count: Int
    /// Exact beyond 64 bits, like every sum of sizes.
    public var bytes: Decimal

    public init(folder: String, name: String, count: Int, bytes: Decimal) {
        self.folder = folder
        self.name = name
        self.count = count
        self.bytes = bytes
    }
}

extension FolderUsage {
    /// The subfolders of `parent` holding the records of `totals` (each a folder below `parent`, with the count and
    /// bytes of the live records in that folder itself), each with everything below it, by name (case-insensitively,
    /// then exactly).
    public static func subfolders(of parent: String, adding totals: some Sequence<(folder: String, total: ShareStats.Total)>) -> [FolderUsage] {
        let prefix = FolderPath.descendantPrefix(of: parent)
        var sums: [String: ShareStats.Total] = [:]
        for (below, total) in totals {
            let name = String(below.dropFirst(prefix.count).prefix { $0 != "/" })
            sums[name, default: ShareStats.Total()].count += total.count
            sums[name, default: ShareStats.Total()].bytes += total.bytes
        }
        return sums.map { name, total in FolderUsage(folder: prefix + name, name: name, count: total.count, bytes: total.bytes) }
            .sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }
}
