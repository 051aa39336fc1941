import Foundation
import ShareClient

extension CommandContext {
    /// Prints a paged log as its pages arrive: one JSON array of every page's elements for scripts, a table for
    /// people (its columns widened as rows need), or `empty` when there was nothing.
    func printPages<Entry>(
        header: [String], rightAligned: Set<Int> = [], empty: String,
        _ fetch: (_ page: (_ entries: [Entry], _ body: Data) -> Void) throws(ClientError) -> Void, row: @escaping (Entry) -> [String]
    ) throws {
        var table = GrowingTable(header: header, rightAligned: rightAligned)
        var array = StreamedArray(output: rawOutput)
        var any = false
        try call { () throws(ClientError) in
            try fetch { entries, body in
                guard !json else { return array.append(elementsOf: body) }
                any = any || !entries.isEmpty
                if !entries.isEmpty { print(table.lines(entries.map(row), style: style).joined(separator: "\n")) }
            }
        }
        if json { array.close() } else if !any { print(empty) }
    }
}
