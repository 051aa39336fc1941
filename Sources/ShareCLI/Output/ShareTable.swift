import Foundation
import ShareKit

/// Records as an aligned table, one row like the app's: type, name, size, local time, share id.
struct ShareTable {
    let zone: TimeZone
    let style: TerminalStyle

    func render(_ records: [ShareRecord]) -> String {
        let header = ["TYPE", "NAME", "SIZE", "SHARED", "ID"]
        let rows = records.map { record in
            [
                record.type.rawValue, TerminalText.escape(record.name), Formats.size(record.size),
                Formats.localTime(record.createdAt, in: zone), TerminalText.escape(record.id),
            ]
        }
        let table = TextTable.padded([header] + rows, rightAligned: [2])
        var lines = [table[0].map(style.bold).joined(separator: "  ")]
        for (record, cells) in zip(records, table.dropFirst()) {
            let styled = cells.enumerated().map { column, text in
                switch column {
                case 0: return style.category(text, record.type)
                case 4: return style.dim(text)
                default: return text
                }
            }
            lines.append(styled.joined(separator: "  "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
