import Foundation
import ShareKit

/// Records as an aligned table, one row like the app's: type, name, size, local time, share id. Rendered a page at
/// a time as pages arrive; the header comes with the first.
struct ShareTable {
    let zone: TimeZone
    let style: TerminalStyle
    private var table = GrowingTable(header: ["TYPE", "NAME", "SIZE", "SHARED", "ID"], rightAligned: [2])

    init(zone: TimeZone, style: TerminalStyle) {
        self.zone = zone
        self.style = style
    }

    mutating func render(_ records: [ShareRecord]) -> String {
        let rows = records.map { record in
            [
                record.type.rawValue, TerminalText.escape(record.name), ByteSize.text(record.size),
                Formats.localTime(record.createdAt, in: zone), TerminalText.escape(record.id),
            ]
        }
        let (header, padded) = table.pad(rows)
        var lines = header.map { [$0.map(style.bold).joined(separator: "  ")] } ?? []
        for (record, cells) in zip(records, padded) {
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
